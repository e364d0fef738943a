import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { jobRuns, oauthStates, sessions, tempTokens, users } from '#server/db/schema.ts'
import { cleanupExpiredSessions } from '#server/features/auth/session-cleanup.service.ts'
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '#server/test/databases.ts'
import { JOB_NAMES, runSessionCleanupJob, SESSION_CLEANUP_CRON, startJobs } from './boss.ts'

const DAY = 24 * 60 * 60 * 1000
const silent = { info() {}, warn() {}, error() {} }

describe.each(testDatabaseKinds())('session cleanup job on %s', (kind) => {
  let database: TestDatabase
  let userId: number
  beforeAll(async () => {
    database = await createTestDatabase(kind)
    const [user] = await database.handle.db.insert(users).values({ displayName: 'U', email: 'u@example.com' }).returning()
    userId = user!.id
  })
  afterAll(async () => {
    await database?.destroy()
  })
  afterEach(async () => {
    const db = database.handle.db
    await db.delete(sessions)
    await db.delete(tempTokens)
    await db.delete(oauthStates)
    await db.delete(jobRuns)
  })

  async function seed(now: Date) {
    const db = database.handle.db
    const session = (id: string, createdAgoMs: number, expiresInMs: number) => ({
      id,
      tokenHash: `hash-${id}`,
      userId,
      deviceType: 'desktop',
      browser: 'Chrome',
      os: 'Linux',
      location: 'Unknown',
      createdAt: new Date(now.getTime() - createdAgoMs),
      lastAccessed: now,
      expiresAt: new Date(now.getTime() + expiresInMs),
    })
    await db.insert(sessions).values([
      session('live', DAY, 6 * DAY),
      session('expired', 8 * DAY, -DAY),
      // Still "valid" by expiry (extended by some future refresh) but past the 90-day hard limit.
      session('ancient', 91 * DAY, DAY),
    ])
    await db.insert(tempTokens).values([
      { hash: 'fresh', userId, provider: 'google', expiresAt: new Date(now.getTime() + 60_000) },
      { hash: 'stale', userId, provider: 'google', expiresAt: new Date(now.getTime() - 60_000) },
    ])
    await db.insert(oauthStates).values([
      { state: 'fresh', provider: 'google', codeVerifier: 'v', nonce: 'n', browserBindingHash: 'b', expiresAt: new Date(now.getTime() + 60_000) },
      { state: 'stale', provider: 'microsoft', codeVerifier: 'v', nonce: 'n', browserBindingHash: 'b', expiresAt: new Date(now.getTime() - 60_000) },
    ])
  }

  it('deletes expired sessions, sessions older than 90 days, and expired temp tokens and OAuth states', async () => {
    const now = new Date()
    await seed(now)
    const result = await cleanupExpiredSessions(database.handle.db, now)
    expect(result).toEqual({ sessionsDeleted: 2, tempTokensDeleted: 1, oauthStatesDeleted: 1 })
    const db = database.handle.db
    expect((await db.select({ id: sessions.id }).from(sessions)).map((r) => r.id)).toEqual(['live'])
    expect((await db.select({ hash: tempTokens.hash }).from(tempTokens)).map((r) => r.hash)).toEqual(['fresh'])
    expect((await db.select({ state: oauthStates.state }).from(oauthStates)).map((r) => r.state)).toEqual(['fresh'])
  })

  it('running twice is safe: the second run deletes nothing and both runs are recorded in job_runs', async () => {
    await seed(new Date())
    const first = await runSessionCleanupJob(database.handle.db, {})
    const second = await runSessionCleanupJob(database.handle.db, {})
    expect(first.sessionsDeleted).toBe(2)
    expect(second).toEqual({ sessionsDeleted: 0, tempTokensDeleted: 0, oauthStatesDeleted: 0 })
    const runs = await database.handle.db.select().from(jobRuns)
    expect(runs).toHaveLength(2)
    expect(runs[0]).toMatchObject({ jobName: 'session-cleanup', status: 'success', result: first })
    expect(runs[0]!.finishedAt!.getTime()).toBeGreaterThanOrEqual(runs[0]!.startedAt.getTime())
  })

  it('rejects a malformed payload before touching the database', async () => {
    await expect(runSessionCleanupJob(database.handle.db, 'not an object')).rejects.toThrow()
    expect(await database.handle.db.select().from(jobRuns)).toHaveLength(0)
  })

  it('pg-boss schedules the cleanup hourly and its worker records a run', async () => {
    await seed(new Date())
    // No mailbox job is sent here; the workers would throw if one ran.
    const unexpected = () => Promise.reject(new Error('no such job expected'))
    const jobs = await startJobs({
      handle: database.handle,
      logger: silent,
      tasks: { syncMailbox: unexpected, renewPush: unexpected, sweep: unexpected, watchdog: unexpected, syncBillingCustomer: unexpected },
      pollingIntervalSeconds: 0.5,
    })
    try {
      const schedules = await jobs.boss.getSchedules()
      expect(schedules).toContainEqual(expect.objectContaining({ name: JOB_NAMES.sessionCleanup, cron: SESSION_CLEANUP_CRON }))
      await jobs.boss.send(JOB_NAMES.sessionCleanup, {})
      const deadline = Date.now() + 15_000
      let runs: (typeof jobRuns.$inferSelect)[] = []
      while (Date.now() < deadline) {
        runs = await database.handle.db.select().from(jobRuns)
        if (runs.length > 0) break
        await new Promise((r) => setTimeout(r, 100))
      }
      expect(runs).toEqual([expect.objectContaining({ jobName: 'session-cleanup', status: 'success' })])
      expect(runs[0]!.result).toMatchObject({ sessionsDeleted: 2 })
    } finally {
      await jobs.stop()
    }
  })
})
