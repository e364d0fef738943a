import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { createTestApp, popupMessage, signIn, type TestApp } from '#server/test/harness.ts'

describe.each(testDatabaseKinds())('HTTP app on %s', (kind) => {
  let ctx: TestApp
  let clientDir: string
  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(tmpdir(), 'inbox-guard-client-'))
    mkdirSync(path.join(clientDir, 'assets'))
    const indexHtml = '<!doctype html><div id="root"></div><script type="module" src="/assets/app-abc123.js"></script>'
    writeFileSync(path.join(clientDir, 'index.html'), indexHtml)
    // The build writes compressed twins of the HTML shell too (vite.config.ts).
    writeFileSync(path.join(clientDir, 'index.html.br'), brotliCompressSync(indexHtml))
    writeFileSync(path.join(clientDir, 'index.html.gz'), gzipSync(indexHtml))
    writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js'), 'console.log("app")')
    writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js.br'), brotliCompressSync('console.log("app")'))
    writeFileSync(path.join(clientDir, 'robots.txt'), 'User-agent: *')
    ctx = await createTestApp(kind, { clientDir })
  })
  afterAll(async () => {
    await ctx?.close()
    rmSync(clientDir, { recursive: true, force: true })
  })

  describe('built client (SPEC 2 routes)', () => {
    it.each(['/', '/login', '/terms', '/privacy', '/pricing', '/dashboard'])('GET %s answers index.html with 200', async (url) => {
      const res = await ctx.app.inject({ method: 'GET', url })
      expect(res.statusCode).toBe(200)
      expect(res.body).toContain('<div id="root">')
      expect(res.headers['cache-control']).toBe('no-cache')
    })

    it.each(['/nope', '/dashboard/extra', '/login.php', '/assets/missing.js'])('GET %s answers index.html with 404 so the client shows Not Found', async (url) => {
      const res = await ctx.app.inject({ method: 'GET', url })
      expect(res.statusCode).toBe(404)
      expect(res.body).toContain('<div id="root">')
    })

    // Issue 11 item 6: the brotli twin of index.html used to go out with "public, max-age=3600", so
    // after a deploy browsers kept the old shell for an hour.
    it.each(['/', '/dashboard', '/pricing', '/no-such-page'])('never lets a browser cache the HTML shell at %s, whatever encoding it accepts', async (url) => {
      for (const acceptEncoding of ['br', 'gzip', 'br, gzip, deflate', 'identity', undefined]) {
        const res = await ctx.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} })
        expect(res.headers['content-type'], `${url} with ${acceptEncoding}`).toContain('text/html')
        expect(res.headers['cache-control'], `${url} with ${acceptEncoding}`).toBe('no-cache')
      }
      const br = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } })
      expect(br.headers['content-encoding']).toBe('br')
      expect(brotliDecompressSync(br.rawPayload).toString()).toContain('<div id="root">')
    })

    it('serves hashed assets with immutable caching', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js' })
      expect(res.statusCode).toBe(200)
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    })

    it('sends the build\'s precompressed twin to browsers that accept it, and the plain file to others', async () => {
      const compressed = await ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br, gzip' } })
      expect(compressed.headers['content-encoding']).toBe('br')
      expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe('console.log("app")')
      const plain = await ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'identity' } })
      expect(plain.headers['content-encoding']).toBeUndefined()
      expect(plain.body).toBe('console.log("app")')
    })

    it('serves other top-level files', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/robots.txt' })
      expect(res.statusCode).toBe(200)
      expect(res.body).toContain('User-agent')
    })
  })

  describe('security headers', () => {
    it('app pages carry a strict CSP and COOP same-origin-allow-popups', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/login' })
      const csp = String(res.headers['content-security-policy'])
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'none'",
        "form-action 'self'",
        "img-src 'self' data:",
      ]) {
        expect(csp).toContain(directive)
      }
      expect(csp).not.toContain("'unsafe-eval'")
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/)
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups')
      expect(res.headers['x-content-type-options']).toBe('nosniff')
    })

    it('X-Frame-Options agrees with frame-ancestors \'none\': no page may be framed, not even by the app', async () => {
      for (const url of ['/login', '/_api/auth/session']) {
        const res = await ctx.app.inject({ method: 'GET', url })
        expect(res.headers['x-frame-options']).toBe('DENY')
        expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'")
      }
    })
  })

  describe('API errors', () => {
    it('an unknown /_api path answers 404 JSON', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/_api/does-not-exist' })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ error: 'Not found', code: 'not_found' })
    })

    it('an unknown /_api POST answers 404 JSON', async () => {
      const res = await ctx.app.inject({ method: 'POST', url: '/_api/nothing', headers: { 'x-requested-with': 'XMLHttpRequest' }, payload: {} })
      expect(res.statusCode).toBe(404)
      expect(res.json().code).toBe('not_found')
    })

    it.each([
      ['__proto__', '{"tempToken":"t","__proto__":{"isAdmin":true}}'],
      ['constructor.prototype', '{"tempToken":"t","constructor":{"prototype":{"isAdmin":true}}}'],
    ])('a body with a %s key answers 400 and nothing is polluted', async (_label, payload) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/_api/auth/establish_session',
        headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
        payload,
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'Request body must not contain "__proto__" or "constructor.prototype" keys', code: 'forbidden_json_key' })
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined()
    })

    it('a body that is not JSON answers 400 "Request body is not valid JSON"', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/_api/auth/establish_session',
        headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
        payload: '{"tempToken":',
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'Request body is not valid JSON', code: 'invalid_json' })
    })

    it('a non-JSON content type answers 415 JSON, not 500', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/_api/auth/establish_session',
        headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/xml' },
        payload: '<tempToken/>',
      })
      expect(res.statusCode).toBe(415)
      expect(res.json().error).toBeTruthy()
    })

    it('GET /_api/app/info tells the client it is not in demo mode when both providers are configured', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/_api/app/info' })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ demoMode: false, productName: 'Inbox Guard', supportEmail: 'support@inboxguard.app' })
    })
  })

  describe('CSRF guard on state-changing /_api requests', () => {
    const post = (headers: Record<string, string>) =>
      ctx.app.inject({ method: 'POST', url: '/_api/auth/logout', headers, payload: {} })

    it('rejects a POST with neither X-Requested-With nor Origin', async () => {
      const res = await post({})
      expect(res.statusCode).toBe(403)
      expect(res.json()).toMatchObject({ code: 'csrf_rejected' })
    })

    it('rejects a cross-origin Origin even with X-Requested-With', async () => {
      const res = await post({ origin: 'https://evil.example', 'x-requested-with': 'XMLHttpRequest' })
      expect(res.statusCode).toBe(403)
      expect(res.json().code).toBe('csrf_rejected')
    })

    it('rejects Origin: null (sandboxed or file pages)', async () => {
      expect((await post({ origin: 'null' })).statusCode).toBe(403)
    })

    it('accepts X-Requested-With without Origin', async () => {
      expect((await post({ 'x-requested-with': 'XMLHttpRequest' })).statusCode).toBe(200)
    })

    it('accepts the app origin without X-Requested-With', async () => {
      expect((await post({ origin: 'http://app.test' })).statusCode).toBe(200)
    })

    it('does not apply to GET requests', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/_api/auth/session', headers: { origin: 'https://evil.example' } })
      expect(res.statusCode).toBe(200)
    })

    it('does not let a cross-site form sign a session in', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/_api/auth/establish_session',
        headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
        payload: JSON.stringify({ tempToken: 'x' }),
      })
      expect(res.statusCode).toBe(403)
    })
  })

  it('a signed-in session survives across requests with only the cookie', async () => {
    const { sid } = await signIn(ctx, 'google', { email: 'cookie-only@example.com' })
    const res = await ctx.app.inject({ method: 'GET', url: '/_api/auth/session', cookies: { sid } })
    expect(res.json().user.email).toBe('cookie-only@example.com')
  })
})

describe('fallback pages when the client is not built', () => {
  let ctx: TestApp
  beforeAll(async () => {
    ctx = await createTestApp('pglite')
  })
  afterAll(async () => {
    await ctx?.close()
  })

  it('answers the SPA routes with 200 and other paths with 404, both as HTML', async () => {
    const ok = await ctx.app.inject({ method: 'GET', url: '/pricing' })
    expect(ok.statusCode).toBe(200)
    expect(ok.headers['content-type']).toContain('text/html')
    const missing = await ctx.app.inject({ method: 'GET', url: '/missing-page' })
    expect(missing.statusCode).toBe(404)
    expect(missing.headers['content-type']).toContain('text/html')
    expect(missing.body).toContain('href="/"')
  })
})

describe('rate limit on sign-in endpoints', () => {
  let ctx: TestApp
  beforeAll(async () => {
    ctx = await createTestApp('pglite', { authRateLimit: { max: 3, timeWindow: 60_000 } })
  })
  afterAll(async () => {
    await ctx?.close()
  })

  it('answers 429 JSON once an address exceeds the limit on establish_session', async () => {
    const attempt = () =>
      ctx.app.inject({ method: 'POST', url: '/_api/auth/establish_session', headers: { 'x-requested-with': 'XMLHttpRequest' }, payload: { tempToken: 'guess' } })
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await attempt()).statusCode)
    expect(statuses).toEqual([401, 401, 401, 429])
    const res = await attempt()
    expect(res.statusCode).toBe(429)
    expect(res.json()).toMatchObject({ code: 'rate_limited' })
    expect(res.headers['retry-after']).toBeTruthy()
  })

  it('limits oauth_authorize and the callback too, telling the popup opener "too many attempts"', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await ctx.app.inject({ method: 'GET', url: '/_api/auth/oauth_authorize?provider=google' })).statusCode).toBe(302)
    }
    const limited = await ctx.app.inject({ method: 'GET', url: '/_api/auth/oauth_authorize?provider=google' })
    expect(limited.statusCode).toBe(429)
    // Inside the popup: a page that posts OAUTH_ERROR to the opener, not raw JSON (issue 11 item 7).
    expect(limited.headers['content-type']).toContain('text/html')
    expect(popupMessage(limited.body)).toEqual({
      type: 'OAUTH_ERROR',
      provider: 'google',
      error: { code: 'rate_limited', message: 'Too many sign-in attempts. Please wait a minute and try again.' },
    })
    for (let i = 0; i < 3; i++) await ctx.app.inject({ method: 'GET', url: '/_api/auth/oauth_callback/microsoft?code=a&state=b' })
    const callback = await ctx.app.inject({ method: 'GET', url: '/_api/auth/oauth_callback/microsoft?code=a&state=b' })
    expect(callback.statusCode).toBe(429)
    expect(popupMessage(callback.body)).toMatchObject({ type: 'OAUTH_ERROR', provider: 'microsoft', error: { code: 'rate_limited' } })
  })

  it('does not limit the session check', async () => {
    for (let i = 0; i < 6; i++) {
      expect((await ctx.app.inject({ method: 'GET', url: '/_api/auth/session' })).statusCode).toBe(200)
    }
  })
})

describe('session cookie behind an https proxy', () => {
  let ctx: TestApp
  beforeAll(async () => {
    ctx = await createTestApp('pglite', { env: { APP_URL: 'https://inbox.example', TRUST_PROXY: 'true' } })
  })
  afterAll(async () => {
    await ctx?.close()
  })

  it('marks the sid cookie Secure and sends HSTS when APP_URL is https', async () => {
    const { establishResponse } = await signIn(ctx, 'google', { email: 'secure@example.com' })
    expect(establishResponse.cookies.find((c) => c.name === 'sid')?.secure).toBe(true)
    const page = await ctx.app.inject({ method: 'GET', url: '/' })
    expect(page.headers['strict-transport-security']).toContain('max-age=')
  })

  it('uses X-Forwarded-For from the trusted proxy as the client address', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/_api/auth/establish_session',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'x-forwarded-for': '203.0.113.9' },
      payload: { tempToken: 'nope' },
    })
    expect(res.statusCode).toBe(401)
    const { auditEvents } = await import('#server/db/schema.ts')
    const rows = await ctx.db.select().from(auditEvents)
    expect(rows.at(-1)?.ipAddress).toBe('203.0.113.9')
  })
})

describe('one host name for the app on this machine (issue 12 item 8)', () => {
  let ctx: TestApp
  beforeAll(async () => {
    ctx = await createTestApp('pglite', { env: { APP_URL: 'http://localhost:3000' } })
  })
  afterAll(async () => {
    await ctx?.close()
  })

  it.each(['127.0.0.1:3000', '[::1]:3000', 'LOCALHOST:3000'])('redirects a page request on %s to APP_URL, keeping the path', async (host) => {
    const res = await ctx.app.inject({ method: 'GET', url: '/login?next=1', headers: { host } })
    if (host === 'LOCALHOST:3000') {
      expect(res.statusCode).toBe(200)
      return
    }
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('http://localhost:3000/login?next=1')
  })

  it('never redirects API or webhook requests, or hosts that are not this machine', async () => {
    const api = await ctx.app.inject({ method: 'GET', url: '/_api/auth/session', headers: { host: '127.0.0.1:3000' } })
    expect(api.statusCode).toBe(200)
    const webhook = await ctx.app.inject({ method: 'POST', url: '/_api/webhooks/outlook?validationToken=abc', headers: { host: '127.0.0.1:3000', 'content-type': 'text/plain' }, payload: '' })
    expect(webhook.statusCode).toBe(200)
    const proxied = await ctx.app.inject({ method: 'GET', url: '/login', headers: { host: 'inbox.example' } })
    expect(proxied.statusCode).toBe(200)
  })
})
