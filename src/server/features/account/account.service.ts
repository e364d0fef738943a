import { eq, or, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { mailboxes, users, waitlistEntries } from '#server/db/schema.ts'
import { recordAuditEvent } from '#server/audit/audit-log.ts'
import { sessionsChanged } from '#server/lib/session-cache.ts'
import type { BillingService } from '#server/features/billing/billing.service.ts'
import type { MailboxService } from '#server/features/mailboxes/mailboxes.service.ts'
import { MAILBOX_SYNC_QUEUE } from '#server/jobs/mailbox-sync.job.ts'
import { DELETE_CONFIRMATION_PHRASE, type DeleteAccountBody } from '#shared/api/account.ts'

export class AccountError extends Error {
  constructor(
    readonly status: 400 | 502,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

export interface AccountServiceDeps {
  db: Database
  mailboxes: Pick<MailboxService, 'disconnect'>
  billing: Pick<BillingService, 'closeForDeletion'>
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void }
}

export const ACCOUNT_DELETED_MESSAGE = 'Account deleted successfully. You will be logged out.'

/**
 * Onboarding and account deletion (SPEC 3, 5, 7; issue 17). Deletion runs its outside steps first
 * (Stripe, then the mail provider), then removes every row of the user in one transaction: a
 * failure before the transaction leaves the account whole, the transaction leaves it gone or not.
 */
export function createAccountService({ db, mailboxes: mailboxService, billing, log }: AccountServiceDeps) {
  async function completeOnboarding(userId: number): Promise<void> {
    await db.update(users).set({ hasCompletedOnboarding: true, updatedAt: new Date() }).where(eq(users.id, userId))
    // The session call reports hasCompletedOnboarding: cached sessions of this user must re-read it.
    await sessionsChanged(db, { userId })
  }

  async function deleteAccount(userId: number, body: DeleteAccountBody): Promise<{ message: string }> {
    const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1)
    if (!user) throw new AccountError(400, 'no_account', 'This account no longer exists.')
    if (body.confirmationEmail.trim().toLowerCase() !== user.email.toLowerCase()) {
      throw new AccountError(400, 'email_mismatch', 'The e-mail address does not match this account.')
    }
    if (body.confirmationPhrase.trim() !== DELETE_CONFIRMATION_PHRASE) {
      throw new AccountError(400, 'phrase_mismatch', `Type ${DELETE_CONFIRMATION_PHRASE} exactly to confirm.`)
    }

    // 1. No further charge: any subscription ends at Stripe now (throws, changing nothing, if Stripe is down).
    await billing.closeForDeletion(userId)

    // 2. Stop push and revoke the grant at the provider. Best effort: the tokens are deleted below
    //    either way, and a push subscription nobody renews lapses within days.
    const [mailbox] = await db.select({ id: mailboxes.id, provider: mailboxes.provider }).from(mailboxes).where(eq(mailboxes.userId, userId)).limit(1)
    if (mailbox) {
      await mailboxService.disconnect(userId, mailbox.provider).catch((error: unknown) => log.warn({ mailboxId: mailbox.id, err: error }, 'could not disconnect the mailbox before deletion'))
    }

    // 3. Every row of the user, at once. Tables that belong to the user cascade from users; billing
    //    records keep their rows with the user id cleared (ON DELETE SET NULL); waitlist entries are
    //    matched by address too, since a signed-out visitor could not have made one for this user.
    await db.transaction(async (tx) => {
      if (mailbox) {
        const result = await tx.execute(sql`select to_regclass('pgboss.job') is not null as present`)
        const [queue] = (result as unknown as { rows: { present: boolean }[] }).rows
        if (queue?.present) {
          // Queued syncs of this mailbox (a running one finds the mailbox gone and ends).
          await tx.execute(sql`delete from pgboss.job where name = ${MAILBOX_SYNC_QUEUE} and singleton_key = ${String(mailbox.id)} and state <> 'active'`)
        }
      }
      await tx.delete(waitlistEntries).where(or(eq(waitlistEntries.userId, userId), sql`lower(${waitlistEntries.email}) = lower(${user.email})`))
      await tx.delete(users).where(eq(users.id, userId))
      // The audit trail keeps that the account was deleted, by id only.
      await recordAuditEvent(tx as unknown as Database, {
        eventType: 'USER_DELETED',
        eventCategory: 'USER_MANAGEMENT',
        severity: 'INFO',
        userId,
        action: 'ACCOUNT_DELETED',
        success: true,
      })
    })
    // Its sessions went with the user (ON DELETE CASCADE); no process may serve them from its cache.
    await sessionsChanged(db, { userId })
    log.info({ userId }, 'account deleted')
    return { message: ACCOUNT_DELETED_MESSAGE }
  }

  return { completeOnboarding, deleteAccount }
}

export type AccountService = ReturnType<typeof createAccountService>
