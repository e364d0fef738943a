import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { z } from 'zod'
import { MailProviderError, type MailCredentials } from '../mail-provider.ts'
import { ForbiddenMailCallError, guardMailRequest, type AllowedMailCall } from '../mail-safety.ts'
import { GraphErrorSchema } from './graph-schemas.ts'

/**
 * The Outlook adapter's one way to talk to Microsoft Graph: typed fetch with zod-validated answers
 * (docs/decisions/011-outlook-adapter-and-fake.md). Every request
 * - passes `guardMailRequest` with the adapter's allowlist before anything leaves the process;
 * - sends `Prefer: IdType="ImmutableId"`, so message ids survive moves (providers.md B2);
 * - retries 429/503 after Retry-After, and 5xx and network failures with exponential backoff and
 *   jitter, within a total waiting budget (B2 throttling);
 * - refreshes the access token once after a 401;
 * - turns every other failure into a MailProviderError carrying Graph's status and error code.
 */

export interface RetryPolicy {
  /** Attempts per request, the first included (default 5). */
  maxAttempts: number
  /** First backoff delay (default 500 ms); it doubles per attempt, with jitter. */
  baseDelayMs: number
  /** Longest single wait, Retry-After included (default 30 s). */
  maxDelayMs: number
  /** Total waiting per request; a Retry-After beyond what is left gives up at once (default 60 s). */
  maxTotalWaitMs: number
  /** Per attempt (default 30 s: creating a subscription waits for Graph's 10 s validation handshake). */
  timeoutMs: number
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000, maxTotalWaitMs: 60_000, timeoutMs: 30_000 }

export interface GraphClientOptions {
  /** Graph base URL, e.g. https://graph.microsoft.com/v1.0 (config: MICROSOFT_GRAPH_URL). */
  graphUrl: string
  credentials: MailCredentials
  /** Consulted on every request, so it can depend on state (e.g. the folders the adapter resolved). */
  allowedCalls: () => readonly AllowedMailCall[]
  fetchImpl?: typeof fetch
  retry?: Partial<RetryPolicy>
}

export interface GraphRequest {
  /** A path relative to the base URL (`/me/messages/…`), or an absolute @odata.nextLink / deltaLink. */
  target: string
  /** Query options; names keep their `$`, values are percent-encoded. */
  query?: Record<string, string | number | undefined>
  body?: unknown
  /** More preferences for the Prefer header (e.g. `odata.maxpagesize=100`). */
  prefer?: string[]
  /** Whether a network failure may be retried (the request may have been carried out). Default true. */
  idempotent?: boolean
}

const RETRYABLE = new Set([429, 500, 502, 503, 504])

/** Graph's error code, when the body has one. */
async function errorOf(res: Response): Promise<{ code?: string; message?: string }> {
  try {
    const parsed = GraphErrorSchema.safeParse(await res.json())
    if (parsed.success) return { code: parsed.data.error.code, message: parsed.data.error.message }
  } catch {
    // not JSON: no code
  }
  return {}
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

export class GraphClient {
  private readonly base: URL
  private readonly fetchImpl: typeof fetch
  private readonly retry: RetryPolicy

  constructor(private readonly options: GraphClientOptions) {
    this.base = new URL(options.graphUrl.replace(/\/+$/, ''))
    this.fetchImpl = options.fetchImpl ?? fetch
    this.retry = { ...DEFAULT_RETRY, ...options.retry }
  }

  /** A JSON request whose answer must match `schema`. */
  async json<S extends z.ZodType>(method: string, request: GraphRequest, schema: S): Promise<z.infer<S>> {
    const { res, label } = await this.send(method, request)
    const parsed = schema.safeParse(await res.json().catch(() => undefined))
    if (!parsed.success) throw new MailProviderError(`Graph ${label} answered an unexpected shape: ${parsed.error.issues[0]?.message ?? 'invalid'}`, res.status, 'InvalidResponse')
    return parsed.data
  }

  async text(method: string, request: GraphRequest): Promise<string> {
    const { res } = await this.send(method, request)
    return res.text()
  }

  /** A request whose answer has no body we need (204 No Content). */
  async empty(method: string, request: GraphRequest): Promise<void> {
    const { res } = await this.send(method, request)
    await res.body?.cancel()
  }

  /**
   * Resolves the target to a URL under the base, and refuses anything else: a stored cursor or a
   * nextLink pointing at another host must never receive the mailbox's bearer token.
   */
  resolve(target: string, query?: GraphRequest['query']): { url: URL; relativePath: string } {
    const basePath = this.base.pathname.replace(/\/+$/, '')
    let url: URL
    if (/^https?:\/\//i.test(target)) {
      url = new URL(target)
    } else {
      url = new URL(`${this.base.origin}${basePath}${target}`)
      const parts = Object.entries(query ?? {}).filter((e): e is [string, string | number] => e[1] !== undefined)
      // Built by hand: URLSearchParams would write `$select` as `%24select` and spaces as `+`.
      if (parts.length > 0) url.search = parts.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&')
    }
    if (url.origin !== this.base.origin || !url.pathname.startsWith(`${basePath}/`)) {
      throw new ForbiddenMailCallError(`Refused a Graph request outside ${this.base.origin}${basePath}: ${url.origin}${url.pathname}`)
    }
    // The path as it will be sent (after URL normalisation of dot segments) is what the guard checks.
    return { url, relativePath: url.pathname.slice(basePath.length) }
  }

  private async send(method: string, request: GraphRequest): Promise<{ res: Response; label: string }> {
    const { url, relativePath } = this.resolve(request.target, request.query)
    guardMailRequest(this.options.allowedCalls(), method, relativePath, request.body)
    const label = `${method} ${relativePath}`
    const headers: Record<string, string> = {
      Accept: 'application/json',
      // On every request, not only moves: ids in lists, delta pages and notifications must all be immutable (B2).
      Prefer: ['IdType="ImmutableId"', ...(request.prefer ?? [])].join(', '),
      'client-request-id': randomUUID(),
    }
    if (request.body !== undefined) headers['Content-Type'] = 'application/json'
    const body = request.body !== undefined ? JSON.stringify(request.body) : undefined

    let token = await this.options.credentials.accessToken()
    let refreshed = false
    let waited = 0
    let attempt = 0
    for (;;) {
      attempt += 1
      let res: Response
      try {
        res = await this.fetchImpl(url, {
          method,
          headers: { ...headers, Authorization: `Bearer ${token}` },
          body,
          redirect: 'error',
          signal: AbortSignal.timeout(this.retry.timeoutMs),
        })
      } catch (error) {
        const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
        const delay = this.backoff(attempt)
        if (request.idempotent === false || attempt >= this.retry.maxAttempts || waited + delay > this.retry.maxTotalWaitMs) {
          throw new MailProviderError(`Graph ${label} failed: ${reason}`, 0, 'network_error')
        }
        waited += delay
        await sleep(delay)
        continue
      }
      if (res.ok) return { res, label }

      if (res.status === 401 && !refreshed) {
        // The access token was revoked or expired early: refresh once (MailAuthRevokedError propagates).
        await res.body?.cancel()
        refreshed = true
        token = await this.options.credentials.refresh()
        attempt -= 1
        continue
      }
      const { code, message } = await errorOf(res)
      if (RETRYABLE.has(res.status) && attempt < this.retry.maxAttempts) {
        const hinted = res.status === 429 || res.status === 503 ? retryAfterMs(res.headers.get('retry-after')) : undefined
        const delay = Math.min(hinted ?? this.backoff(attempt), this.retry.maxDelayMs)
        if (waited + delay <= this.retry.maxTotalWaitMs && (hinted === undefined || hinted <= this.retry.maxDelayMs)) {
          waited += delay
          await sleep(delay)
          continue
        }
      }
      if (code === 'MailboxNotEnabledForRESTAPI') {
        // No Exchange Online mailbox (unlicensed, on-premises, consumer account without REST): permanent (B2).
        throw new MailProviderError('This Microsoft account has no Exchange Online mailbox that Graph can reach.', res.status, code)
      }
      throw new MailProviderError(`Graph ${label} answered ${res.status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}`, res.status, code)
    }
  }

  /** Exponential backoff with "equal jitter": half the step fixed, half random. */
  private backoff(attempt: number): number {
    const step = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1))
    return step / 2 + Math.random() * (step / 2)
  }
}
