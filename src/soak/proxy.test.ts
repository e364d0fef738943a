import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSoakProxy, type SoakProxy } from './proxy.ts'

/** The soak's load balancer: what it forwards, and which 5xx it counts as the app's. */
describe('soak load balancer', () => {
  let app: Server
  let appPort: number
  let closedPort: number
  let proxy: SoakProxy

  beforeAll(async () => {
    app = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        if (req.url === '/boom') {
          res.writeHead(500, { 'content-type': 'application/json' })
          res.end('{"error":"Internal server error"}')
          return
        }
        res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'sid=abc; Path=/' })
        res.end(JSON.stringify({ method: req.method, url: req.url, body: Buffer.concat(chunks).toString(), xff: req.headers['x-forwarded-for'] ?? null }))
      })
    })
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
    appPort = (app.address() as AddressInfo).port
    // A port nothing listens on: a process that is down.
    const gone = createServer()
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve))
    closedPort = (gone.address() as AddressInfo).port
    await new Promise((resolve) => gone.close(resolve))
    proxy = await startSoakProxy({ upstreams: [closedPort, appPort] })
  })
  afterAll(async () => {
    await proxy.close()
    await new Promise((resolve) => app.close(resolve))
  })

  it('passes requests on with their body, headers and cookies, skipping a process that refuses the connection', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${proxy.origin}/_api/settings?x=1`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.0.0.7' } })
      expect(res.status).toBe(200)
      expect(res.headers.get('set-cookie')).toBe('sid=abc; Path=/')
      expect(await res.json()).toEqual({ method: 'POST', url: '/_api/settings?x=1', body: '{"a":1}', xff: '10.0.0.7' })
    }
    expect(proxy.stats.byStatus.get(200)).toBe(2)
  })

  it("counts the app's 5xx by route, and marks its own answers when no process is up", async () => {
    expect((await fetch(`${proxy.origin}/boom`)).status).toBe(500)
    expect(proxy.stats.serverErrors.get('GET /boom 500')).toBe(1)

    proxy.setUpstreams([closedPort])
    const down = await fetch(`${proxy.origin}/_api/activity`)
    expect(down.status).toBe(502)
    expect(down.headers.get('x-soak-proxy')).toBe('no-upstream')
    expect(proxy.stats.unavailable).toBe(1)
    expect(proxy.stats.serverErrors.size).toBe(1)
    proxy.setUpstreams([closedPort, appPort])
  })
})
