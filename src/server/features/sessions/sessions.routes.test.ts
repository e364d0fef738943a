import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditEvents } from '#server/db/schema.ts'
import { createSession } from '#server/lib/sessions.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { CHROME_UA, createTestApp, IPHONE_UA, signIn, type TestApp } from '#server/test/harness.ts'
import type { ActiveSessionWire } from '#shared/api/sessions.ts'

const DAY = 24 * 3600_000
const FIREFOX_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'

describe.each(testDatabaseKinds())('active sessions (SPEC 3 "Active session", SPEC 7 "Sessions and account") on %s', (kind) => {
  let ctx: TestApp
  beforeAll(async () => {
    ctx = await createTestApp(kind)
  }, 60_000)
  afterAll(async () => {
    await ctx?.close()
  })

  const list = (sid?: string) =>
    ctx.app.inject({ method: 'GET', url: '/_api/sessions', headers: { 'user-agent': CHROME_UA }, cookies: sid ? { sid } : {} })
  const post = (url: string, payload: unknown, sid?: string, headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest' }) =>
    ctx.app.inject({ method: 'POST', url, headers: { 'user-agent': CHROME_UA, ...headers }, cookies: sid ? { sid } : {}, ...(payload === undefined ? {} : { payload: payload as object }) })
  const revoke = (sessionId: unknown, sid?: string) => post('/_api/sessions/revoke', { sessionId }, sid)
  const revokeAll = (sid?: string) => post('/_api/sessions/revoke-all', undefined, sid)
  /** Who the browser holding this cookie is, as the app's own session check tells it. */
  const whoIs = async (sid: string) => (await ctx.app.inject({ method: 'GET', url: '/_api/auth/session', cookies: { sid } })).json().user as { email: string } | null
  const sessionsOf = async (sid: string) => {
    const res = await list(sid)
    expect(res.statusCode).toBe(200)
    return (res.json() as { sessions: ActiveSessionWire[] }).sessions
  }
  const currentIdOf = async (sid: string) => (await sessionsOf(sid)).find((s) => s.isCurrent)!.id

  /** A second browser for a user, signed in from elsewhere (the popup flow always comes from loopback). */
  async function otherDevice(userId: number, ipAddress: string | null, userAgent: string, now?: Date) {
    const { id, token } = await createSession(ctx.db, { userId, ipAddress, userAgent, now })
    return { id, sid: token }
  }

  it('lists only the caller’s own live sessions, the current one first and marked, with device, place and ISO dates', async () => {
    const first = await signIn(ctx, 'google', { email: 'lister@example.com' })
    const second = await signIn(ctx, 'google', { email: 'lister@example.com' })
    const phone = await otherDevice(first.user.id, '200.160.2.3', IPHONE_UA)
    const abroad = await otherDevice(first.user.id, '8.8.8.8', FIREFOX_UA)
    const ipv6 = await otherDevice(first.user.id, '2001:4860:4860::8888', FIREFOX_UA)
    await otherDevice(first.user.id, '8.8.4.4', FIREFOX_UA, new Date(Date.now() - 8 * DAY)) // expired a day ago
    const stranger = await signIn(ctx, 'google', { email: 'stranger.lister@example.com' })

    const mine = await sessionsOf(first.sid)
    expect(mine).toHaveLength(5)
    expect(mine.filter((s) => s.isCurrent)).toHaveLength(1)
    expect(mine[0]).toMatchObject({ isCurrent: true, deviceType: 'desktop', location: 'Unknown', ipAddress: '127.0.0.1' })
    expect(mine[0]!.browser).toContain('Chrome')
    const strangerIds = (await sessionsOf(stranger.sid)).map((s) => s.id)
    expect(strangerIds).toHaveLength(1)
    expect(mine.map((s) => s.id)).not.toContain(strangerIds[0])

    const byId = new Map(mine.map((s) => [s.id, s]))
    expect(byId.get(phone.id)).toMatchObject({ isCurrent: false, deviceType: 'mobile', location: 'São Paulo, BR', ipAddress: '200.160.2.3' })
    expect(byId.get(phone.id)!.browser).toContain('Safari')
    expect(byId.get(phone.id)!.os).toContain('iOS')
    // The geo-IP data knows a country without a city; it reads IPv4 only.
    expect(byId.get(abroad.id)?.location).toBe('US')
    expect(byId.get(ipv6.id)?.location).toBe('Unknown')
    for (const session of mine) {
      expect(new Date(session.createdAt).toISOString()).toBe(session.createdAt)
      expect(new Date(session.lastAccessed).toISOString()).toBe(session.lastAccessed)
    }

    // The same list seen from the other browser marks that one as current.
    const fromSecond = await sessionsOf(second.sid)
    expect(fromSecond[0]).toMatchObject({ isCurrent: true, id: await currentIdOf(second.sid) })
    expect(fromSecond[0]!.id).not.toBe(mine[0]!.id)
  })

  it('refuses callers who are not signed in, or whose cookie is not a session, with 401', async () => {
    for (const sid of [undefined, 'not-a-session']) {
      expect((await list(sid)).statusCode).toBe(401)
      const revoked = await revoke('anything', sid)
      expect(revoked.statusCode).toBe(401)
      expect(revoked.json().error).toBe('Authentication required')
      expect((await revokeAll(sid)).statusCode).toBe(401)
    }
  })

  it('refuses a revocation without X-Requested-With (a cross-site form), ending nothing', async () => {
    const { sid } = await signIn(ctx, 'google', { email: 'csrf@example.com' })
    const other = await signIn(ctx, 'google', { email: 'csrf@example.com' })
    expect((await post('/_api/sessions/revoke', { sessionId: await currentIdOf(other.sid) }, sid, {})).statusCode).toBe(403)
    expect((await post('/_api/sessions/revoke-all', {}, sid, {})).statusCode).toBe(403)
    expect((await whoIs(other.sid))?.email).toBe('csrf@example.com')
  })

  it('revokes another of the caller’s sessions: that browser is signed out on its next request, this one is not', async () => {
    const { sid } = await signIn(ctx, 'google', { email: 'revoker@example.com' })
    const victim = await signIn(ctx, 'google', { email: 'revoker@example.com' })
    const victimId = await currentIdOf(victim.sid)
    expect((await whoIs(victim.sid))?.email).toBe('revoker@example.com')

    const res = await revoke(victimId, sid)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ success: true })

    // The session check answers "no user" and signed-in calls answer 401 for the revoked cookie.
    expect(await whoIs(victim.sid)).toBeNull()
    expect((await list(victim.sid)).statusCode).toBe(401)
    expect((await whoIs(sid))?.email).toBe('revoker@example.com')
    expect((await sessionsOf(sid)).map((s) => s.id)).not.toContain(victimId)
    // Revoking it again: it is gone.
    expect((await revoke(victimId, sid)).statusCode).toBe(404)
  })

  it('answers 404 for another user’s session id and leaves that session working', async () => {
    const { sid } = await signIn(ctx, 'google', { email: 'intruder@example.com' })
    const owner = await signIn(ctx, 'microsoft', { email: 'owner@example.com' })
    const ownerSessionId = await currentIdOf(owner.sid)

    const res = await revoke(ownerSessionId, sid)
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ error: 'Session not found', code: 'session_not_found' })
    expect((await whoIs(owner.sid))?.email).toBe('owner@example.com')
    expect((await sessionsOf(owner.sid)).map((s) => s.id)).toEqual([ownerSessionId])
    const audited = await ctx.db.select({ id: auditEvents.id }).from(auditEvents).where(and(eq(auditEvents.resourceId, ownerSessionId), eq(auditEvents.action, 'SESSION_REVOKED')))
    expect(audited).toEqual([])
  })

  it('answers 404 for an unknown session id and for an expired one', async () => {
    const { sid, user } = await signIn(ctx, 'google', { email: 'unknown.id@example.com' })
    const expired = await otherDevice(user.id, '8.8.8.8', FIREFOX_UA, new Date(Date.now() - 8 * DAY))
    for (const id of ['00000000-0000-4000-8000-000000000000', 'no-such-session', expired.id]) {
      const res = await revoke(id, sid)
      expect(res.statusCode).toBe(404)
      expect(res.json().error).toBe('Session not found')
    }
  })

  it.each([
    ['empty', ''],
    ['missing', undefined],
  ])('rejects a %s sessionId with 400 "Session ID is required"', async (_label, sessionId) => {
    const { sid } = await signIn(ctx, 'google', { email: 'empty.id@example.com' })
    const res = await post('/_api/sessions/revoke', sessionId === undefined ? {} : { sessionId }, sid)
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toBe('Session ID is required')
  })

  it('refuses to revoke the current session with 400, pointing to Sign Out, and it keeps working', async () => {
    const { sid } = await signIn(ctx, 'google', { email: 'self@example.com' })
    const res = await revoke(await currentIdOf(sid), sid)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'Use Sign Out to end this session.', code: 'current_session' })
    expect((await whoIs(sid))?.email).toBe('self@example.com')
  })

  it('logs out every other device of the caller, counting them, and leaves this one and other users alone', async () => {
    const { sid, user } = await signIn(ctx, 'google', { email: 'everywhere@example.com' })
    const others = [
      (await signIn(ctx, 'google', { email: 'everywhere@example.com' })).sid,
      (await otherDevice(user.id, '200.160.2.3', IPHONE_UA)).sid,
      (await otherDevice(user.id, null, FIREFOX_UA)).sid,
    ]
    await otherDevice(user.id, '8.8.8.8', FIREFOX_UA, new Date(Date.now() - 8 * DAY)) // expired: not counted
    const bystander = await signIn(ctx, 'google', { email: 'bystander@example.com' })

    const res = await revokeAll(sid)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ revokedCount: 3 })
    for (const other of others) expect(await whoIs(other)).toBeNull()
    expect((await whoIs(sid))?.email).toBe('everywhere@example.com')
    expect((await sessionsOf(sid)).map((s) => s.isCurrent)).toEqual([true])
    expect((await whoIs(bystander.sid))?.email).toBe('bystander@example.com')
    // Nothing left to log out.
    expect((await revokeAll(sid)).json()).toEqual({ revokedCount: 0 })
  })

  it('writes an audit record per revocation: who, from where, with which session, what was ended', async () => {
    const { sid, user } = await signIn(ctx, 'google', { email: 'audited@example.com' })
    const callerSessionId = await currentIdOf(sid)
    const victim = await otherDevice(user.id, '8.8.8.8', FIREFOX_UA)
    await otherDevice(user.id, '8.8.8.8', FIREFOX_UA)
    await otherDevice(user.id, '8.8.8.8', FIREFOX_UA)

    expect((await revoke(victim.id, sid)).statusCode).toBe(200)
    expect((await revokeAll(sid)).json()).toEqual({ revokedCount: 2 })

    const rows = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, user.id), eq(auditEvents.eventType, 'USER_UPDATED')))
      .orderBy(auditEvents.id)
    const common = {
      eventType: 'USER_UPDATED',
      eventCategory: 'AUTHENTICATION',
      severity: 'INFO',
      success: true,
      userId: user.id,
      ipAddress: '127.0.0.1',
      userAgent: CHROME_UA,
      sessionId: callerSessionId,
    }
    expect(rows).toHaveLength(2)
    expect(rows[0]).toMatchObject({ ...common, action: 'SESSION_REVOKED', resourceType: 'session', resourceId: victim.id })
    expect(rows[1]).toMatchObject({ ...common, action: 'SESSIONS_REVOKED_ALL', metadata: { revokedCount: 2 } })
  })
})
