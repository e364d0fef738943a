import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestApp, type TestApp } from '#server/test/harness.ts'
import type { PrerenderedIndex } from './static-client.ts'

// docs/decisions/020-prerendered-public-pages.md: the build writes the public pages into
// dist/client/prerendered; the server completes them with its app info and sends them.
function writeClient(dir: string) {
  mkdirSync(path.join(dir, 'assets'))
  mkdirSync(path.join(dir, 'prerendered'))
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/app-abc123.js"></script>')
  writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log("app")')
  const index: PrerenderedIndex = {
    appInfoPlaceholder: '<!--app-info-->',
    pages: [
      { path: '/', name: 'home', status: 200 },
      { path: '/pricing', name: 'pricing', status: 200 },
      { path: '/_not-found', name: 'not-found', status: 404 },
    ],
  }
  writeFileSync(path.join(dir, 'prerendered', 'pages.json'), JSON.stringify(index))
  for (const { name } of index.pages) {
    for (const demo of [false, true]) {
      const notice = demo ? '<section aria-label="Demo mode">Demo mode</section>' : ''
      // Long enough that compression is worth it, as real pages are.
      const text = `${name} page. `.repeat(200)
      writeFileSync(path.join(dir, 'prerendered', `${name}${demo ? '.demo' : ''}.html`), `<!doctype html><div id="root">${notice}<main>${text}</main></div>\n<!--app-info-->`)
    }
  }
}

const appInfoOf = (html: string) => {
  const json = /<script type="application\/json" id="app-info">([^<]*)<\/script>/.exec(html)?.[1]
  return json === undefined ? undefined : (JSON.parse(json) as unknown)
}

describe('prerendered public pages', () => {
  let ctx: TestApp
  let demo: TestApp
  let clientDir: string
  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(tmpdir(), 'inbox-guard-prerendered-'))
    writeClient(clientDir)
    ctx = await createTestApp('pglite', { clientDir })
    // No Google or Microsoft credentials: demo mode.
    demo = await createTestApp('pglite', { clientDir, env: { GOOGLE_CLIENT_ID: '', GOOGLE_CLIENT_SECRET: '' } })
  })
  afterAll(async () => {
    await ctx?.close()
    await demo?.close()
    rmSync(clientDir, { recursive: true, force: true })
  })

  it('GET / answers the prerendered page with the app info of GET /_api/app/info, revalidated on every visit', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['cache-control']).toBe('no-cache')
    expect(res.body).toContain('home page.')
    expect(res.body).not.toContain('Demo mode')
    expect(res.body).not.toContain('<!--app-info-->')
    const info = await ctx.app.inject({ method: 'GET', url: '/_api/app/info' })
    expect(appInfoOf(res.body)).toEqual(info.json())
    expect(appInfoOf(res.body)).toMatchObject({ demoMode: false })
  })

  it('in demo mode, sends the page with the demo-mode notice and says so in the app info', async () => {
    const res = await demo.app.inject({ method: 'GET', url: '/pricing' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('<section aria-label="Demo mode">')
    expect(res.body).toContain('pricing page.')
    expect(appInfoOf(res.body)).toMatchObject({ demoMode: true })
  })

  it('a SPEC 2 route without a prerendered page (/dashboard) still answers the empty shell with 200', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/dashboard' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('<div id="root"></div>')
    expect(res.headers['cache-control']).toBe('no-cache')
  })

  it.each(['/nope', '/dashboard/extra', '/_not-found'])('GET %s answers the prerendered Not Found page with 404', async (url) => {
    const res = await ctx.app.inject({ method: 'GET', url })
    expect(res.statusCode).toBe(404)
    expect(res.body).toContain('not-found page.')
    expect(appInfoOf(res.body)).toMatchObject({ demoMode: false })
  })

  it('the page files are only sent completed: /prerendered/home.html is not found', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/prerendered/home.html' })
    expect(res.statusCode).toBe(404)
    expect(res.body).toContain('not-found page.')
  })

  it('sends brotli (once compressed, gzip before) or gzip to browsers that accept them, and the same page uncompressed to others', async () => {
    const plain = await ctx.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'identity' } })
    expect(plain.headers['content-encoding']).toBeUndefined()
    const br = await vi.waitFor(async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } })
      expect(res.headers['content-encoding']).toBe('br')
      return res
    })
    expect(br.headers.vary).toContain('accept-encoding')
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length)
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body)
    const gzip = await ctx.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip;q=1, br;q=0' } })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body)
  })

  it('answers a revalidation with an unchanged ETag with 304 and no body', async () => {
    const first = await ctx.app.inject({ method: 'GET', url: '/pricing' })
    const etag = String(first.headers.etag)
    expect(etag).toMatch(/^W\/".+"$/)
    const again = await ctx.app.inject({ method: 'GET', url: '/pricing', headers: { 'if-none-match': etag } })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    expect(again.headers['cache-control']).toBe('no-cache')
  })
})
