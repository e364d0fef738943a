import { PgBoss, fromPglite } from 'pg-boss'
import { z } from 'zod'
import type { Database, DatabaseHandle } from '#server/db/client.ts'
import { cleanupExpiredSessions } from '#server/features/auth/session-cleanup.service.ts'
import { purgeExpiredData } from '#server/features/retention/retention.service.ts'
import { recordJobRun } from './job-runs.ts'
import { BILLING_SYNC_QUEUE, BillingSyncPayloadSchema } from './billing-sync.job.ts'
import { MAILBOX_SYNC_QUEUE, mailboxJobs, runMailboxSyncJob, type Later, type SyncJobOutcome, type SyncReason } from './mailbox-sync.job.ts'

export interface JobsLogger {
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

/** Queue names double as job names in job_runs and the cron-health panel. */
export const JOB_NAMES = {
  sessionCleanup: 'session-cleanup',
  pushRenewal: 'push-renewal',
  mailboxSweep: 'mailbox-sweep',
  heartbeatWatchdog: 'heartbeat-watchdog',
  dataRetention: 'data-retention',
} as const
export type ScheduledJobName = (typeof JOB_NAMES)[keyof typeof JOB_NAMES]

/** Hourly, at minute 0 UTC (SPEC 9 session cleanup). */
export const SESSION_CLEANUP_CRON = '0 * * * *'

/** Daily at 03:30 UTC: deletes data past its retention period (docs/decisions/016-data-retention.md). */
export const DATA_RETENTION_CRON = '30 3 * * *'

/**
 * The schedules (UTC) of the jobs that keep push alive (issue 14, docs/decisions/014): renewal hourly
 * (Gmail watches get renewed daily within it, Graph subscriptions when under 24 h remain), the sweep
 * every 5 minutes, the watchdog every 10. The cron-health panel expects each within its interval.
 */
export const SCHEDULES: Record<ScheduledJobName, { cron: string; intervalMinutes: number }> = {
  'session-cleanup': { cron: SESSION_CLEANUP_CRON, intervalMinutes: 60 },
  'push-renewal': { cron: '15 * * * *', intervalMinutes: 60 },
  'mailbox-sweep': { cron: '*/5 * * * *', intervalMinutes: 5 },
  'heartbeat-watchdog': { cron: '*/10 * * * *', intervalMinutes: 10 },
  'data-retention': { cron: DATA_RETENTION_CRON, intervalMinutes: 1440 },
}

/** Job payloads are validated (STYLE.md 13); the scheduled jobs carry none they need. */
const ScheduledPayloadSchema = z.object({}).passthrough()

/** The handler a worker runs; exported so tests and admin triggers call exactly what the queue calls. */
export async function runSessionCleanupJob(db: Database, payload: unknown) {
  ScheduledPayloadSchema.parse(payload ?? {})
  return recordJobRun(db, JOB_NAMES.sessionCleanup, async () => ({ ...(await cleanupExpiredSessions(db)) }))
}

export async function runDataRetentionJob(db: Database, payload: unknown) {
  ScheduledPayloadSchema.parse(payload ?? {})
  return recordJobRun(db, JOB_NAMES.dataRetention, async () => ({ ...(await purgeExpiredData(db)) }))
}

/** What the workers run: the pipeline and the health jobs (src/server/services.ts). */
export interface JobTasks {
  syncMailbox: (mailboxId: number, reason: SyncReason) => Promise<SyncJobOutcome>
  renewPush: () => Promise<Record<string, unknown>>
  sweep: () => Promise<Record<string, unknown>>
  watchdog: () => Promise<Record<string, unknown>>
  /** Re-reads one Stripe customer's subscription and invoices (issue 16). */
  syncBillingCustomer: (customerId: string) => Promise<unknown>
}

export interface Jobs {
  boss: PgBoss
  stop(): Promise<void>
}

export interface StartJobsOptions {
  handle: DatabaseHandle
  logger: JobsLogger
  tasks: JobTasks
  /**
   * Whether this process works jobs (ROLE worker or all) or only sends them (ROLE web): a web process
   * neither runs handlers nor the cron scheduler.
   */
  work?: boolean
  /** How often workers look for new jobs; tests shorten it. */
  pollingIntervalSeconds?: number
}

/**
 * Starts pg-boss on the same database as the app (DESIGN "Jobs and cron"): on PGlite through its
 * built-in adapter, on PostgreSQL with its own small pool so the web pool (max 3) is not starved.
 * Any number of worker processes share one PostgreSQL: pg-boss hands each job to one of them (SKIP
 * LOCKED), the stately policy keeps one sync per mailbox at a time, and a job whose worker died is
 * handed out again once it expires.
 */
export async function startJobs({ handle, logger, tasks, work = true, pollingIntervalSeconds = 2 }: StartJobsOptions): Promise<Jobs> {
  const boss =
    handle.kind === 'pglite'
      ? new PgBoss({ db: fromPglite(handle.pglite), backend: 'pglite', schedule: work, supervise: work, useListenNotify: work })
      : new PgBoss({ connectionString: handle.connectionString, max: 2, connectionTimeoutMillis: 10_000, schedule: work, supervise: work, useListenNotify: work })

  // A working process LISTENs, so a new sync job wakes it at once rather than at its next poll.
  boss.on('error', (error: Error) => logger.error({ err: error }, 'job queue error'))
  await boss.start()

  // A failed sync (throttling, a message to retry) is retried with backoff; decided mail is never redone.
  // A job whose worker died stops sending heartbeats: pg-boss's supervisor fails it after 30 s (checked
  // every minute) and it is retried by another worker; 15 minutes is the hard limit of one sync.
  const syncQueue = { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 15 * 60, heartbeatSeconds: 30, notify: true }
  await boss.createQueue(MAILBOX_SYNC_QUEUE, { policy: 'stately', ...syncQueue })
  // Queues created by an earlier version keep their options; bring them up to date.
  await boss.updateQueue(MAILBOX_SYNC_QUEUE, syncQueue)
  const scheduled: Array<[ScheduledJobName, () => Promise<Record<string, unknown>>]> = [
    [JOB_NAMES.sessionCleanup, async () => ({ ...(await cleanupExpiredSessions(handle.db)) })],
    [JOB_NAMES.pushRenewal, tasks.renewPush],
    [JOB_NAMES.mailboxSweep, tasks.sweep],
    [JOB_NAMES.heartbeatWatchdog, tasks.watchdog],
    [JOB_NAMES.dataRetention, async () => ({ ...(await purgeExpiredData(handle.db)) })],
  ]
  for (const [name] of scheduled) {
    await boss.createQueue(name, { policy: 'singleton', retryLimit: 2 })
  }
  // Stripe may be briefly unreachable: the re-read retries with backoff; one waiting per customer.
  await boss.createQueue(BILLING_SYNC_QUEUE, { policy: 'stately', retryLimit: 8, retryDelay: 5, retryBackoff: true })
  if (!work) return { boss, stop: () => boss.stop({ graceful: true, timeout: 10_000, close: true }) }

  for (const [name, task] of scheduled) {
    await boss.schedule(name, SCHEDULES[name].cron, {}, { tz: 'UTC' })
    await boss.work(name, { pollingIntervalSeconds }, async (jobs) => {
      for (const job of jobs) {
        ScheduledPayloadSchema.parse(job.data ?? {})
        const result = await recordJobRun(handle.db, name, task)
        logger.info({ job: name, ...result }, `${name} finished`)
      }
    })
  }

  const queue = mailboxJobs(async () => boss)
  const timers = new Set<NodeJS.Timeout>()
  const later: Later = (delayMs, run) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      run().catch((error: unknown) => logger.error({ err: error }, 'a follow-up sync could not be queued'))
    }, delayMs)
    timers.add(timer)
  }
  // Sixteen mailboxes at once per process (four workers taking up to four jobs each, so one NOTIFY
  // wakes four fetches rather than sixteen); one mailbox at a time (stately, keyed by mailbox). Each job
  // of a batch succeeds or fails on its own.
  // NOTIFY wakes a worker when a job is sent, not when a deferred one becomes due: the poll stays as
  // frequent as without NOTIFY rather than relaxing to pg-boss's 30 s default.
  const syncWorker = { pollingIntervalSeconds, notifyPollingIntervalSeconds: pollingIntervalSeconds, localConcurrency: 4, batchSize: 4, perJobResults: true } as const
  await boss.work(MAILBOX_SYNC_QUEUE, syncWorker, async (jobs) => {
    const settled = await Promise.allSettled(jobs.map((job) => runMailboxSyncJob(tasks.syncMailbox, queue, job.data, later)))
    return settled.map((result, i) =>
      result.status === 'fulfilled'
        ? { id: jobs[i]!.id, status: 'completed' as const }
        : { id: jobs[i]!.id, status: 'failed' as const, output: { message: result.reason instanceof Error ? result.reason.message : String(result.reason) } },
    )
  })

  await boss.work(BILLING_SYNC_QUEUE, { pollingIntervalSeconds }, async (jobs) => {
    for (const job of jobs) await tasks.syncBillingCustomer(BillingSyncPayloadSchema.parse(job.data).customerId)
  })

  return {
    boss,
    // graceful: let running jobs finish; the PGlite instance itself is closed by its owner.
    stop: async () => {
      for (const timer of timers) clearTimeout(timer)
      await boss.stop({ graceful: true, timeout: 10_000, close: true })
    },
  }
}
