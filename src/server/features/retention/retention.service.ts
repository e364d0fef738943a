import { and, isNull, lt, notExists, sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core'
import { withAuditMaintenance } from '#server/audit/audit-maintenance.ts'
import { recordAuditEvent } from '#server/audit/audit-log.ts'
import type { Database } from '#server/db/client.ts'
import {
  auditEvents,
  billingAccounts,
  correspondenceCache,
  decisions,
  invoices,
  messageFailures,
  pushReceipts,
  stripeEvents,
  syncRuns,
} from '#server/db/schema.ts'

/**
 * Data retention (privacy policy "How long we keep data", SPEC 9; docs/decisions/016-data-retention.md).
 * Every table of src/server/db/schema.ts, by what it holds:
 *
 * | Table                  | Kind                                               | Kept                               | Column        |
 * | ---------------------- | -------------------------------------------------- | ---------------------------------- | ------------- |
 * | decisions              | (a) classification data, per message               | 45 days                            | decided_at    |
 * | message_failures       | (a) classification data, per message               | 45 days                            | updated_at    |
 * | correspondence_cache   | (a) classification data, per sender                | 45 days                            | checked_at    |
 * | push_receipts          | (b) mail metadata (notification ids)               | 90 days                            | received_at   |
 * | sync_runs              | (b) mail metadata (per mailbox sync runs)          | 90 days                            | started_at    |
 * | stripe_events          | webhook delivery dedupe, not a billing record      | 90 days                            | received_at   |
 * | invoices               | billing record                                     | 7 years                            | created_at    |
 * | billing_accounts       | billing record, once its user is gone              | 7 years after the last update      | updated_at    |
 * | audit_events           | (d) security audit log                             | 7 years                            | timestamp     |
 * | users, identities      | (c) the account                                    | while the account exists           |               |
 * | mailboxes              | (c) the connection the user made                   | while the account exists           |               |
 * | user_settings, domain_list_entries, sender_rules | (c) config the user controls | while the account exists        |               |
 * | usage_counts           | (c) backs the plan limit and billing               | while the account exists           |               |
 * | sessions, temp_tokens, oauth_states | sign-in material                      | session-cleanup job (90 days max)  |               |
 * | provider_health        | (c) one row per provider, no personal data         | kept                               |               |
 * | waitlist_entries       | (c) asked for by the person                        | kept                               |               |
 * | job_runs               | operations, no personal data                       | kept                               |               |
 * | rate_limit_windows     | request counters keyed by address or user id       | about a minute past its window     | expires_at    |
 *
 * A decision row carries both the classification (category, confidence, reasons) and the message's
 * metadata (sender, subject, dates, ids); it goes whole at 45 days, the shorter of the two promises.
 * Cursor recovery looks back at most 7 days (RECOVERY_WINDOW_MS), so a purged decision's message is
 * never listed, and decided, again.
 */

const DAY_MS = 24 * 60 * 60 * 1000
export const CLASSIFICATION_RETENTION_DAYS = 45
export const METADATA_RETENTION_DAYS = 90
/** Seven calendar years hold at most two leap days: 7 × 365 + 2 days never falls short of 7 years. */
export const SEVEN_YEARS_DAYS = 7 * 365 + 2
/** Rows per DELETE: each batch commits on its own, so a large backlog never holds a long lock. */
export const PURGE_BATCH_SIZE = 5_000

export interface RetentionResult {
  decisions: number
  messageFailures: number
  correspondenceCache: number
  pushReceipts: number
  syncRuns: number
  stripeEvents: number
  invoices: number
  billingAccounts: number
  auditEvents: number
}

export interface PurgeOptions {
  /** Tests shrink it to show the batches loop. */
  batchSize?: number
}

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS)

/**
 * Deletes the rows matching `due`, `batchSize` at a time, until a batch comes back short. No
 * transaction around the loop on purpose (unlike STYLE.md 12): a deleted batch is final, and a run
 * that stops half-way is finished by the next one. `due` is checked again on the outer DELETE, so a
 * row refreshed meanwhile (a correspondence re-checked, a failure retried) is left alone.
 */
async function deleteInBatches(
  db: Database,
  table: PgTable,
  keys: [AnyPgColumn, ...AnyPgColumn[]],
  due: SQL,
  batchSize: number,
  /** Runs each batch's DELETE; the audit purge runs it in an audit-maintenance transaction. */
  runBatch: <T>(fn: (db: Database) => Promise<T>) => Promise<T> = (fn) => fn(db),
): Promise<number> {
  const keyList = sql.join(keys, sql`, `)
  let total = 0
  for (;;) {
    const batch = sql`(${keyList}) in (select ${keyList} from ${table} where ${due} limit ${batchSize})`
    const deleted = await runBatch((tx) => tx.delete(table).where(and(batch, due)).returning({ key: keys[0] }))
    total += deleted.length
    if (deleted.length < batchSize) return total
  }
}

/**
 * Security audit rows past their seven years (privacy policy: "Security audit logs: 7 years"). Audit
 * rows are otherwise append-only (src/server/audit/audit-log.ts): this named function is the only
 * path that deletes them, each batch in an audit-maintenance transaction the database's trigger lets
 * through (drizzle/0010_audit_immutable.sql). A purge that removed rows leaves a SYSTEM audit event
 * saying how many, so the trail records its own thinning.
 */
export async function purgeAuditEventsPastRetention(db: Database, now: Date = new Date(), { batchSize = PURGE_BATCH_SIZE }: PurgeOptions = {}): Promise<number> {
  const cutoff = daysBefore(now, SEVEN_YEARS_DAYS)
  const deleted = await deleteInBatches(db, auditEvents, [auditEvents.id], lt(auditEvents.timestamp, cutoff), batchSize, (fn) =>
    withAuditMaintenance(db, 'purge', fn),
  )
  if (deleted > 0) {
    // SPEC 9 has no event type for maintenance: the SYSTEM category and the action name say what it was.
    await recordAuditEvent(db, {
      eventType: 'SETTINGS_CHANGED',
      eventCategory: 'SYSTEM',
      severity: 'INFO',
      action: 'AUDIT_EVENTS_PURGED',
      success: true,
      resourceType: 'audit_events',
      metadata: { rowsDeleted: deleted, olderThan: cutoff.toISOString() },
    })
  }
  return deleted
}

/**
 * Deletes everything past its retention period (table above). Safe to run twice: a second run finds
 * nothing more to delete (STYLE.md 13).
 */
export async function purgeExpiredData(db: Database, now: Date = new Date(), options: PurgeOptions = {}): Promise<RetentionResult> {
  const batchSize = options.batchSize ?? PURGE_BATCH_SIZE
  const classification = daysBefore(now, CLASSIFICATION_RETENTION_DAYS)
  const metadata = daysBefore(now, METADATA_RETENTION_DAYS)
  const sevenYears = daysBefore(now, SEVEN_YEARS_DAYS)
  const purge = (table: PgTable, keys: [AnyPgColumn, ...AnyPgColumn[]], due: SQL) => deleteInBatches(db, table, keys, due, batchSize)

  const invoiceOfAccount = db.select({ id: invoices.id }).from(invoices).where(sql`${invoices.stripeCustomerId} = ${billingAccounts.stripeCustomerId}`)
  return {
    decisions: await purge(decisions, [decisions.id], lt(decisions.decidedAt, classification)),
    messageFailures: await purge(messageFailures, [messageFailures.mailboxId, messageFailures.providerMessageId], lt(messageFailures.updatedAt, classification)),
    correspondenceCache: await purge(correspondenceCache, [correspondenceCache.mailboxId, correspondenceCache.subject], lt(correspondenceCache.checkedAt, classification)),
    pushReceipts: await purge(pushReceipts, [pushReceipts.id], lt(pushReceipts.receivedAt, metadata)),
    syncRuns: await purge(syncRuns, [syncRuns.id], lt(syncRuns.startedAt, metadata)),
    // Stripe retries a webhook for 3 days and a handled event only triggers a re-read of Stripe, so
    // the dedupe record need not be a 7-year billing record (docs/decisions/016).
    stripeEvents: await purge(stripeEvents, [stripeEvents.id], lt(stripeEvents.receivedAt, metadata)),
    invoices: await purge(invoices, [invoices.id], lt(invoices.createdAt, sevenYears)),
    // After the invoices (properties are evaluated in order): a customer stays while any invoice of it does.
    billingAccounts: await purge(
      billingAccounts,
      [billingAccounts.id],
      sql`${isNull(billingAccounts.userId)} and ${lt(billingAccounts.updatedAt, sevenYears)} and ${notExists(invoiceOfAccount)}`,
    ),
    auditEvents: await purgeAuditEventsPastRetention(db, now, { batchSize }),
  }
}
