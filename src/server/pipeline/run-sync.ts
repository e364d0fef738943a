import { hostname } from 'node:os'
import { eq } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { mailboxes, syncRuns, type MailboxRow } from '#server/db/schema.ts'
import type { CircuitBreakers } from '#server/integrations/circuit-breaker.ts'
import { MailProviderError } from '#server/integrations/mail/mail-provider.ts'
import type { SyncReason } from '#server/jobs/mailbox-sync.job.ts'
import type { MailboxLock } from './mailbox-lock.ts'
import type { SyncResult } from './sync-mailbox.ts'

/** A mailbox throttled by its provider (429 after the adapter's retries) waits this long: it alone. */
export const MAILBOX_BACKOFF_MS = 60_000

/** A sync that finds its mailbox being synced elsewhere runs again this much later. */
export const MAILBOX_BUSY_RETRY_MS = 5_000

/** This process, in sync_runs. */
export const WORKER_NAME = `${hostname()}:${process.pid}`

export type SyncOutcome = { kind: 'done'; result: SyncResult } | { kind: 'deferred'; until: Date; why: 'breaker_open' | 'mailbox_backoff' | 'mailbox_busy' }

const isSystemic = (error: unknown) => error instanceof MailProviderError && (error.status >= 500 || error.status === 0)
const isThrottled = (error: unknown) => error instanceof MailProviderError && error.status === 429

/**
 * One sync as the worker runs it (issue 14): while the provider's circuit breaker is open, or this
 * mailbox is in its own 429 back-off, the sync is deferred (the job re-queues itself for later: delayed,
 * not failed, nothing lost). Failures that affect everyone feed the breaker; one mailbox's throttling
 * backs off that mailbox alone. A mailbox being synced elsewhere (its lock is held: a job pg-boss handed
 * on from a frozen worker) is deferred too. Each run is recorded in sync_runs.
 */
export async function runSync(
  deps: { db: Database; breakers: CircuitBreakers; sync: (mailboxId: number, reason: SyncReason) => Promise<SyncResult>; lock?: MailboxLock; now?: () => Date },
  mailboxId: number,
  reason: SyncReason,
): Promise<SyncOutcome> {
  const { db, breakers } = deps
  const now = deps.now ?? (() => new Date())
  const [row] = await db
    .select({ provider: mailboxes.provider, syncBackoffUntil: mailboxes.syncBackoffUntil })
    .from(mailboxes)
    .where(eq(mailboxes.id, mailboxId))
    .limit(1)
  if (!row) return { kind: 'done', result: { mailboxId, reason, decided: 0, filed: 0, skipped: 0, retrying: 0, recovered: false } }
  if (row.syncBackoffUntil && row.syncBackoffUntil > now()) return { kind: 'deferred', until: row.syncBackoffUntil, why: 'mailbox_backoff' }
  const breaker = await breakers.state(row.provider)
  if (breaker.open) return { kind: 'deferred', until: breaker.until, why: 'breaker_open' }

  // One sync per mailbox at a time, also across processes (mailbox-lock.ts).
  const release = deps.lock ? await deps.lock.tryAcquire(mailboxId) : async () => {}
  if (!release) return { kind: 'deferred', until: new Date(now().getTime() + MAILBOX_BUSY_RETRY_MS), why: 'mailbox_busy' }
  try {
    return await syncRecorded(deps, row.provider, mailboxId, reason)
  } finally {
    await release()
  }
}

/** The sync itself, recorded in sync_runs; failures feed the breaker or back the mailbox off. */
async function syncRecorded(
  deps: { db: Database; breakers: CircuitBreakers; sync: (mailboxId: number, reason: SyncReason) => Promise<SyncResult>; now?: () => Date },
  provider: MailboxRow['provider'],
  mailboxId: number,
  reason: SyncReason,
): Promise<SyncOutcome> {
  const { db, breakers } = deps
  const now = deps.now ?? (() => new Date())
  const [run] = await db.insert(syncRuns).values({ mailboxId, worker: WORKER_NAME, reason, startedAt: now() }).returning({ id: syncRuns.id })
  const finish = (outcome: string, decided = 0) => db.update(syncRuns).set({ finishedAt: now(), outcome, decided }).where(eq(syncRuns.id, run!.id))
  try {
    const result = await deps.sync(mailboxId, reason)
    await breakers.success(provider)
    await finish('ok', result.decided)
    return { kind: 'done', result }
  } catch (error) {
    if (isThrottled(error)) {
      const until = new Date(now().getTime() + MAILBOX_BACKOFF_MS)
      await db.update(mailboxes).set({ syncBackoffUntil: until }).where(eq(mailboxes.id, mailboxId))
      await finish('throttled')
      return { kind: 'deferred', until, why: 'mailbox_backoff' }
    }
    if (isSystemic(error)) {
      const state = await breakers.failure(provider)
      await finish('provider_error')
      if (state.open) return { kind: 'deferred', until: state.until, why: 'breaker_open' }
      throw error
    }
    await finish(error instanceof Error ? error.name : 'error')
    throw error
  }
}
