import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'

/**
 * The one HTTP helper every local fake is built on (STYLE.md 22, docs/decisions/004-local-fakes.md):
 * loopback listen, routing by method and path pattern, request bodies, a journal of every call, fault
 * injection (status, body, headers, latency, dropped connections) and admin routes under /__admin/
 * (the HTTP twins of the in-process hooks, for tests that run the app in another process).
 *
 * Fakes describe their endpoints as routes; a route's `endpoint` name is what the journal records and
 * what faults are aimed at, so tests say "the next 2 calls to messages.get answer 429".
 */

export interface FakeRequest {
  method: string
  url: URL
  /** Path without the query string. */
  path: string
  /** Path parameters from the route pattern (`:name` segments), URL-decoded. */
  params: Record<string, string>
  headers: IncomingMessage['headers']
  /** The raw body ('' for none). */
  body: string
  /** Adds a field to this call's journal entry (never tokens, codes or message content). */
  note(key: string, value: string | number | boolean): void
}

export interface FakeResponse {
  status: number
  headers?: Record<string, string>
  /** Serialized as JSON unless it is a string or a Buffer. Omit for an empty body. */
  body?: unknown
}

export type FakeHandler = (request: FakeRequest) => FakeResponse | Promise<FakeResponse>

export interface FakeRoute {
  method: string
  /** `/gmail/v1/users/:userId/messages/:id`; a segment `*rest` matches the rest of the path. */
  pattern: string
  /** Name used by the journal and by faults, e.g. `messages.get`. */
  endpoint: string
  handle: FakeHandler
}

/** Thrown by handlers: answered as is and journaled with `error`. */
export class FakeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    /** Short error code for the journal. */
    readonly code = 'error',
  ) {
    super(code)
  }
}

export interface FaultSpec {
  /** Route endpoint name, or '*' for every endpoint of this fake. */
  endpoint: string
  /** Only requests whose path contains this (e.g. one mailbox's address). */
  pathIncludes?: string
  /** Answer with this status (and body/headers) instead of running the handler. */
  status?: number
  body?: unknown
  headers?: Record<string, string>
  /** Wait this long first (then answer the fault, or run the handler when no status is given). */
  delayMs?: number
  /** Close the connection without an answer. */
  drop?: boolean
  /** How many requests it affects (default 1). */
  times?: number
}

export interface JournalEntry {
  at: string
  endpoint: string
  method: string
  /** Path without the query string: codes, states and tokens never enter the journal. */
  path: string
  status: number
  /** Error code of an error answer (`injected_fault` for faults). */
  error?: string
  [extra: string]: string | number | boolean | undefined
}

export interface FakeServerOptions {
  host?: string
  port?: number
  routes: FakeRoute[]
  /** Extra routes under /__admin/ (path patterns include the prefix). */
  adminRoutes?: FakeRoute[]
  /** The provider-style body of an injected fault without an explicit body. */
  faultBody?: (status: number, endpoint: string) => unknown
  /** Body for a path no route matches. */
  notFoundBody?: (path: string) => unknown
  maxBodyBytes?: number
  /** The fake's clock for journal times (fakes with an adjustable clock pass theirs). */
  now?: () => number
}

export interface FakeServer {
  origin: string
  journal: JournalEntry[]
  clearJournal(): void
  injectFault(fault: FaultSpec): void
  clearFaults(): void
  close(): Promise<void>
}

const DEFAULT_MAX_BODY = 1024 * 1024

interface CompiledRoute extends FakeRoute {
  segments: string[]
}

function compile(route: FakeRoute): CompiledRoute {
  return { ...route, segments: route.pattern.split('/').filter(Boolean) }
}

function match(route: CompiledRoute, method: string, parts: string[]): Record<string, string> | null {
  if (route.method !== '*' && route.method !== method) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < route.segments.length; i++) {
    const segment = route.segments[i]!
    if (segment.startsWith('*')) {
      params[segment.slice(1)] = parts.slice(i).join('/')
      return params
    }
    const part = parts[i]
    if (part === undefined) return null
    if (segment.startsWith(':')) params[segment.slice(1)] = part
    else if (segment !== part) return null
  }
  return parts.length === route.segments.length ? params : null
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}

async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buf = chunk as Buffer
    size += buf.length
    if (size > limit) throw new FakeHttpError(413, { error: 'request_too_large' }, {}, 'request_too_large')
    chunks.push(buf)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function send(res: ServerResponse, response: FakeResponse) {
  const { body } = response
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...response.headers }
  if (body === undefined) {
    res.writeHead(response.status, headers)
    res.end()
    return
  }
  const isRaw = typeof body === 'string' || Buffer.isBuffer(body)
  const hasType = Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')
  if (!hasType) headers['Content-Type'] = isRaw ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8'
  res.writeHead(response.status, headers)
  res.end(isRaw ? body : JSON.stringify(body))
}

/** JSON answer helper for handlers. */
export const json = (status: number, body: unknown, headers?: Record<string, string>): FakeResponse => ({ status, body, headers })

/** Parses a JSON request body, or answers 400 with the given provider-style body. */
export function parseJson<T = Record<string, unknown>>(request: FakeRequest, invalidBody: unknown = { error: 'invalid_json' }): T {
  try {
    return (request.body ? JSON.parse(request.body) : {}) as T
  } catch {
    throw new FakeHttpError(400, invalidBody, {}, 'invalid_json')
  }
}

export async function startFakeServer(options: FakeServerOptions): Promise<FakeServer> {
  const now = options.now ?? Date.now
  const routes = options.routes.map(compile)
  const faults: Array<FaultSpec & { remaining: number }> = []
  const journal: JournalEntry[] = []
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY

  const adminRoutes = [
    ...(options.adminRoutes ?? []),
    { method: 'GET', pattern: '/__admin/journal', endpoint: 'admin', handle: () => json(200, journal) },
    {
      method: 'DELETE',
      pattern: '/__admin/journal',
      endpoint: 'admin',
      handle: () => {
        journal.length = 0
        return json(200, {})
      },
    },
    {
      method: 'POST',
      pattern: '/__admin/faults',
      endpoint: 'admin',
      handle: (request: FakeRequest) => {
        api.injectFault(parseJson<FaultSpec>(request))
        return json(200, {})
      },
    },
    {
      method: 'DELETE',
      pattern: '/__admin/faults',
      endpoint: 'admin',
      handle: () => {
        faults.length = 0
        return json(200, {})
      },
    },
  ].map(compile)

  function takeFault(endpoint: string, path: string) {
    const index = faults.findIndex((f) => (f.endpoint === '*' || f.endpoint === endpoint) && (!f.pathIncludes || path.includes(f.pathIncludes)))
    const fault = faults[index]
    if (!fault) return undefined
    fault.remaining -= 1
    if (fault.remaining <= 0) faults.splice(index, 1)
    return fault
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake.invalid')
    const method = req.method ?? 'GET'
    const entry: JournalEntry = { at: '', endpoint: 'unknown', method, path: url.pathname, status: 0 }
    res.on('finish', () => journal.push({ ...entry, at: new Date(now()).toISOString(), status: res.statusCode }))
    try {
      const parts = url.pathname.split('/').filter(Boolean).map(decode)
      const isAdmin = url.pathname.startsWith('/__admin/')
      let found: { route: CompiledRoute; params: Record<string, string> } | undefined
      for (const route of isAdmin ? adminRoutes : routes) {
        const params = match(route, method, parts)
        if (params) {
          found = { route, params }
          break
        }
      }
      if (!found) {
        entry.error = 'not_found'
        return send(res, json(404, options.notFoundBody?.(url.pathname) ?? { error: 'not_found', path: url.pathname }))
      }
      entry.endpoint = found.route.endpoint
      if (!isAdmin) {
        const fault = takeFault(found.route.endpoint, url.pathname)
        if (fault) {
          if (fault.delayMs) await sleep(fault.delayMs)
          if (fault.drop) {
            entry.error = 'dropped'
            res.destroy()
            journal.push({ ...entry, at: new Date(now()).toISOString(), status: 0 })
            return
          }
          if (fault.status !== undefined) {
            entry.error = 'injected_fault'
            const retryAfter: Record<string, string> = fault.status === 429 || fault.status === 503 ? { 'Retry-After': '1' } : {}
            const body = fault.body ?? options.faultBody?.(fault.status, found.route.endpoint) ?? { error: `injected fault ${fault.status}` }
            return send(res, { status: fault.status, headers: { ...retryAfter, ...fault.headers }, body })
          }
        }
      }
      const body = method === 'GET' || method === 'HEAD' ? '' : await readBody(req, maxBody)
      const request: FakeRequest = {
        method,
        url,
        path: url.pathname,
        params: found.params,
        headers: req.headers,
        body,
        note: (key, value) => {
          entry[key] = value
        },
      }
      send(res, await found.route.handle(request))
    } catch (error) {
      if (res.headersSent) {
        res.destroy()
        return
      }
      if (error instanceof FakeHttpError) {
        entry.error = error.code
        return send(res, { status: error.status, body: error.body, headers: error.headers })
      }
      entry.error = 'server_error'
      send(res, json(500, { error: 'server_error', message: error instanceof Error ? error.message : String(error) }))
    }
  }

  const server = createServer((req, res) => void handle(req, res))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`

  const api: FakeServer = {
    origin,
    journal,
    clearJournal: () => {
      journal.length = 0
    },
    injectFault(fault) {
      if (typeof fault.endpoint !== 'string' || !fault.endpoint) throw new Error('A fault needs an endpoint name or "*"')
      if (fault.status !== undefined && (!Number.isInteger(fault.status) || fault.status < 100 || fault.status > 599)) {
        throw new Error(`Invalid status ${String(fault.status)}`)
      }
      faults.push({ ...fault, remaining: fault.times ?? 1 })
    },
    clearFaults: () => {
      faults.length = 0
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()))
        // Keep-alive connections from fetch would otherwise hold close() open.
        server.closeAllConnections()
      }),
  }
  return api
}
