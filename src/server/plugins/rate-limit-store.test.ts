import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rateLimitWindows, users } from '#server/db/schema.ts'
import { createSession } from '#server/lib/sessions.ts'
import { anotherInstance, type AnotherInstance } from '#server/test/another-instance.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { createTestApp, type TestApp } from '#server/test/harness.ts'
import { databaseRateLimitStore } from './rate-limit-store.ts'

const LIMIT = { max: 3, timeWindow: 60_000 }

describe.each(testDatabaseKinds())('rate limits kept in the database (decision 021) on %s', (kind) => {
  let ctx: TestApp
  let other: AnotherInstance
  beforeAll(async () => {
    ctx = await createTestApp(kind, { authRateLimit: LIMIT, waitlistRateLimit: LIMIT })
    other = await anotherInstance(ctx, { authRateLimit: LIMIT, waitlistRateLimit: LIMIT })
  }, 60_000)
  afterAll(async () => {
    await other?.close()
    await ctx?.close()
  })

  async function sessionFor(email: string) {
    const [user] = await ctx.db.insert(users).values({ displayName: 'N', email }).returning({ id: users.id })
    return { sid: (await createSession(ctx.db, { userId: user!.id, ipAddress: null, userAgent: undefined })).token }
  }
  const establish = (app: FastifyInstance) =>
    app.inject({ method: 'POST', url: '/_api/auth/establish_session', headers: { 'x-requested-with': 'XMLHttpRequest' }, payload: { tempToken: 'guess' } })

  it('two instances on one database share one sign-in limit per address', async () => {
    const statuses: number[] = []
    for (const app of [ctx.app, other.app, ctx.app, other.app, other.app, ctx.app]) statuses.push((await establish(app)).statusCode)
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429])
    const limited = await establish(other.app)
    expect(limited.json()).toEqual({ error: 'Too many requests. Please wait a moment and try again.', code: 'rate_limited' })
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(50)
  })

  it('two instances share one per-user waitlist limit, and it stays per user', async () => {
    // Sessions made directly: the sign-in flow is itself limited to 3 a minute here.
    const flooder = await sessionFor('shared.flood@example.com')
    const calm = await sessionFor('shared.calm@example.com')
    const join = (app: FastifyInstance, sid: string, i: number) =>
      app.inject({ method: 'POST', url: '/_api/team/waitlist', headers: { 'x-requested-with': 'XMLHttpRequest' }, cookies: { sid }, payload: { name: 'N', email: `shared${i}@example.com` } })
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await join(i % 2 ? other.app : ctx.app, flooder.sid, i)).statusCode)
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    expect((await join(other.app, calm.sid, 100)).statusCode).toBe(200)
  })

  describe('the store', () => {
    const hit = (store: { incr: (key: string, cb: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number, max: number) => void }, key: string, timeWindow: number, max = 3) =>
      new Promise<{ current: number; ttl: number }>((resolve, reject) => store.incr(key, (error, result) => (error ? reject(error) : resolve(result!)), timeWindow, max))
    const storeOn = (url: string, options?: { cleanupIntervalMs: number }) => {
      const Store = databaseRateLimitStore(ctx.db, options)
      return new Store({}).child({ routeInfo: { method: 'POST', url } } as never)
    }

    it('counts concurrent requests exactly: one atomic upsert each', async () => {
      const store = storeOn('/concurrent')
      const results = await Promise.all(Array.from({ length: 20 }, () => hit(store, 'ip:10.0.0.1', 60_000)))
      expect(results.map((r) => r.current).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
      for (const { ttl } of results) {
        expect(ttl).toBeGreaterThan(55_000)
        expect(ttl).toBeLessThanOrEqual(60_000)
      }
    })

    it('starts counting again once the window has ended, and keeps routes apart', async () => {
      const store = storeOn('/window')
      expect((await hit(store, 'ip:10.0.0.2', 300)).current).toBe(1)
      expect((await hit(store, 'ip:10.0.0.2', 300)).current).toBe(2)
      expect((await hit(storeOn('/elsewhere'), 'ip:10.0.0.2', 300)).current).toBe(1)
      await new Promise((resolve) => setTimeout(resolve, 350))
      const fresh = await hit(store, 'ip:10.0.0.2', 300)
      expect(fresh.current).toBe(1)
      expect(fresh.ttl).toBeGreaterThan(200)
    })

    it('deletes ended windows as it goes', async () => {
      const store = storeOn('/cleanup', { cleanupIntervalMs: 0 })
      await hit(store, 'ip:10.0.0.3', 50)
      await new Promise((resolve) => setTimeout(resolve, 100))
      await hit(store, 'ip:10.0.0.4', 60_000)
      const keys = (await ctx.db.select({ key: rateLimitWindows.key }).from(rateLimitWindows)).map((r) => r.key)
      expect(keys).toContain('POST /cleanup|ip:10.0.0.4')
      expect(keys).not.toContain('POST /cleanup|ip:10.0.0.3')
    })
  })
})
