import type { PgBoss } from 'pg-boss'
import { z } from 'zod'

/**
 * One sync job per mailbox at a time, bursts coalesced (issue 12/13): the queue's `stately` policy keeps
 * at most one queued and one active job per singleton key (the mailbox id), so 100 notifications for
 * one mailbox give a handful of syncs. The job runs the pipeline (src/server/pipeline/sync-mailbox.ts).
 */
export const MAILBOX_SYNC_QUEUE = 'mailbox-sync'

export const SyncReasonSchema = z.enum(['push', 'lifecycle', 'connect', 'poll', 'followup'])
export type SyncReason = z.infer<typeof SyncReasonSchema>

export const MailboxSyncPayloadSchema = z.object({ mailboxId: z.number().int().positive(), reason: SyncReasonSchema })

/**
 * What a sync can ask of the queue: to run again later because it may not run now (breaker open, the
 * mailbox backing off), or to look once more shortly after it finished (a follow-up).
 */
export type SyncJobOutcome = { kind: 'done'; followUpAfterMs?: number } | { kind: 'deferred'; until: Date }

/** Runs a callback after a delay in this process; the job runner cancels what is left when it stops. */
export type Later = (delayMs: number, run: () => Promise<void>) => void

/**
 * Safe to run twice (STYLE.md 13): the pipeline decides each message once, whatever runs it. A
 * deferred sync queues itself again for when it may run. A follow-up is a plain timer that then queues
 * an ordinary sync: a delayed job in the queue would hold the mailbox's one queued place and make a
 * push that arrives meanwhile wait for it. Lost with its process, a follow-up is made good by the sweep.
 */
export async function runMailboxSyncJob(sync: (mailboxId: number, reason: SyncReason) => Promise<SyncJobOutcome>, jobs: MailboxJobs, payload: unknown, later: Later) {
  const { mailboxId, reason } = MailboxSyncPayloadSchema.parse(payload)
  const outcome = await sync(mailboxId, reason)
  if (outcome.kind === 'deferred') await jobs.enqueueSync(mailboxId, reason, { startAfter: outcome.until })
  else if (outcome.followUpAfterMs !== undefined) later(outcome.followUpAfterMs, () => jobs.enqueueSync(mailboxId, 'followup'))
  return outcome
}

/** What routes and services use to ask for a sync; the queue may still be starting (main.ts starts it after HTTP). */
export interface MailboxJobs {
  enqueueSync(mailboxId: number, reason: SyncReason, options?: { startAfter?: Date }): Promise<void>
}

export function mailboxJobs(boss: () => Promise<PgBoss>): MailboxJobs {
  return {
    async enqueueSync(mailboxId, reason, options = {}) {
      const payload = MailboxSyncPayloadSchema.parse({ mailboxId, reason })
      await (await boss()).send(MAILBOX_SYNC_QUEUE, payload, { singletonKey: String(mailboxId), ...(options.startAfter ? { startAfter: options.startAfter } : {}) })
    },
  }
}
