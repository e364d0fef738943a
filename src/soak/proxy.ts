import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * The soak's load balancer (docs/decisions/022): APP_URL points here, and every request (browsers,
 * Pub/Sub pushes, Graph notifications, Stripe webhooks) is passed to one of the app's web processes,
 * round robin, skipping one that refuses the connection, as a load balancer with health checks does.
 *
 * It is also where 5xx are counted: an answer an app process gave is counted by status and route; an
 * answer the proxy made itself (no process up, or one killed mid-request) carries `x-soak-proxy` and is
 * counted apart: a restart's downtime is not an app error.
 */

export interface ProxyStats {
  /** Answers from the app, by status. */
  byStatus: Map<number, number>
  /** App answers of 500 or more, by `METHOD path status` (query strings removed). */
  serverErrors: Map<string, number>
  /** Answers the proxy made itself: no process reachable, or a process that died mid-request. */
  unavailable: number
  /** The same, by reason (`no-upstream`, `upstream-reset`) and route. */
  unavailableBy: Map<string, number>
  /** App answers by path prefix group (`/_api/webhooks/gmail`, `/_api/activity`, …). */
  byRoute: Map<string, number>
}

export interface SoakProxy {
  origin: string
  port: number
  stats: ProxyStats
  setUpstreams(ports: number[]): void
  close(): Promise<void>
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'])

/** `/_api/activity?page=2` → `/_api/activity`; ids in paths are kept (the app's paths have none that vary per call). */
export const routeOf = (url: string) => url.split('?')[0]!.replace(/\/[0-9a-f]{16,}$/i, '/:id')

export async function startSoakProxy(options: { port?: number; upstreams: number[] }): Promise<SoakProxy> {
  let upstreams = [...options.upstreams]
  let next = 0
  const stats: ProxyStats = { byStatus: new Map(), serverErrors: new Map(), unavailable: 0, unavailableBy: new Map(), byRoute: new Map() }
  const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1)

  function answerItself(req: IncomingMessage, res: ServerResponse, why: string) {
    stats.unavailable++
    bump(stats.unavailableBy, `${why} ${req.method} ${routeOf(req.url ?? '/')}`)
    if (res.headersSent) {
      res.destroy()
      return
    }
    res.writeHead(502, { 'content-type': 'application/json', 'x-soak-proxy': why })
    res.end(JSON.stringify({ error: `soak proxy: ${why}` }))
  }

  /** Tries each upstream once, starting with the next in turn; a refused connection moves on. */
  function forward(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    const order = upstreams.map((_, i) => upstreams[(next + i) % upstreams.length]!)
    next = (next + 1) % Math.max(1, upstreams.length)
    const attempt = (i: number) => {
      const port = order[i]
      if (port === undefined) return answerItself(req, res, 'no-upstream')
      const headers: Record<string, string | string[]> = {}
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value
      headers['content-length'] = String(body.length)
      const upstream = httpRequest({ host: '127.0.0.1', port, method: req.method, path: req.url, headers }, (answer) => {
        const status = answer.statusCode ?? 0
        bump(stats.byStatus, status)
        bump(stats.byRoute, `${req.method} ${routeOf(req.url ?? '/')}`)
        if (status >= 500) bump(stats.serverErrors, `${req.method} ${routeOf(req.url ?? '/')} ${status}`)
        const out: Record<string, string | string[]> = {}
        for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value
        res.writeHead(status, out)
        answer.pipe(res)
        // A process killed while streaming the answer: the client sees a cut connection.
        answer.on('aborted', () => res.destroy())
      })
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        // Refused: the process is down (restarting); the next one may serve it. Anything later in the
        // exchange (a reset mid-request) is not retried: the request may have had its effect.
        if (error.code === 'ECONNREFUSED') return attempt(i + 1)
        answerItself(req, res, 'upstream-reset')
      })
      upstream.end(body)
    }
    attempt(0)
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => forward(req, res, Buffer.concat(chunks)))
    req.on('error', () => res.destroy())
  })
  server.keepAliveTimeout = 5_000
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    stats,
    setUpstreams(ports) {
      upstreams = [...ports]
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
