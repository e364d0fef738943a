import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailboxes, syncRuns, users } from '#server/db/schema.ts'
import { createCircuitBreakers } from '#server/integrations/circuit-breaker.ts'
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '#server/test/databases.ts'
import { createMailboxLock } from './mailbox-lock.ts'
import { MAILBOX_BUSY_RETRY_MS, runSync } from './run-sync.ts'
import type { SyncResult } from './sync-mailbox.ts'

/**
 * One sync per mailbox at a time (docs/decisions/022). The soak froze a worker in the middle of a sync
 * for 90 s: pg-boss failed its job on the lost heartbeat and handed it to the other worker, and both
 * synced the mailbox at once (19 overlapping runs). These tests stand a second "process" (a second
 * lock: a second database session) beside a sync that does not finish, as the frozen worker's did.
 */
describe.each(testDatabaseKinds())('one sync per mailbox on %s', (kind) => {
  let database: TestDatabase
  const mailboxIds: number[] = []
  const connectionString = () => (database.handle.kind === 'postgres' ? database.handle.connectionString : undefined)

  beforeAll(async () => {
    database = await createTestDatabase(kind)
    const db = database.handle.db
    for (const tag of ['first', 'second']) {
      const [user] = await db.insert(users).values({ displayName: tag, email: `${tag}@example.com` }).returning({ id: users.id })
      const [mailbox] = await db.insert(mailboxes).values({ userId: user!.id, provider: 'gmail', emailAddress: `${tag}@example.com`, status: 'connected' }).returning({ id: mailboxes.id })
      mailboxIds.push(mailbox!.id)
    }
  })
  afterAll(async () => {
    await database?.destroy()
  })

  const result = (mailboxId: number): SyncResult => ({ mailboxId, reason: 'push', decided: 0, filed: 0, skipped: 0, retrying: 0, recovered: false })

  /** A sync that runs until `finish` is called: the frozen worker's. */
  function stuckSync() {
    let finish: () => void = () => {}
    const finished = new Promise<void>((resolve) => (finish = resolve))
    let started: () => void = () => {}
    const running = new Promise<void>((resolve) => (started = resolve))
    return {
      sync: async (mailboxId: number) => {
        started()
        await finished
        return result(mailboxId)
      },
      running,
      finish,
    }
  }

  async function runsOf(mailboxId: number) {
    return database.handle.db.select().from(syncRuns).where(eq(syncRuns.mailboxId, mailboxId))
  }

  it('a second sync of a mailbox whose sync is still under way is deferred, not run beside it; other mailboxes go ahead', async () => {
    const db = database.handle.db
    const breakers = createCircuitBreakers(db)
    // Two processes on PostgreSQL (two sessions); on the embedded database, one process.
    const lockA = createMailboxLock({ connectionString: connectionString() })
    const lockB = kind === 'postgres' ? createMailboxLock({ connectionString: connectionString() }) : lockA
    const [mailbox, other] = mailboxIds as [number, number]
    try {
      const stuck = stuckSync()
      const first = runSync({ db, breakers, sync: stuck.sync, lock: lockA }, mailbox, 'push')
      await stuck.running

      const before = Date.now()
      let secondRan = false
      const second = await runSync({ db, breakers, sync: async (id) => ((secondRan = true), result(id)), lock: lockB }, mailbox, 'push')
      expect(second).toMatchObject({ kind: 'deferred', why: 'mailbox_busy' })
      expect(second.kind === 'deferred' && second.until.getTime() - before).toBeGreaterThanOrEqual(MAILBOX_BUSY_RETRY_MS - 50)
      expect(secondRan).toBe(false)
      expect(await runsOf(mailbox)).toHaveLength(1)

      expect(await runSync({ db, breakers, sync: async (id) => result(id), lock: lockB }, other, 'push')).toMatchObject({ kind: 'done' })

      stuck.finish()
      expect(await first).toMatchObject({ kind: 'done' })
      expect(await runSync({ db, breakers, sync: async (id) => result(id), lock: lockB }, mailbox, 'followup')).toMatchObject({ kind: 'done' })
      const runs = (await runsOf(mailbox)).sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime())
      expect(runs).toHaveLength(2)
      expect(runs[1]!.startedAt.getTime()).toBeGreaterThanOrEqual(runs[0]!.finishedAt!.getTime())
    } finally {
      await lockA.close()
      if (lockB !== lockA) await lockB.close()
    }
  })

  it.runIf(kind === 'postgres')("a lock stays held while its process's connection lives, and is free as soon as that connection is gone", async () => {
    const [mailbox] = mailboxIds as [number]
    const living = createMailboxLock({ connectionString: connectionString() })
    const other = createMailboxLock({ connectionString: connectionString() })
    try {
      const release = await living.tryAcquire(mailbox)
      expect(release).not.toBeNull()
      expect(await other.tryAcquire(mailbox)).toBeNull()
      // A process that dies takes its connection, and so its locks, with it.
      // The server ends the backend (and frees its locks) a moment after the socket closes.
      await living.close()
      let taken: Awaited<ReturnType<typeof other.tryAcquire>> = null
      for (let tries = 0; tries < 100 && !taken; tries++) {
        taken = await other.tryAcquire(mailbox)
        if (!taken) await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect(taken).not.toBeNull()
      await taken!()
    } finally {
      await living.close().catch(() => undefined)
      await other.close()
    }
  })
})
