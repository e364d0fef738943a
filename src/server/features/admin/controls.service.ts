import { and, eq, inArray, isNotNull, lt, lte, sql, type SQL } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import type { Database } from '#server/db/client.ts'
import { mailboxes, oauthStates, pushReceipts, sessions, stripeEvents, tempTokens } from '#server/db/schema.ts'
import type { HealthService, WatchdogStats } from '#server/features/health/health.service.ts'
import type { MailboxService } from '#server/features/mailboxes/mailboxes.service.ts'
import { JOB_NAMES, runSessionCleanupJob } from '#server/jobs/boss.ts'
import { recordJobRun } from '#server/jobs/job-runs.ts'
import { describeLocation } from '#server/lib/network.ts'

const DAY_MS = 24 * 3600_000

/**
 * How long the manual cleanup (POST /_api/admin/trigger-cleanup) keeps what it deletes. The daily
 * data-retention job deletes the same tables later (docs/decisions/016); this trims them sooner.
 */
export const CLEANUP_RETENTION_DAYS = {
  /**
   * Webhook dedupe keys: a Pub/Sub subscription redelivers an unacknowledged message for at most 7
   * days, Graph retries a notification for up to 4 hours; past that no redelivery can arrive. (A
   * duplicate would only queue one more sync, which finds nothing new.) The dashboard's counters read
   * today's rows only.
   */
  pushReceipts: 7,
  /**
   * Stripe event ids: Stripe retries a delivery for 3 days, and an operator can resend an event from
   * the Stripe dashboard while Stripe keeps it (30 days). A duplicate only re-reads the customer.
   */
  stripeEvents: 30,
  /**
   * Finished pg-boss jobs (completed, failed, cancelled), by when they finished: pg-boss's own
   * maintenance deletes them after 7 days too (its deleteAfterSeconds default), so the manual run
   * never removes a job pg-boss would still show; it catches up when the workers have not run.
   */
  finishedJobs: 7,
} as const

/** Session locations the sign-in could not determine (a geo-IP timeout), which a backfill may fill. */
const MISSING_LOCATIONS = ['', 'Unknown']

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS)

type Executor = Pick<Database, 'execute'>

/** Deletes the rows matching `due` and counts them in the database, without sending them back. */
async function countDeleted(db: Executor, table: PgTable, due: SQL): Promise<number> {
  const result = (await db.execute(sql`with gone as (delete from ${table} where ${due} returning 1) select count(*)::int as n from gone`)) as unknown as {
    rows: Array<{ n: number }>
  }
  return Number(result.rows[0]?.n ?? 0)
}

/**
 * Finished pg-boss jobs that finished before `cutoff`. pg-boss creates its schema when the queue first
 * starts, so before that there is nothing to delete. pg-boss 12 has no archive table: finished jobs
 * stay in pgboss.job until deleted. Its cached per-queue counts are recounted by its next maintenance.
 */
async function deleteFinishedJobs(db: Database, cutoff: Date): Promise<number> {
  const present = (await db.execute(sql`select to_regclass('pgboss.job') is not null as present`)) as unknown as { rows: Array<{ present: boolean }> }
  if (!present.rows[0]?.present) return 0
  const result = (await db.execute(
    sql`with gone as (
          delete from pgboss.job
          where state in ('completed', 'failed', 'cancelled') and completed_on < ${cutoff.toISOString()}::timestamptz
          returning 1
        ) select count(*)::int as n from gone`,
  )) as unknown as { rows: Array<{ n: number }> }
  return Number(result.rows[0]?.n ?? 0)
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

export interface AdminControlsDeps {
  db: Database
  health: Pick<HealthService, 'watchdog'>
  mailboxes: Pick<MailboxService, 'ensurePush' | 'pushAvailable'>
  log: { warn(obj: object, msg: string): void }
}

/** The admin panel's maintenance controls (SPEC 6 "Admin", 7 "Admin"; issue 18). */
export function createAdminControls({ db, health, mailboxes: mailboxService, log }: AdminControlsDeps) {
  /**
   * Exactly what the scheduled heartbeat-watchdog job runs (src/server/jobs/boss.ts), recorded in
   * job_runs under its name, so the cron-health panel counts a manual run as a run.
   */
  async function triggerWatchdog(): Promise<WatchdogStats> {
    return recordJobRun(db, JOB_NAMES.heartbeatWatchdog, async () => ({ ...(await health.watchdog()) }))
  }

  /**
   * SPEC 3 "Cleanup stats". Support records: expired sign-in and connect material (oauth_states,
   * temp_tokens past their expiry) and delivery dedupe records past their window (push_receipts,
   * stripe_events; CLEANUP_RETENTION_DAYS). Queue entries: finished pg-boss jobs. Not recorded in
   * job_runs: no scheduled job has this name, and the audit row records the run.
   */
  async function cleanup(now: Date = new Date()) {
    const support = await db.transaction(async (tx) => ({
      oauthStates: await countDeleted(tx, oauthStates, lte(oauthStates.expiresAt, now)),
      tempTokens: await countDeleted(tx, tempTokens, lte(tempTokens.expiresAt, now)),
      pushReceipts: await countDeleted(tx, pushReceipts, lt(pushReceipts.receivedAt, daysBefore(now, CLEANUP_RETENTION_DAYS.pushReceipts))),
      stripeEvents: await countDeleted(tx, stripeEvents, lt(stripeEvents.receivedAt, daysBefore(now, CLEANUP_RETENTION_DAYS.stripeEvents))),
    }))
    const queueEntriesDeleted = await deleteFinishedJobs(db, daysBefore(now, CLEANUP_RETENTION_DAYS.finishedJobs))
    const supportRecordsDeleted = support.oauthStates + support.tempTokens + support.pushReceipts + support.stripeEvents
    return { supportRecordsDeleted, queueEntriesDeleted, support }
  }

  /**
   * Fills the location of sessions whose sign-in could not place their IP address (the geo-IP lookup
   * has a time limit). Device type, browser and OS cannot be backfilled: they are parsed from the
   * user agent at sign-in, and the user agent is not stored. One lookup and one update per address.
   */
  async function backfillSessionLocations(): Promise<number> {
    const missing = and(isNotNull(sessions.ipAddress), inArray(sessions.location, MISSING_LOCATIONS))
    const addresses = await db.selectDistinct({ ip: sessions.ipAddress }).from(sessions).where(missing)
    const found: Array<{ ip: string; location: string }> = []
    for (const { ip } of addresses) {
      const location = await describeLocation(ip)
      if (ip && !MISSING_LOCATIONS.includes(location)) found.push({ ip, location })
    }
    if (found.length === 0) return 0
    return db.transaction(async (tx) => {
      let backfilled = 0
      for (const { ip, location } of found) {
        const rows = await tx.update(sessions).set({ location }).where(and(eq(sessions.ipAddress, ip), missing)).returning({ id: sessions.id })
        backfilled += rows.length
      }
      return backfilled
    })
  }

  /**
   * SPEC 5 "Session maintenance action". cleanup is what the hourly session-cleanup job runs (and is
   * recorded as its run); both cleans first, so no row about to go is backfilled.
   */
  async function maintainSessions(action: 'backfill' | 'cleanup' | 'both') {
    const parts: string[] = []
    let deleted: number | undefined
    let backfilled: number | undefined
    if (action !== 'backfill') {
      deleted = (await runSessionCleanupJob(db, {})).sessionsDeleted
    }
    if (action !== 'cleanup') {
      backfilled = await backfillSessionLocations()
      parts.push(`Backfilled ${plural(backfilled, 'session', 'sessions')}.`)
    }
    if (deleted !== undefined) parts.push(`Deleted ${plural(deleted, 'expired session', 'expired sessions')}.`)
    return { message: parts.join(' '), backfilled, deleted }
  }

  /**
   * SPEC 3 "Webhook migration result": every connected Gmail mailbox watches the configured Pub/Sub
   * topic again (a Gmail watch call replaces the mailbox's earlier watch, whatever topic it had).
   * Outlook subscriptions point at the app's URL, not a topic, so they are not part of it. Errors name
   * the user id, never the address (the admin panel shows them).
   */
  async function migrateWebhooks(now: Date = new Date()) {
    const rows = await db
      .select()
      .from(mailboxes)
      .where(and(eq(mailboxes.provider, 'gmail'), eq(mailboxes.status, 'connected'), isNotNull(mailboxes.refreshToken)))
      .orderBy(mailboxes.userId)
    if (rows.length > 0 && !mailboxService.pushAvailable('gmail')) {
      return { successfulMigrations: 0, totalUsers: rows.length, errors: ['GMAIL_PUBSUB_TOPIC is not set, so there is no Pub/Sub topic to watch: nothing was migrated.'] }
    }
    let successfulMigrations = 0
    const errors: string[] = []
    for (const row of rows) {
      try {
        const outcome = await mailboxService.ensurePush(row, now)
        if (outcome.ok) successfulMigrations++
        else errors.push(`User ${row.userId}: ${outcome.message}`)
      } catch (error) {
        log.warn({ err: error, mailboxId: row.id }, 'webhook migration failed for a mailbox')
        errors.push(`User ${row.userId}: the watch could not be set up (unexpected error; see the server log).`)
      }
    }
    return { successfulMigrations, totalUsers: rows.length, errors }
  }

  return { triggerWatchdog, cleanup, maintainSessions, migrateWebhooks }
}

export type AdminControls = ReturnType<typeof createAdminControls>
