import type { PgBoss } from 'pg-boss'
import { z } from 'zod'

/**
 * One sync job per mailbox at a time, bursts coalesced (issue 12/13): the queue's `stately` policy keeps
 * at most one queued and one active job per singleton key (the mailbox id), so 100 notifications for
 * one mailbox give a handful of syncs. The job runs the pipeline (src/server/pipeline/sync-mailbox.ts).
 */
export const MAILBOX_SYNC_QUEUE = 'mailbox-sync'

export const SyncReasonSchema = z.enum(['push', 'lifecycle', 'connect', 'poll'])
export type SyncReason = z.infer<typeof SyncReasonSchema>

export const MailboxSyncPayloadSchema = z.object({ mailboxId: z.number().int().positive(), reason: SyncReasonSchema })

/** Safe to run twice (STYLE.md 13): the pipeline decides each message once, whatever runs it. */
export async function runMailboxSyncJob(sync: (mailboxId: number, reason: SyncReason) => Promise<unknown>, payload: unknown) {
  const { mailboxId, reason } = MailboxSyncPayloadSchema.parse(payload)
  return sync(mailboxId, reason)
}

/** What routes and services use to ask for a sync; the queue may still be starting (main.ts starts it after HTTP). */
export interface MailboxJobs {
  enqueueSync(mailboxId: number, reason: SyncReason): Promise<void>
}

export function mailboxJobs(boss: () => Promise<PgBoss>): MailboxJobs {
  return {
    async enqueueSync(mailboxId, reason) {
      const payload = MailboxSyncPayloadSchema.parse({ mailboxId, reason })
      await (await boss()).send(MAILBOX_SYNC_QUEUE, payload, { singletonKey: String(mailboxId) })
    },
  }
}
