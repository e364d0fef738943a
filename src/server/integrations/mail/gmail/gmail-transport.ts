import { setTimeout as sleep } from 'node:timers/promises'
import { MailProviderError, type MailCredentials } from '../mail-provider.ts'
import { ForbiddenMailCallError, guardMailRequest, refuseForbiddenGmailLabels, type AllowedMailCall } from '../mail-safety.ts'

/**
 * The only way the Gmail adapter reaches Google: a `fetch` that the googleapis client is built with
 * (gaxios `fetchImplementation`), so every request the SDK makes passes here first
 * (docs/decisions/010-gmail-adapter-and-fake.md). In order, it
 *   1. refuses anything that is not on the adapter's allowlist (deny by default, mail-safety.ts): a
 *      refused request never leaves the process;
 *   2. adds the access token from MailCredentials (the token never enters the SDK's options, so it
 *      cannot end up in an SDK error);
 *   3. refreshes once on 401 and retries;
 *   4. retries 429, 403 rateLimitExceeded/userRateLimitExceeded, 5xx and network failures with
 *      exponential backoff and jitter, honouring Retry-After, within a total time budget (A4).
 */

/** Gmail label names this adapter may create: only its own. */
export const OWN_LABEL_PREFIX = 'Inbox Guard/'

const MESSAGE_ID = '[A-Za-z0-9]{1,64}'

/** Every Gmail call the adapter makes, relative to `${apiUrl}/gmail/v1`. Nothing else goes out. */
export const GMAIL_ALLOWED_CALLS: readonly AllowedMailCall[] = [
  { method: 'GET', path: /^\/users\/me\/profile$/ },
  { method: 'GET', path: /^\/users\/me\/labels$/ },
  {
    method: 'POST',
    path: /^\/users\/me\/labels$/,
    checkBody: (body) => {
      const name = (body as { name?: unknown } | undefined)?.name
      if (typeof name !== 'string' || !name.startsWith(OWN_LABEL_PREFIX)) {
        throw new ForbiddenMailCallError(`Refused to create the label ${String(name)}: the adapter only creates labels under "${OWN_LABEL_PREFIX}"`)
      }
    },
  },
  { method: 'GET', path: /^\/users\/me\/messages$/ },
  { method: 'GET', path: new RegExp(`^/users/me/messages/${MESSAGE_ID}$`) },
  { method: 'POST', path: new RegExp(`^/users/me/messages/${MESSAGE_ID}/modify$`), checkBody: refuseForbiddenGmailLabels },
  { method: 'GET', path: /^\/users\/me\/history$/ },
  { method: 'POST', path: /^\/users\/me\/watch$/ },
  { method: 'POST', path: /^\/users\/me\/stop$/ },
]

export interface RetryPolicy {
  /** Attempts per request, the first included (a 401 refresh does not count). */
  maxAttempts: number
  /** First backoff; doubles each retry, with jitter. */
  baseDelayMs: number
  /** Longest single backoff (a longer Retry-After is still honoured within the total budget). */
  maxDelayMs: number
  /** Total waiting per request; past it the last answer stands. */
  maxTotalDelayMs: number
  /** Per attempt; a slower answer counts as a network failure. */
  attemptTimeoutMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 16_000,
  maxTotalDelayMs: 45_000,
  attemptTimeoutMs: 30_000,
}

export interface GuardedFetchOptions {
  apiUrl: string
  credentials: MailCredentials
  fetchImpl?: typeof fetch
  retry?: Partial<RetryPolicy>
}

const RATE_LIMIT_REASONS = ['rateLimitExceeded', 'userRateLimitExceeded']

/** `{error:{errors:[{reason}], status}}` → the first reason (Gmail's error shape, A4). */
export function gmailErrorReason(body: unknown): string | undefined {
  const error = (body as { error?: { errors?: Array<{ reason?: unknown }>; status?: unknown } } | undefined)?.error
  const reason = error?.errors?.[0]?.reason
  if (typeof reason === 'string') return reason
  return typeof error?.status === 'string' ? error.status : undefined
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Retry-After as seconds or an HTTP date, or Gmail's "Retry after 2024-01-01T00:00:00.000Z" in the message. */
function retryAfterMs(res: Response, body: unknown): number | undefined {
  const header = res.headers.get('retry-after')
  if (header) {
    if (/^\d+$/.test(header.trim())) return Number(header) * 1000
    const at = Date.parse(header)
    if (!Number.isNaN(at)) return Math.max(0, at - Date.now())
  }
  const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message
  const match = typeof message === 'string' ? /Retry after (\d{4}-\d{2}-\d{2}T[\d:.]+Z)/.exec(message) : null
  if (match) return Math.max(0, Date.parse(match[1]!) - Date.now())
  return undefined
}

function rebuild(res: Response, text: string): Response {
  return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers })
}

function requestBody(body: RequestInit['body']): unknown {
  if (body === undefined || body === null) return undefined
  if (typeof body === 'string') return parseJson(body) ?? body
  // The SDK sends JSON strings; anything else is not something this adapter sends.
  throw new ForbiddenMailCallError('Refused a Gmail request with a non-JSON body')
}

export function createGuardedFetch(options: GuardedFetchOptions): typeof fetch {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.retry }
  const base = new URL(options.apiUrl)
  const prefix = `${base.pathname.replace(/\/+$/, '')}/gmail/v1`
  const send = options.fetchImpl ?? fetch

  return async function guardedFetch(input, init = {}) {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const method = (init.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase()
    if (url.origin !== base.origin || !url.pathname.startsWith(`${prefix}/`)) {
      throw new ForbiddenMailCallError(`Refused mail API call ${method} ${url.origin}${url.pathname}: outside the Gmail API`)
    }
    const relativePath = url.pathname.slice(prefix.length)
    guardMailRequest(GMAIL_ALLOWED_CALLS, method, relativePath, requestBody(init.body))

    let token = await options.credentials.accessToken()
    let refreshed = false
    let waited = 0
    let attempt = 0
    for (;;) {
      attempt += 1
      const headers = new Headers(init.headers)
      headers.set('Authorization', `Bearer ${token}`)
      const signals = [AbortSignal.timeout(policy.attemptTimeoutMs), ...(init.signal ? [init.signal] : [])]
      let res: Response
      try {
        res = await send(url, { ...init, method, headers, signal: AbortSignal.any(signals) })
      } catch (error) {
        if (init.signal?.aborted) throw error
        const delay = backoff(attempt, undefined)
        if (attempt < policy.maxAttempts && waited + delay <= policy.maxTotalDelayMs) {
          waited += delay
          await sleep(delay)
          continue
        }
        const code = error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'network_error'
        throw new MailProviderError(`Gmail did not answer ${method} ${relativePath} (${code})`, 0, code)
      }
      if (res.ok || res.status < 400) return res

      const text = await res.text()
      const body = parseJson(text)
      const reason = gmailErrorReason(body)
      if (res.status === 401 && !refreshed) {
        // Access tokens die early (revocation, clock skew): refresh once (A4). A second 401 is final.
        refreshed = true
        attempt -= 1
        token = await options.credentials.refresh()
        continue
      }
      const retryable = res.status === 429 || (res.status >= 500 && res.status !== 501) || (res.status === 403 && RATE_LIMIT_REASONS.includes(reason ?? ''))
      if (retryable && attempt < policy.maxAttempts) {
        const delay = backoff(attempt, retryAfterMs(res, body))
        if (waited + delay <= policy.maxTotalDelayMs) {
          waited += delay
          await sleep(delay)
          continue
        }
      }
      return rebuild(res, text)
    }
  }

  /** Exponential backoff with "equal jitter", never shorter than what the server asked for. */
  function backoff(attempt: number, serverAsked: number | undefined): number {
    const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1))
    const jittered = exponential / 2 + Math.random() * (exponential / 2)
    return Math.max(jittered, serverAsked ?? 0)
  }
}
