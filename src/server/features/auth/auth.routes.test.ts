import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditEvents, oauthStates, sessions, tempTokens, users } from '#server/db/schema.ts'
import { sha256 } from '#server/lib/tokens.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import {
  authorizeAndConsent,
  CHROME_UA,
  cookieValue,
  createTestApp,
  establishSession,
  IPHONE_UA,
  runCallback,
  signIn,
  type TestApp,
} from '#server/test/harness.ts'
import { accountLinkingMessage } from '#shared/messages.ts'

describe.each(testDatabaseKinds())('sign-in flow (SPEC 4, 7, 8) on %s', (kind) => {
  let ctx: TestApp
  beforeAll(async () => {
    ctx = await createTestApp(kind, { env: { ADMIN_EMAILS: 'Boss@Example.com, other@example.com' } })
  })
  afterAll(async () => {
    await ctx?.close()
  })

  describe('GET /_api/auth/oauth_authorize', () => {
    it('redirects to Google with PKCE S256, state, nonce, the configured client and callback, and sets an HttpOnly binding cookie', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/_api/auth/oauth_authorize?provider=google' })
      expect(res.statusCode).toBe(302)
      const location = new URL(res.headers.location as string)
      expect(`${location.origin}${location.pathname}`).toBe(ctx.fakes.google.authorizeUrl)
      expect(location.searchParams.get('client_id')).toBe('test-google-client')
      expect(location.searchParams.get('redirect_uri')).toBe('http://app.test/_api/auth/oauth_callback/google')
      expect(location.searchParams.get('response_type')).toBe('code')
      expect(location.searchParams.get('scope')).toBe('openid email profile')
      expect(location.searchParams.get('code_challenge_method')).toBe('S256')
      expect(location.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(location.searchParams.get('nonce')).toBeTruthy()
      const state = location.searchParams.get('state') ?? ''
      const [row] = await ctx.db.select().from(oauthStates).where(eq(oauthStates.state, state))
      expect(row?.provider).toBe('google')
      const cookie = res.cookies.find((c) => c.name === 'oauth_binding')
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/_api/auth/oauth_callback' })
      expect(sha256(cookie?.value ?? '')).toBe(row?.browserBindingHash)
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined()
    })

    it('asks Microsoft for openid profile email offline_access User.Read with response_mode=query', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/_api/auth/oauth_authorize?provider=microsoft' })
      const location = new URL(res.headers.location as string)
      expect(`${location.origin}${location.pathname}`).toBe(ctx.fakes.microsoft.authorizeUrl)
      expect(location.searchParams.get('scope')).toBe('openid profile email offline_access User.Read')
      expect(location.searchParams.get('response_mode')).toBe('query')
    })

    it('answers 400 JSON naming the providers for an unknown provider', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/_api/auth/oauth_authorize?provider=github' })
      expect(res.statusCode).toBe(400)
      expect(res.headers['content-type']).toContain('application/json')
      expect(res.json()).toEqual({ error: 'Unknown sign-in provider: use google or microsoft', code: 'validation_error' })
    })

    it('answers 400 JSON when the provider is missing', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/_api/auth/oauth_authorize' })
      expect(res.statusCode).toBe(400)
      expect(res.json().code).toBe('validation_error')
    })
  })

  describe('full popup flow', () => {
    it('Google: consent → callback page posts OAUTH_TOKEN_SUCCESS to the app origin → establish_session sets the session', async () => {
      const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'ada@example.com', name: 'Ada Lovelace' })
      const { response, message } = await runCallback(ctx, callback, binding)
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toContain('text/html')
      expect(message).toMatchObject({ type: 'OAUTH_TOKEN_SUCCESS', provider: 'google' })
      // Posted only to the app's own origin, then the popup closes (SPEC 4).
      expect(response.body).toContain('window.opener.postMessage(message, origin)')
      expect(response.body).toContain('var origin = "http://app.test";')
      expect(response.body).toContain('window.close()')
      expect(response.body).toContain('href="/login"')
      // No COOP on the popup page, and its only inline script is allowed by a per-response nonce.
      expect(response.headers['cross-origin-opener-policy']).toBeUndefined()
      const csp = String(response.headers['content-security-policy'])
      const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1]
      expect(nonce).toBeTruthy()
      expect(response.body).toContain(`<script nonce="${nonce}">`)
      // The binding cookie is spent.
      expect(response.cookies.find((c) => c.name === 'oauth_binding')?.value).toBe('')

      const token = message.type === 'OAUTH_TOKEN_SUCCESS' ? message.token : ''
      const established = await establishSession(ctx, token, { 'user-agent': IPHONE_UA })
      expect(established.statusCode).toBe(200)
      expect(established.json().user).toMatchObject({
        displayName: 'Ada Lovelace',
        email: 'ada@example.com',
        role: 'user',
        hasCompletedOnboarding: false,
      })
      const sid = cookieValue(established, 'sid') ?? ''
      const [row] = await ctx.db.select().from(sessions).where(eq(sessions.tokenHash, sha256(sid)))
      expect(row).toMatchObject({ deviceType: 'mobile', location: 'Unknown', ipAddress: '127.0.0.1' })
      expect(row?.browser).toContain('Safari')
      expect(row?.os).toContain('iOS')
      expect((row!.expiresAt.getTime() - row!.createdAt.getTime()) / 3_600_000).toBe(24 * 7)
      // Only the hash of the cookie token is stored.
      const stored = await ctx.db.select({ tokenHash: sessions.tokenHash }).from(sessions)
      expect(stored.map((s) => s.tokenHash)).not.toContain(sid)

      const session = await ctx.app.inject({ method: 'GET', url: '/_api/auth/session', cookies: { sid } })
      expect(session.statusCode).toBe(200)
      expect(session.json().user.email).toBe('ada@example.com')
    })

    it('Microsoft: signs in and keys the identity by tenant and object id', async () => {
      const { user } = await signIn(ctx, 'microsoft', { email: 'grace@contoso.example', name: 'Grace Hopper' })
      expect(user).toMatchObject({ email: 'grace@contoso.example', displayName: 'Grace Hopper', role: 'user' })
    })

    it('a second sign-in with the same identity reuses the account', async () => {
      const first = await signIn(ctx, 'google', { email: 'repeat@example.com' })
      const second = await signIn(ctx, 'google', { email: 'repeat@example.com' })
      expect(second.user.id).toBe(first.user.id)
      const rows = await ctx.db.select().from(users).where(eq(users.email, 'repeat@example.com'))
      expect(rows).toHaveLength(1)
    })

    it('makes a new user admin when the email is in ADMIN_EMAILS, case-insensitively', async () => {
      const { user } = await signIn(ctx, 'google', { email: 'boss@EXAMPLE.com' })
      expect(user.role).toBe('admin')
    })

    it('records USER_CREATED and LOGIN_SUCCESS with IP, user agent and session id', async () => {
      const { user, sid } = await signIn(ctx, 'google', { email: 'audited@example.com' })
      const rows = await ctx.db.select().from(auditEvents).where(eq(auditEvents.userId, user.id))
      const created = rows.find((r) => r.eventType === 'USER_CREATED')
      const login = rows.find((r) => r.eventType === 'LOGIN_SUCCESS')
      expect(created).toMatchObject({ eventCategory: 'USER_MANAGEMENT', success: true, ipAddress: '127.0.0.1', userAgent: CHROME_UA })
      const [session] = await ctx.db.select().from(sessions).where(eq(sessions.tokenHash, sha256(sid)))
      expect(login).toMatchObject({
        eventCategory: 'AUTHENTICATION',
        severity: 'INFO',
        success: true,
        ipAddress: '127.0.0.1',
        userAgent: CHROME_UA,
        sessionId: session?.id,
        authenticationMethod: 'oauth:google',
      })
    })
  })

  describe('callback failures post OAUTH_ERROR and are audited as LOGIN_FAILURE', () => {
    async function lastFailure() {
      const rows = await ctx.db.select().from(auditEvents).where(eq(auditEvents.eventType, 'LOGIN_FAILURE'))
      return rows.at(-1)
    }

    it('the user denying consent reports access_denied', async () => {
      const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'deny@example.com', decision: 'deny' })
      expect(callback.searchParams.get('error')).toBe('access_denied')
      const { response, message } = await runCallback(ctx, callback, binding)
      expect(response.statusCode).toBe(400)
      expect(message).toMatchObject({ type: 'OAUTH_ERROR', provider: 'google', error: { code: 'access_denied' } })
      expect(await lastFailure()).toMatchObject({ errorCode: 'access_denied', ipAddress: '127.0.0.1', userAgent: CHROME_UA, success: false })
    })

    it('an unknown state reports invalid_state', async () => {
      const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'state@example.com' })
      callback.searchParams.set('state', 'forged-state')
      const { message } = await runCallback(ctx, callback, binding)
      expect(message).toMatchObject({ type: 'OAUTH_ERROR', error: { code: 'invalid_state' } })
      expect((await lastFailure())?.errorCode).toBe('invalid_state')
    })

    it('a missing state reports invalid_state', async () => {
      const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'state@example.com' })
      callback.searchParams.delete('state')
      const { message } = await runCallback(ctx, callback, binding)
      expect(message).toMatchObject({ type: 'OAUTH_ERROR', error: { code: 'invalid_state' } })
    })

    it('a state used once cannot be used again', async () => {
      const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'replay@example.com' })
      const first = await runCallback(ctx, callback, binding)
      expect(first.message.type).toBe('OAUTH_TOKEN_SUCCESS')
      const second = await runCallback(ctx, callback, binding)
      expect(second.message).toMatchObject({ type: 'OAUTH_ERROR', error: { code: 'invalid_state' } })
    })

    it('an expired state reports invalid_state', async () => {
      const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'late@example.com' })
      await ctx.db
        .update(oauthStates)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(oauthStates.state, callback.searchParams.get('state') ?? ''))
      const { message } = await runCallback(ctx, callback, binding)
      expect(message).toMatchObject({ type: 'OAUTH_ERROR', error: { code: 'invalid_state' } })
    })

    it('a callback from a browser without the binding cookie reports invalid_state', async () => {
      const { callback } = await authorizeAndConsent(ctx, 'google', { email: 'other-browser@example.com' })
      const { message } = await runCallback(ctx, callback, undefined)
      expect(message).toMatchObject({ type: 'OAUTH_ERROR', error: { code: 'invalid_state' } })
    })

    it('a state issued for Google cannot finish a Microsoft callback', async () => {
      const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'cross@example.com' })
      callback.pathname = '/_api/auth/oauth_callback/microsoft'
      const { message } = await runCallback(ctx, callback, binding)
      expect(message).toMatchObject({ type: 'OAUTH_ERROR', provider: 'microsoft', error: { code: 'invalid_state' } })
    })

    it('a code the provider rejects reports token_exchange_failed', async () => {
      const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'badcode@example.com' })
      callback.searchParams.set('code', 'not-a-real-code')
      const { message } = await runCallback(ctx, callback, binding)
      expect(message).toMatchObject({ type: 'OAUTH_ERROR', error: { code: 'token_exchange_failed' } })
      expect((await lastFailure())?.errorCode).toBe('token_exchange_failed')
    })

    it('a missing code reports invalid_request', async () => {
      const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'nocode@example.com' })
      callback.searchParams.delete('code')
      const { message } = await runCallback(ctx, callback, binding)
      expect(message).toMatchObject({ type: 'OAUTH_ERROR', error: { code: 'invalid_request' } })
    })

    it('an unknown provider in the callback path answers 400 JSON', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/_api/auth/oauth_callback/github?code=x&state=y' })
      expect(res.statusCode).toBe(400)
      expect(res.json().code).toBe('validation_error')
    })

    it('one account per email: a first Microsoft sign-in for a Google account email reports account_linking_required with the email', async () => {
      await signIn(ctx, 'google', { email: 'linus@example.com' })
      const { callback, binding } = await authorizeAndConsent(ctx, 'microsoft', { email: 'LINUS@example.com' })
      const { response, message } = await runCallback(ctx, callback, binding)
      expect(response.statusCode).toBe(409)
      expect(message).toEqual({
        type: 'OAUTH_ERROR',
        provider: 'microsoft',
        error: {
          code: 'account_linking_required',
          message: accountLinkingMessage('LINUS@example.com', 'Google'),
          details: { email: 'LINUS@example.com', existingProvider: 'google' },
        },
      })
      const rows = await ctx.db.select().from(users).where(eq(users.email, 'LINUS@example.com'))
      expect(rows).toHaveLength(0)
      expect((await lastFailure())?.errorCode).toBe('account_linking_required')
    })

    it('the popup page escapes provider-supplied text', async () => {
      const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'xss@example.com', name: '</script><script>alert(1)</script>' })
      const { response } = await runCallback(ctx, callback, binding)
      expect(response.body).not.toContain('<script>alert(1)')
    })
  })

  describe('POST /_api/auth/establish_session', () => {
    it('rejects a missing token with "Temporary token is required"', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/_api/auth/establish_session',
        headers: { 'x-requested-with': 'XMLHttpRequest' },
        payload: {},
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'Temporary token is required', code: 'validation_error' })
    })

    it('rejects an empty token with "Temporary token is required"', async () => {
      const res = await establishSession(ctx, '')
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toBe('Temporary token is required')
    })

    it('rejects an empty body with "Temporary token is required"', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/_api/auth/establish_session',
        headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
        payload: '',
      })
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toBe('Temporary token is required')
    })

    it('rejects malformed JSON with 400', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/_api/auth/establish_session',
        headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
        payload: '{"tempToken":',
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'invalid_json' })
    })

    it('rejects an unknown token with 401 invalid_temp_token and audits LOGIN_FAILURE', async () => {
      const res = await establishSession(ctx, 'made-up-token')
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ error: 'Invalid or expired temporary token', code: 'invalid_temp_token' })
      expect(cookieValue(res, 'sid')).toBeUndefined()
      const rows = await ctx.db.select().from(auditEvents).where(and(eq(auditEvents.eventType, 'LOGIN_FAILURE'), eq(auditEvents.errorCode, 'invalid_temp_token')))
      expect(rows.at(-1)).toMatchObject({ ipAddress: '127.0.0.1', userAgent: CHROME_UA, success: false })
    })

    it('a temp token works exactly once', async () => {
      const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'once@example.com' })
      const { message } = await runCallback(ctx, callback, binding)
      const token = message.type === 'OAUTH_TOKEN_SUCCESS' ? message.token : ''
      const [first, second] = await Promise.all([establishSession(ctx, token), establishSession(ctx, token)])
      expect([first.statusCode, second.statusCode].sort()).toEqual([200, 401])
      const third = await establishSession(ctx, token)
      expect(third.statusCode).toBe(401)
    })

    it('an expired temp token is rejected', async () => {
      const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'expired@example.com' })
      const { message } = await runCallback(ctx, callback, binding)
      const token = message.type === 'OAUTH_TOKEN_SUCCESS' ? message.token : ''
      await ctx.db.update(tempTokens).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(tempTokens.hash, sha256(token)))
      const res = await establishSession(ctx, token)
      expect(res.statusCode).toBe(401)
      expect(res.json().code).toBe('invalid_temp_token')
    })

    it('sets the sid cookie HttpOnly, SameSite=Lax, Path=/, one week, not Secure on http', async () => {
      const { establishResponse } = await signIn(ctx, 'google', { email: 'cookie@example.com' })
      const sid = establishResponse.cookies.find((c) => c.name === 'sid')
      expect(sid).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 604800 })
      expect(sid?.secure).toBeFalsy()
    })
  })

  describe('session and logout', () => {
    it('GET /_api/auth/session answers {user:null} without a cookie and with an unknown one', async () => {
      const none = await ctx.app.inject({ method: 'GET', url: '/_api/auth/session' })
      expect(none.statusCode).toBe(200)
      expect(none.json()).toEqual({ user: null })
      const unknown = await ctx.app.inject({ method: 'GET', url: '/_api/auth/session', cookies: { sid: 'nope' } })
      expect(unknown.json()).toEqual({ user: null })
    })

    it('an expired session is not accepted', async () => {
      const { sid } = await signIn(ctx, 'google', { email: 'stale@example.com' })
      await ctx.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(sessions.tokenHash, sha256(sid)))
      const res = await ctx.app.inject({ method: 'GET', url: '/_api/auth/session', cookies: { sid } })
      expect(res.json()).toEqual({ user: null })
    })

    it('refreshes lastAccessed at most once a minute', async () => {
      const { sid } = await signIn(ctx, 'google', { email: 'touch@example.com' })
      const old = new Date(Date.now() - 5 * 60_000)
      await ctx.db.update(sessions).set({ lastAccessed: old }).where(eq(sessions.tokenHash, sha256(sid)))
      await ctx.app.inject({ method: 'GET', url: '/_api/auth/session', cookies: { sid } })
      const [after] = await ctx.db.select().from(sessions).where(eq(sessions.tokenHash, sha256(sid)))
      expect(after!.lastAccessed.getTime()).toBeGreaterThan(old.getTime() + 60_000)
      const touched = after!.lastAccessed.getTime()
      await ctx.app.inject({ method: 'GET', url: '/_api/auth/session', cookies: { sid } })
      const [again] = await ctx.db.select().from(sessions).where(eq(sessions.tokenHash, sha256(sid)))
      expect(again!.lastAccessed.getTime()).toBe(touched)
    })

    it('POST /_api/auth/logout deletes the session and clears the cookie', async () => {
      const { sid } = await signIn(ctx, 'google', { email: 'bye@example.com' })
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/_api/auth/logout',
        headers: { 'x-requested-with': 'XMLHttpRequest' },
        cookies: { sid },
        payload: {},
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ success: true })
      const cleared = res.cookies.find((c) => c.name === 'sid')
      expect(cleared?.value).toBe('')
      expect(await ctx.db.select().from(sessions).where(eq(sessions.tokenHash, sha256(sid)))).toHaveLength(0)
      const after = await ctx.app.inject({ method: 'GET', url: '/_api/auth/session', cookies: { sid } })
      expect(after.json()).toEqual({ user: null })
    })

    it('logout succeeds when not signed in', async () => {
      const res = await ctx.app.inject({ method: 'POST', url: '/_api/auth/logout', headers: { origin: 'http://app.test' }, payload: {} })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ success: true })
    })
  })

  it('never writes tokens, codes or e-mail addresses to the log', async () => {
    const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'secret.person@example.com' })
    const { message } = await runCallback(ctx, callback, binding)
    const token = message.type === 'OAUTH_TOKEN_SUCCESS' ? message.token : ''
    const established = await establishSession(ctx, token)
    const sid = cookieValue(established, 'sid') ?? ''
    // A failing linking attempt puts the e-mail address into an error path too.
    const conflict = await authorizeAndConsent(ctx, 'microsoft', { email: 'secret.person@example.com' })
    await runCallback(ctx, conflict.callback, conflict.binding)

    const text = ctx.logs.join('\n')
    expect(ctx.logs.length).toBeGreaterThan(5)
    expect(text).toMatch(/oauth_callback\/google\?code=\[redacted\]&.*state=\[redacted\]/)
    for (const secret of [token, sid, callback.searchParams.get('code') ?? '', callback.searchParams.get('state') ?? '', binding ?? '']) {
      expect(secret.length).toBeGreaterThan(10)
      expect(text).not.toContain(secret)
    }
    expect(text).not.toMatch(/secret\.person@example\.com/i)
  })
})

describe.each(testDatabaseKinds())('sign-in with a misconfigured identity provider on %s', (kind) => {
  let ctx: TestApp
  beforeAll(async () => {
    // The fakes sign with their own issuer; expecting another one must fail closed.
    ctx = await createTestApp(kind, { env: { GOOGLE_ISSUER: 'https://issuer.invalid' } })
  })
  afterAll(async () => {
    await ctx?.close()
  })

  it('an id token from an unexpected issuer reports invalid_id_token and creates no user', async () => {
    const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'mallory@example.com' })
    const { message } = await runCallback(ctx, callback, binding)
    expect(message).toMatchObject({ type: 'OAUTH_ERROR', provider: 'google', error: { code: 'invalid_id_token' } })
    expect(await ctx.db.select().from(users)).toHaveLength(0)
    const [failure] = await ctx.db.select().from(auditEvents).where(eq(auditEvents.eventType, 'LOGIN_FAILURE'))
    expect(failure).toMatchObject({ errorCode: 'invalid_id_token', ipAddress: '127.0.0.1', userAgent: CHROME_UA })
  })
})
