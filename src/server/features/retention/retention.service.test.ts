import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { withAuditMaintenance } from '#server/audit/audit-maintenance.ts'
import {
  auditEvents,
  billingAccounts,
  correspondenceCache,
  decisions,
  invoices,
  jobRuns,
  mailboxes,
  messageFailures,
  pushReceipts,
  stripeEvents,
  syncRuns,
  users,
} from '#server/db/schema.ts'
import { DATA_RETENTION_CRON, JOB_NAMES, runDataRetentionJob, SCHEDULES, startJobs } from '#server/jobs/boss.ts'
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '#server/test/databases.ts'
import { purgeAuditEventsPastRetention, purgeExpiredData, type RetentionResult } from './retention.service.ts'

const DAY = 24 * 60 * 60 * 1000
const silent = { info() {}, warn() {}, error() {} }
// The seven years before this moment hold two leap days (2024-02-29, 2028-02-29): a cutoff of
// 7 × 365 days would delete rows that are exactly seven calendar years old.
const NOW = new Date('2030-03-01T03:30:00Z')
const daysAgo = (days: number, now = NOW) => new Date(now.getTime() - days * DAY)
const calendarYearsAgo = (years: number, extraDays = 0) => {
  const date = new Date(NOW)
  date.setUTCFullYear(date.getUTCFullYear() - years)
  return new Date(date.getTime() - extraDays * DAY)
}

const NOTHING: RetentionResult = {
  decisions: 0,
  messageFailures: 0,
  correspondenceCache: 0,
  pushReceipts: 0,
  syncRuns: 0,
  stripeEvents: 0,
  invoices: 0,
  billingAccounts: 0,
  auditEvents: 0,
}

describe.each(testDatabaseKinds())('data retention on %s', (kind) => {
  let database: TestDatabase
  const people: { userId: number; mailboxId: number; tag: string }[] = []
  beforeAll(async () => {
    database = await createTestDatabase(kind)
    const db = database.handle.db
    for (const tag of ['a', 'b']) {
      const [user] = await db.insert(users).values({ displayName: tag, email: `${tag}@example.com` }).returning({ id: users.id })
      const [mailbox] = await db
        .insert(mailboxes)
        .values({ userId: user!.id, provider: 'gmail', emailAddress: `${tag}@example.com`, status: 'connected' })
        .returning({ id: mailboxes.id })
      people.push({ userId: user!.id, mailboxId: mailbox!.id, tag })
    }
  })
  afterAll(async () => {
    await database?.destroy()
  })
  afterEach(async () => {
    const db = database.handle.db
    for (const table of [decisions, messageFailures, correspondenceCache, pushReceipts, syncRuns, stripeEvents, invoices, billingAccounts, jobRuns]) {
      await db.delete(table)
    }
    // Audit rows are immutable outside the named maintenance paths (drizzle/0010_audit_immutable.sql).
    await withAuditMaintenance(db, 'purge', (tx) => tx.delete(auditEvents))
  })

  /** Rows named `<user>-<age>`, for both users, at each age given. */
  async function seedPerUser(now: Date, ages: { classification: number[]; metadata: number[] }) {
    const db = database.handle.db
    for (const { userId, mailboxId, tag } of people) {
      for (const age of ages.classification) {
        const at = daysAgo(age, now)
        const name = `${tag}-${age}`
        await db.insert(decisions).values({
          userId,
          mailboxId,
          provider: 'gmail',
          providerMessageId: name,
          // Retention counts from when the decision was made, not from when the mail arrived.
          receivedAt: daysAgo(age + 30, now),
          decidedAt: at,
          senderAddress: 'sender@vendor.example',
          subject: 'Quick question',
          category: 'unwanted',
          confidence: 0.9,
          action: 'filed',
          state: 'filed',
          reasons: ['cold outreach'],
          decidedBy: 'classifier',
        })
        await db.insert(messageFailures).values({ mailboxId, providerMessageId: name, attempts: 1, lastError: 'timeout', updatedAt: at })
        await db.insert(correspondenceCache).values({ mailboxId, subject: `${name}@vendor.example`, hasWritten: false, checkedAt: at })
      }
      for (const age of ages.metadata) {
        const at = daysAgo(age, now)
        const name = `${tag}-${age}`
        await db.insert(pushReceipts).values({ source: 'gmail', dedupeKey: name, mailboxId, receivedAt: at })
        await db.insert(syncRuns).values({ mailboxId, worker: name, reason: 'push', startedAt: at, finishedAt: at, outcome: 'done' })
      }
    }
  }

  async function remaining() {
    const db = database.handle.db
    const sorted = (values: string[]) => values.sort()
    return {
      decisions: sorted((await db.select({ v: decisions.providerMessageId }).from(decisions)).map((r) => r.v)),
      messageFailures: sorted((await db.select({ v: messageFailures.providerMessageId }).from(messageFailures)).map((r) => r.v)),
      correspondenceCache: sorted((await db.select({ v: correspondenceCache.subject }).from(correspondenceCache)).map((r) => r.v.split('@')[0]!)),
      pushReceipts: sorted((await db.select({ v: pushReceipts.dedupeKey }).from(pushReceipts)).map((r) => r.v)),
      syncRuns: sorted((await db.select({ v: syncRuns.worker }).from(syncRuns)).map((r) => r.v)),
      stripeEvents: sorted((await db.select({ v: stripeEvents.id }).from(stripeEvents)).map((r) => r.v)),
      invoices: sorted((await db.select({ v: invoices.id }).from(invoices)).map((r) => r.v)),
      billingAccounts: sorted((await db.select({ v: billingAccounts.stripeCustomerId }).from(billingAccounts)).map((r) => r.v)),
      auditEvents: sorted((await db.select({ v: auditEvents.action }).from(auditEvents)).map((r) => r.v)),
    }
  }

  it('deletes classification data older than 45 days and mail metadata older than 90 days, for every user, and nothing younger', async () => {
    await seedPerUser(NOW, { classification: [44, 46], metadata: [89, 91] })
    const result = await purgeExpiredData(database.handle.db, NOW)
    expect(result).toEqual({ ...NOTHING, decisions: 2, messageFailures: 2, correspondenceCache: 2, pushReceipts: 2, syncRuns: 2 })
    const left = await remaining()
    for (const table of ['decisions', 'messageFailures', 'correspondenceCache'] as const) expect(left[table], table).toEqual(['a-44', 'b-44'])
    for (const table of ['pushReceipts', 'syncRuns'] as const) expect(left[table], table).toEqual(['a-89', 'b-89'])
  })

  it('keeps audit events for seven calendar years, leap days included, and deletes them after', async () => {
    const db = database.handle.db
    for (const { userId, tag } of people) {
      const audit = (name: string, timestamp: Date) => ({
        eventType: 'LOGIN_SUCCESS',
        eventCategory: 'AUTHENTICATION',
        severity: 'INFO',
        userId,
        action: `${tag}-${name}`,
        success: true,
        timestamp,
      })
      await db.insert(auditEvents).values([
        audit('7y-1d', calendarYearsAgo(7, -1)),
        audit('7y', calendarYearsAgo(7)),
        // One day past seven calendar years is the earliest a row may go, here exactly 7 × 365 + 2 days.
        audit('7y+1d', calendarYearsAgo(7, 1)),
        audit('7y+3d', calendarYearsAgo(7, 3)),
        audit('1d', daysAgo(1)),
      ])
    }
    expect(await purgeAuditEventsPastRetention(db, NOW)).toBe(4)
    // The purge records itself (issue 18): one SYSTEM event with the count.
    expect((await remaining()).auditEvents).toEqual(['AUDIT_EVENTS_PURGED', 'a-1d', 'a-7y', 'a-7y-1d', 'b-1d', 'b-7y', 'b-7y-1d'])
    const [purged] = await db.select().from(auditEvents).where(eq(auditEvents.action, 'AUDIT_EVENTS_PURGED'))
    expect(purged).toMatchObject({ eventCategory: 'SYSTEM', success: true, metadata: { rowsDeleted: 4 } })
  })

  it('keeps billing records seven years, and a customer whose user is gone while any of its invoices is kept', async () => {
    const db = database.handle.db
    const [a, b] = people
    await db.insert(invoices).values([
      { id: 'in_a_recent', stripeCustomerId: 'cus_a', userId: a!.userId, amountCents: 499, currency: 'usd', status: 'paid', createdAt: calendarYearsAgo(7, -1) },
      { id: 'in_a_old', stripeCustomerId: 'cus_a', userId: a!.userId, amountCents: 499, currency: 'usd', status: 'paid', createdAt: calendarYearsAgo(7, 3) },
      { id: 'in_b_old', stripeCustomerId: 'cus_b', userId: b!.userId, amountCents: 499, currency: 'usd', status: 'paid', createdAt: calendarYearsAgo(7, 3) },
      // The account is gone, its last invoice is not yet seven years old.
      { id: 'in_gone_kept', stripeCustomerId: 'cus_gone_invoiced', amountCents: 499, currency: 'usd', status: 'paid', createdAt: calendarYearsAgo(6) },
    ])
    await db.insert(billingAccounts).values([
      // A user still here keeps the customer however old the row.
      { userId: a!.userId, stripeCustomerId: 'cus_a', updatedAt: calendarYearsAgo(7, 3) },
      { userId: b!.userId, stripeCustomerId: 'cus_b', updatedAt: calendarYearsAgo(7, 3) },
      { userId: null, stripeCustomerId: 'cus_gone_old', updatedAt: calendarYearsAgo(7, 3) },
      { userId: null, stripeCustomerId: 'cus_gone_recent', updatedAt: calendarYearsAgo(7, -1) },
      { userId: null, stripeCustomerId: 'cus_gone_invoiced', updatedAt: calendarYearsAgo(7, 3) },
    ])
    await db.insert(stripeEvents).values([
      { id: 'evt_89d', type: 'invoice.paid', receivedAt: daysAgo(89) },
      { id: 'evt_91d', type: 'invoice.paid', receivedAt: daysAgo(91) },
    ])
    const result = await purgeExpiredData(db, NOW)
    expect(result).toEqual({ ...NOTHING, invoices: 2, billingAccounts: 1, stripeEvents: 1 })
    const left = await remaining()
    expect(left.invoices).toEqual(['in_a_recent', 'in_gone_kept'])
    expect(left.billingAccounts).toEqual(['cus_a', 'cus_b', 'cus_gone_invoiced', 'cus_gone_recent'])
    expect(left.stripeEvents).toEqual(['evt_89d'])
  })

  it('works through a backlog larger than one batch, and a second run deletes nothing more', async () => {
    await seedPerUser(NOW, { classification: [44, 46, 50, 60, 100], metadata: [89, 91, 120] })
    const first = await purgeExpiredData(database.handle.db, NOW, { batchSize: 2 })
    expect(first).toEqual({ ...NOTHING, decisions: 8, messageFailures: 8, correspondenceCache: 8, pushReceipts: 4, syncRuns: 4 })
    expect((await remaining()).decisions).toEqual(['a-44', 'b-44'])
    expect(await purgeExpiredData(database.handle.db, NOW, { batchSize: 2 })).toEqual(NOTHING)
  })

  it('the data-retention job purges on the real clock and records its run in job_runs', async () => {
    const now = new Date()
    await seedPerUser(now, { classification: [44, 46], metadata: [] })
    const result = await runDataRetentionJob(database.handle.db, {})
    expect(result).toEqual({ ...NOTHING, decisions: 2, messageFailures: 2, correspondenceCache: 2 })
    const runs = await database.handle.db.select().from(jobRuns)
    expect(runs).toEqual([expect.objectContaining({ jobName: 'data-retention', status: 'success', result })])
  })

  it('the data-retention job rejects a malformed payload before touching the database', async () => {
    await expect(runDataRetentionJob(database.handle.db, 'not an object')).rejects.toThrow()
    expect(await database.handle.db.select().from(jobRuns)).toHaveLength(0)
  })

  it('pg-boss schedules the purge daily at 03:30 UTC and its worker records a run', async () => {
    expect(SCHEDULES[JOB_NAMES.dataRetention]).toEqual({ cron: '30 3 * * *', intervalMinutes: 1440 })
    const unexpected = () => Promise.reject(new Error('no such job expected'))
    const jobs = await startJobs({
      handle: database.handle,
      logger: silent,
      tasks: { syncMailbox: unexpected, renewPush: unexpected, sweep: unexpected, watchdog: unexpected, syncBillingCustomer: unexpected },
      pollingIntervalSeconds: 0.5,
    })
    try {
      const schedules = await jobs.boss.getSchedules()
      expect(schedules).toContainEqual(expect.objectContaining({ name: JOB_NAMES.dataRetention, cron: DATA_RETENTION_CRON }))
      await jobs.boss.send(JOB_NAMES.dataRetention, {})
      const deadline = Date.now() + 15_000
      let runs: (typeof jobRuns.$inferSelect)[] = []
      while (Date.now() < deadline) {
        runs = await database.handle.db.select().from(jobRuns)
        if (runs.length > 0) break
        await new Promise((r) => setTimeout(r, 100))
      }
      expect(runs).toEqual([expect.objectContaining({ jobName: 'data-retention', status: 'success', result: NOTHING })])
    } finally {
      await jobs.stop()
    }
  })
})
