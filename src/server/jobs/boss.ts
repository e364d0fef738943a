import { PgBoss, fromPglite } from 'pg-boss'
import { z } from 'zod'
import type { Database, DatabaseHandle } from '#server/db/client.ts'
import { cleanupExpiredSessions } from '#server/features/auth/session-cleanup.service.ts'
import { recordJobRun } from './job-runs.ts'
import { MAILBOX_SYNC_QUEUE, runMailboxSyncJob, type SyncReason } from './mailbox-sync.job.ts'

export interface JobsLogger {
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

/** Queue names double as job names in job_runs and the cron-health panel. */
export const JOB_NAMES = { sessionCleanup: 'session-cleanup' } as const

/** Hourly, at minute 0 UTC (SPEC 9 session cleanup). */
export const SESSION_CLEANUP_CRON = '0 * * * *'

/** Job payloads are validated (STYLE.md 13); the scheduled cleanup carries none it needs. */
const SessionCleanupPayloadSchema = z.object({}).passthrough()

/** The handler a worker runs; exported so tests and admin triggers call exactly what the queue calls. */
export async function runSessionCleanupJob(db: Database, payload: unknown) {
  SessionCleanupPayloadSchema.parse(payload ?? {})
  return recordJobRun(db, JOB_NAMES.sessionCleanup, async () => ({ ...(await cleanupExpiredSessions(db)) }))
}

export interface Jobs {
  boss: PgBoss
  stop(): Promise<void>
}

export interface StartJobsOptions {
  handle: DatabaseHandle
  logger: JobsLogger
  /** Runs one mailbox sync (the pipeline); the mailbox-sync worker calls it. */
  syncMailbox: (mailboxId: number, reason: SyncReason) => Promise<unknown>
  /** How often workers look for new jobs; tests shorten it. */
  pollingIntervalSeconds?: number
}

/**
 * Starts pg-boss on the same database as the app (DESIGN "Jobs and cron"): on PGlite through its
 * built-in adapter, on PostgreSQL with its own small pool so the web pool (max 3) is not starved.
 */
export async function startJobs({ handle, logger, syncMailbox, pollingIntervalSeconds = 2 }: StartJobsOptions): Promise<Jobs> {
  const boss =
    handle.kind === 'pglite'
      ? new PgBoss({ db: fromPglite(handle.pglite), backend: 'pglite' })
      : new PgBoss({ connectionString: handle.connectionString, max: 2, connectionTimeoutMillis: 10_000 })

  boss.on('error', (error: Error) => logger.error({ err: error }, 'job queue error'))
  await boss.start()

  await boss.createQueue(JOB_NAMES.sessionCleanup, { policy: 'singleton', retryLimit: 2 })
  await boss.schedule(JOB_NAMES.sessionCleanup, SESSION_CLEANUP_CRON, {}, { tz: 'UTC' })
  await boss.work(JOB_NAMES.sessionCleanup, { pollingIntervalSeconds }, async (jobs) => {
    for (const job of jobs) {
      const result = await runSessionCleanupJob(handle.db, job.data)
      logger.info({ job: JOB_NAMES.sessionCleanup, ...result }, 'session cleanup finished')
    }
  })

  // A failed sync (throttling, a message to retry) is retried with backoff; decided mail is never redone.
  await boss.createQueue(MAILBOX_SYNC_QUEUE, { policy: 'stately', retryLimit: 5, retryDelay: 5, retryBackoff: true })
  // Several mailboxes at once per process; one mailbox at a time (stately, keyed by mailbox).
  await boss.work(MAILBOX_SYNC_QUEUE, { pollingIntervalSeconds, localConcurrency: 4 }, async (jobs) => {
    for (const job of jobs) await runMailboxSyncJob(syncMailbox, job.data)
  })

  return {
    boss,
    // graceful: let a running cleanup finish; the PGlite instance itself is closed by its owner.
    stop: () => boss.stop({ graceful: true, timeout: 10_000, close: true }),
  }
}
