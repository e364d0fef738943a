import { eq, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sessions } from '#server/db/schema.ts'
import { cleanupExpiredSessions } from '#server/features/auth/session-cleanup.service.ts'
import { SESSION_CACHE_APPLICATION_NAME, SESSION_CACHE_TTL_MS, sessionCacheOf, type SessionCache } from '#server/lib/session-cache.ts'
import { createSession } from '#server/lib/sessions.ts'
import { sha256 } from '#server/lib/tokens.ts'
import { anotherInstance, type AnotherInstance } from '#server/test/another-instance.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { createTestApp, signIn, type TestApp } from '#server/test/harness.ts'
import type { Database } from '#server/db/client.ts'
import type { SessionUser } from '#shared/api/auth.ts'

const DAY = 24 * 3600_000
const ADMIN_EMAIL = 'promoted.later@example.com'

/** Polls until `check` holds (a LISTEN connection coming up, a notice arriving); fails after `ms`. */
async function until(check: () => boolean, ms = 5_000) {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const cacheOf = (db: Database): SessionCache => {
  const cache = sessionCacheOf(db)
  if (!cache) throw new Error('no session cache is open on this database')
  return cache
}

describe.each(testDatabaseKinds())('the session cache (decision 021) on %s', (kind) => {
  let ctx: TestApp
  beforeAll(async () => {
    ctx = await createTestApp(kind, { env: { ADMIN_EMAILS: ADMIN_EMAIL } })
    await until(() => cacheOf(ctx.db).enabled)
  }, 60_000)
  afterAll(async () => {
    await ctx?.close()
  })

  const post = (url: string, sid: string, payload: object = {}, app: FastifyInstance = ctx.app) =>
    app.inject({ method: 'POST', url, headers: { 'x-requested-with': 'XMLHttpRequest' }, cookies: { sid }, payload })
  const whoIs = async (sid: string, app: FastifyInstance = ctx.app) =>
    (await app.inject({ method: 'GET', url: '/_api/auth/session', cookies: { sid } })).json().user as SessionUser | null
  const sessionsStatus = async (sid: string, app: FastifyInstance = ctx.app) => (await app.inject({ method: 'GET', url: '/_api/sessions', cookies: { sid } })).statusCode
  /** Signs in through the cache, and shows the next request would be answered from it. */
  async function cachedIn(sid: string, app: FastifyInstance = ctx.app, db: Database = ctx.db) {
    const user = await whoIs(sid, app)
    expect(user).not.toBeNull()
    expect(cacheOf(db).holds(sha256(sid))).toBe(true)
    return user!
  }
  const sessionIdOf = async (sid: string) => (await ctx.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.tokenHash, sha256(sid))))[0]!.id

  it('answers repeated calls from the cache with the same user the database holds', async () => {
    const { sid, user } = await signIn(ctx, 'google', { email: 'cached@example.com', name: 'Cached Person' })
    const first = await cachedIn(sid)
    expect(first).toEqual(user)
    expect(await whoIs(sid)).toEqual(user)
  })

  it('Sign Out: the very next request with that cookie is 401, though the session was cached', async () => {
    const { sid } = await signIn(ctx, 'google', { email: 'signout.cached@example.com' })
    await cachedIn(sid)
    expect((await post('/_api/auth/logout', sid)).statusCode).toBe(200)
    expect(await sessionsStatus(sid)).toBe(401)
    expect(await whoIs(sid)).toBeNull()
  })

  it('a revoked session is 401 on its next request; "log out other devices" ends the others at once and keeps the caller', async () => {
    const here = await signIn(ctx, 'google', { email: 'revoked.cached@example.com' })
    const phone = await signIn(ctx, 'google', { email: 'revoked.cached@example.com' })
    const laptop = await signIn(ctx, 'google', { email: 'revoked.cached@example.com' })
    const tablet = await signIn(ctx, 'google', { email: 'revoked.cached@example.com' })
    for (const { sid } of [here, phone, laptop, tablet]) await cachedIn(sid)

    expect((await post('/_api/sessions/revoke', here.sid, { sessionId: await sessionIdOf(phone.sid) })).statusCode).toBe(200)
    expect(await sessionsStatus(phone.sid)).toBe(401)
    expect(await sessionsStatus(laptop.sid)).toBe(200)

    expect((await post('/_api/sessions/revoke-all', here.sid)).json()).toEqual({ revokedCount: 2 })
    expect(await sessionsStatus(laptop.sid)).toBe(401)
    expect(await sessionsStatus(tablet.sid)).toBe(401)
    expect(await sessionsStatus(here.sid)).toBe(200)
  })

  it('account deletion: every cached session of the account is 401 at once', async () => {
    const one = await signIn(ctx, 'google', { email: 'deleted.cached@example.com' })
    const two = await signIn(ctx, 'google', { email: 'deleted.cached@example.com' })
    await cachedIn(one.sid)
    await cachedIn(two.sid)
    const res = await post('/_api/account/delete', one.sid, { confirmationEmail: 'deleted.cached@example.com', confirmationPhrase: 'DELETE MY ACCOUNT' })
    expect(res.statusCode).toBe(200)
    expect(await sessionsStatus(one.sid)).toBe(401)
    expect(await sessionsStatus(two.sid)).toBe(401)
  })

  it('the session call reports onboarding completed at once, in every cached session of the user', async () => {
    const one = await signIn(ctx, 'google', { email: 'onboarded.cached@example.com' })
    const two = await signIn(ctx, 'google', { email: 'onboarded.cached@example.com' })
    expect((await cachedIn(one.sid)).hasCompletedOnboarding).toBe(false)
    expect((await cachedIn(two.sid)).hasCompletedOnboarding).toBe(false)
    expect((await post('/_api/onboarding/complete', one.sid)).statusCode).toBe(200)
    expect((await whoIs(one.sid))?.hasCompletedOnboarding).toBe(true)
    expect((await whoIs(two.sid))?.hasCompletedOnboarding).toBe(true)
  })

  it('a promotion to admin at sign-in shows in the user’s other cached sessions at once', async () => {
    // Unverified, ADMIN_EMAILS grants nothing (decision 008); the verified sign-in promotes.
    const before = await signIn(ctx, 'google', { email: ADMIN_EMAIL, emailVerified: false })
    expect((await cachedIn(before.sid)).role).toBe('user')
    const after = await signIn(ctx, 'google', { email: ADMIN_EMAIL, emailVerified: true })
    expect(after.user.role).toBe('admin')
    expect((await whoIs(before.sid))?.role).toBe('admin')
    expect((await ctx.app.inject({ method: 'GET', url: '/_api/admin/waitlist', cookies: { sid: before.sid } })).statusCode).toBe(200)
  })

  it('the cleanup job’s 90-day rule ends a cached live session at once', async () => {
    const { sid } = await signIn(ctx, 'google', { email: 'ninety.days@example.com' })
    await cachedIn(sid)
    await ctx.db.update(sessions).set({ createdAt: new Date(Date.now() - 91 * DAY) }).where(eq(sessions.tokenHash, sha256(sid)))
    expect((await cleanupExpiredSessions(ctx.db)).sessionsDeleted).toBeGreaterThanOrEqual(1)
    expect(await whoIs(sid)).toBeNull()
  })

  it('a session about to expire is cached only until its expiry', async () => {
    const { sid } = await signIn(ctx, 'google', { email: 'expiring@example.com' })
    const userId = (await whoIs(sid))!.id
    // A second browser whose week ends in half a second.
    const { token } = await createSession(ctx.db, { userId, ipAddress: null, userAgent: undefined, now: new Date(Date.now() - 7 * DAY + 500) })
    await cachedIn(token)
    expect(cacheOf(ctx.db).holds(sha256(token), Date.now() + 600)).toBe(false)
    expect(cacheOf(ctx.db).holds(sha256(token), Date.now() + Math.min(SESSION_CACHE_TTL_MS, 400))).toBe(true)
  })

  describe('two instances on one database', () => {
    let other: AnotherInstance
    beforeAll(async () => {
      other = await anotherInstance(ctx)
      await until(() => cacheOf(other.db).enabled)
    })
    afterAll(async () => {
      await other?.close()
    })

    /** PGlite: one process, one cache. PostgreSQL: the other instance hears the change by NOTIFY. */
    async function heardBy(db: Database, changesBefore: number) {
      if (kind === 'pglite') return 0
      const started = Date.now()
      await until(() => cacheOf(db).changes > changesBefore, SESSION_CACHE_TTL_MS)
      return Date.now() - started
    }

    it('a session revoked on one instance is refused by the other that had it cached, as soon as the notice arrives (well before the TTL)', async () => {
      const here = await signIn(ctx, 'google', { email: 'two.instances@example.com' })
      const there = await signIn(ctx, 'google', { email: 'two.instances@example.com' })
      await cachedIn(there.sid, other.app, other.db)
      const changes = cacheOf(other.db).changes
      expect((await post('/_api/sessions/revoke', here.sid, { sessionId: await sessionIdOf(there.sid) })).statusCode).toBe(200)
      const waited = await heardBy(other.db, changes)
      expect(waited).toBeLessThan(SESSION_CACHE_TTL_MS / 5)
      expect(await sessionsStatus(there.sid, other.app)).toBe(401)
      expect(await whoIs(there.sid, other.app)).toBeNull()
    })

    it('Sign Out on the other instance, and onboarding there, reach this one the same way', async () => {
      const one = await signIn(ctx, 'google', { email: 'two.instances.b@example.com' })
      const two = await signIn(ctx, 'google', { email: 'two.instances.b@example.com' })
      await cachedIn(one.sid)
      await cachedIn(two.sid)
      let changes = cacheOf(ctx.db).changes
      expect((await post('/_api/onboarding/complete', one.sid, {}, other.app)).statusCode).toBe(200)
      await heardBy(ctx.db, changes)
      expect((await whoIs(two.sid))?.hasCompletedOnboarding).toBe(true)

      await cachedIn(one.sid)
      changes = cacheOf(ctx.db).changes
      expect((await post('/_api/auth/logout', one.sid, {}, other.app)).statusCode).toBe(200)
      await heardBy(ctx.db, changes)
      expect(await sessionsStatus(one.sid)).toBe(401)
    })

    it.runIf(kind === 'postgres')('while its LISTEN connection is down an instance caches nothing, and it starts from an empty cache once back', async () => {
      const here = await signIn(ctx, 'google', { email: 'listen.down@example.com' })
      const there = await signIn(ctx, 'google', { email: 'listen.down@example.com' })
      await cachedIn(there.sid, other.app, other.db)
      // Both instances' LISTEN connections are cut: any notice sent now would be lost.
      await ctx.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${SESSION_CACHE_APPLICATION_NAME} and datname = current_database()`,
      )
      await until(() => !cacheOf(other.db).enabled)
      expect(cacheOf(other.db).size).toBe(0)
      // Served from the database while down, and not kept.
      expect(await whoIs(there.sid, other.app)).not.toBeNull()
      expect(cacheOf(other.db).holds(sha256(there.sid))).toBe(false)

      await until(() => cacheOf(other.db).enabled && cacheOf(ctx.db).enabled)
      await cachedIn(there.sid, other.app, other.db)
      const changes = cacheOf(other.db).changes
      expect((await post('/_api/sessions/revoke', here.sid, { sessionId: await sessionIdOf(there.sid) })).statusCode).toBe(200)
      await heardBy(other.db, changes)
      expect(await whoIs(there.sid, other.app)).toBeNull()
    })
  })
})
