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

/** What a sync can ask of the queue: to run again later (breaker open, the mailbox backing off, a follow-up). */
export type SyncJobOutcome = { kind: 'done' } | { kind: 'deferred'; until: Date; reason?: SyncReason }

/**
 * Safe to run twice (STYLE.md 13): the pipeline decides each message once, whatever runs it. A
 * deferred sync queues itself again for when it may run.
 */
export async function runMailboxSyncJob(sync: (mailboxId: number, reason: SyncReason) => Promise<SyncJobOutcome>, jobs: MailboxJobs, payload: unknown) {
  const { mailboxId, reason } = MailboxSyncPayloadSchema.parse(payload)
  const outcome = await sync(mailboxId, reason)
  if (outcome.kind === 'deferred') await jobs.enqueueSync(mailboxId, outcome.reason ?? reason, { startAfter: outcome.until })
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
