import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditEvents, identities, oauthStates, users } from '#server/db/schema.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { authorizeAndConsent, CHROME_UA, cookieValue, createTestApp, runCallback, signIn, type TestApp } from '#server/test/harness.ts'

/**
 * Regression tests for what the foundation probe found in sign-in (issue 11): NUL bytes in a provider
 * redirect, unverified Microsoft addresses, a second sign-in in the same browser, and guards that
 * looked at the raw URL.
 */
describe.each(testDatabaseKinds())('sign-in hardening on %s', (kind) => {
  let ctx: TestApp
  beforeAll(async () => {
    ctx = await createTestApp(kind, { env: { ADMIN_EMAILS: 'boss@example.com' } })
  })
  afterAll(async () => {
    await ctx?.close()
  })

  const loginFailures = () => ctx.db.select().from(auditEvents).where(eq(auditEvents.eventType, 'LOGIN_FAILURE'))

  describe('a NUL byte or broken Unicode in the provider redirect (item 3)', () => {
    it.each([
      ['?error=%00', 'invalid_request'],
      ['?state=%00&code=x', 'invalid_state'],
      ['?error=x&state=%00', 'invalid_request'],
      ['?state=%ED%A0%80&code=%00', 'invalid_state'],
      ['?error=%00&state=%00&code=%00&error_description=%00', 'invalid_request'],
    ])('%s answers 400 with an OAUTH_ERROR popup and a LOGIN_FAILURE audit row', async (query, code) => {
      const before = (await loginFailures()).length
      const { response, message } = await runCallback(ctx, new URL(`http://app.test/_api/auth/oauth_callback/google${query}`), undefined)
      expect(response.statusCode).toBe(400)
      expect(message).toMatchObject({ type: 'OAUTH_ERROR', provider: 'google', error: { code } })
      const rows = await loginFailures()
      expect(rows).toHaveLength(before + 1)
      expect(rows.at(-1)).toMatchObject({ errorCode: code, success: false, userAgent: CHROME_UA })
    })

    it('records the bad value made safe in the audit row', async () => {
      await runCallback(ctx, new URL('http://app.test/_api/auth/oauth_callback/microsoft?error=bad%00value'), undefined)
      const last = (await loginFailures()).at(-1)
      expect(last?.metadata).toEqual({ reason: 'provider error: bad\uFFFDvalue' })
    })
  })

  describe('Microsoft addresses count only when Microsoft verified them (item 5)', () => {
    it('an unverified Microsoft address in ADMIN_EMAILS does not get the admin role', async () => {
      const { user } = await signIn(ctx, 'microsoft', { email: 'boss@example.com', emailVerified: false })
      expect(user.role).toBe('user')
      const [identity] = await ctx.db.select().from(identities).where(eq(identities.userId, user.id))
      expect(identity).toMatchObject({ provider: 'microsoft', emailVerified: false })
    })

    it('the same person signing in again, now with xms_edov, becomes admin', async () => {
      const { user } = await signIn(ctx, 'microsoft', { email: 'boss@example.com', emailVerified: true })
      expect(user.role).toBe('admin')
    })

    it('an unverified Google address never gets the admin role either', async () => {
      const app2 = await createTestApp(kind, { env: { ADMIN_EMAILS: 'chief@example.com' } })
      try {
        const { user } = await signIn(app2, 'google', { email: 'chief@example.com', emailVerified: false })
        expect(user.role).toBe('user')
      } finally {
        await app2.close()
      }
    })

    it.each([false, true])('a Microsoft sign-in (verified: %s) for the address of a Google account is refused with the account-linking prompt, never linked', async (emailVerified) => {
      const email = `victim-${String(emailVerified)}@example.com`
      const victim = await signIn(ctx, 'google', { email })
      const { callback, binding } = await authorizeAndConsent(ctx, 'microsoft', { email, emailVerified })
      const { response, message } = await runCallback(ctx, callback, binding)
      expect(response.statusCode).toBe(409)
      expect(message).toMatchObject({ type: 'OAUTH_ERROR', error: { code: 'account_linking_required', details: { email } } })
      const linked = await ctx.db.select().from(identities).where(eq(identities.userId, victim.user.id))
      expect(linked.map((i) => i.provider)).toEqual(['google'])
      expect(await ctx.db.select().from(users).where(sql`lower(${users.email}) = ${email}`)).toHaveLength(1)
    })
  })

  it('signing in again in the same browser ends the session it had (item 7)', async () => {
    const first = await signIn(ctx, 'google', { email: 'twice@example.com' })
    const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'twice@example.com' })
    const { message } = await runCallback(ctx, callback, binding)
    if (message.type !== 'OAUTH_TOKEN_SUCCESS') throw new Error('sign-in failed')
    const second = await ctx.app.inject({
      method: 'POST',
      url: '/_api/auth/establish_session',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      cookies: { sid: first.sid },
      payload: { tempToken: message.token },
    })
    expect(second.statusCode).toBe(200)
    const newSid = cookieValue(second, 'sid')
    expect(newSid).toBeTruthy()
    const session = (sid: string) => ctx.app.inject({ method: 'GET', url: '/_api/auth/session', cookies: { sid } }).then((r) => r.json().user)
    expect(await session(first.sid)).toBeNull()
    expect(await session(newSid!)).toMatchObject({ email: 'twice@example.com' })
  })

  describe('guards decide on the route that runs, not the raw URL (item 4)', () => {
    it('POST /%5Fapi/auth/establish_session from another origin is refused by the CSRF check', async () => {
      const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'csrf@example.com' })
      const { message } = await runCallback(ctx, callback, binding)
      if (message.type !== 'OAUTH_TOKEN_SUCCESS') throw new Error('sign-in failed')
      for (const url of ['/%5Fapi/auth/establish_session', '/%5fapi/auth/establish_session', '/_api/auth/%65stablish_session']) {
        const res = await ctx.app.inject({
          method: 'POST',
          url,
          headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
          payload: { tempToken: message.token },
        })
        expect(res.statusCode, url).toBe(403)
        expect(cookieValue(res, 'sid'), url).toBeUndefined()
      }
    })

    it('an encoded path still finds the session, so guards see the signed-in user', async () => {
      const { sid } = await signIn(ctx, 'google', { email: 'encoded@example.com' })
      const res = await ctx.app.inject({ method: 'GET', url: '/%5Fapi/auth/session', cookies: { sid } })
      expect(res.json().user).toMatchObject({ email: 'encoded@example.com' })
      const join = await ctx.app.inject({
        method: 'POST',
        url: '/%5Fapi/team/waitlist',
        headers: { 'x-requested-with': 'XMLHttpRequest' },
        cookies: { sid },
        payload: { name: 'Enc', email: 'encoded@example.com' },
      })
      expect(join.statusCode).toBe(200)
    })
  })
})

/**
 * Issue 11 item 2: a failing query put its parameters (addresses, names, and during sign-in the live
 * OAuth state, PKCE verifier and nonce) into the log. Faults are induced with a trigger that fails
 * the statement, on both databases.
 */
describe.each(testDatabaseKinds())('logs after induced database errors on %s', (kind) => {
  let ctx: TestApp
  beforeAll(async () => {
    ctx = await createTestApp(kind)
    await ctx.db.execute(sql.raw(`CREATE FUNCTION induced_fault() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'induced fault'; END $$`))
  })
  afterAll(async () => {
    await ctx?.close()
  })

  const failOn = (table: string, operation: 'INSERT' | 'DELETE') =>
    ctx.db.execute(sql.raw(`CREATE TRIGGER fail_${table}_${operation.toLowerCase()} BEFORE ${operation} ON ${table} FOR EACH ROW EXECUTE FUNCTION induced_fault()`))
  const heal = (table: string, operation: 'INSERT' | 'DELETE') => ctx.db.execute(sql.raw(`DROP TRIGGER fail_${table}_${operation.toLowerCase()} ON ${table}`))

  it('a failed waitlist insert logs the query shape and error code, never the name or address', async () => {
    const { sid } = await signIn(ctx, 'google', { email: 'logger@example.com', name: 'Lo Gger' })
    await failOn('waitlist_entries', 'INSERT')
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/_api/team/waitlist',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      cookies: { sid },
      payload: { name: 'Distinctive Name Q', email: 'bob.distinct@example.com' },
    })
    await heal('waitlist_entries', 'INSERT')
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ error: 'Internal server error', code: 'internal_error' })
    const errorLine = ctx.logs.find((line) => line.includes('"unhandled error"'))
    expect(errorLine).toBeDefined()
    const entry = JSON.parse(errorLine!) as { err: { query?: string; message: string; cause?: { code?: string; message: string } } }
    expect(entry.err.query).toMatch(/^insert into "waitlist_entries"/)
    expect(entry.err.cause?.code).toBe('P0001')
    const text = ctx.logs.join('\n')
    for (const value of ['Distinctive Name Q', 'bob.distinct', '"params"', 'params:']) expect(text).not.toContain(value)
  })

  it('a database fault during the sign-in callback logs neither the state, nor the verifier, nor the nonce, and the failure is still audited', async () => {
    const { callback, binding } = await authorizeAndConsent(ctx, 'google', { email: 'fault@example.com' })
    const state = callback.searchParams.get('state') ?? ''
    const [stored] = await ctx.db.select({ codeVerifier: oauthStates.codeVerifier, nonce: oauthStates.nonce }).from(oauthStates).where(eq(oauthStates.state, state))
    expect(stored).toBeDefined()
    await failOn('oauth_states', 'DELETE')
    const { response, message } = await runCallback(ctx, callback, binding)
    await heal('oauth_states', 'DELETE')
    expect(response.statusCode).toBe(500)
    expect(message).toMatchObject({ type: 'OAUTH_ERROR', error: { code: 'server_error' } })
    const text = ctx.logs.join('\n')
    expect(text).toContain('oauth callback failed unexpectedly')
    for (const secret of [state, stored!.codeVerifier, stored!.nonce, callback.searchParams.get('code') ?? '']) {
      expect(secret.length).toBeGreaterThan(10)
      expect(text).not.toContain(secret)
    }
    const [audit] = await ctx.db.select().from(auditEvents).where(eq(auditEvents.errorCode, 'server_error'))
    expect(audit).toMatchObject({ eventType: 'LOGIN_FAILURE', success: false })
  })
})
