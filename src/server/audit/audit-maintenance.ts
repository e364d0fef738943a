import { sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'

/**
 * The only two ways audit rows may change (issue 18): the seven-year retention purge deletes, the
 * admin's token redaction rewrites metadata. The database enforces it (trigger in
 * drizzle/0010_audit_immutable.sql): outside a transaction that named one of these, any UPDATE or
 * DELETE of audit_events raises.
 */
export type AuditMaintenanceKind = 'purge' | 'redaction'

/** The transaction-local setting the trigger reads. */
export const AUDIT_MAINTENANCE_SETTING = 'inbox_guard.audit_maintenance'

/**
 * Runs `fn` in a transaction that declares `kind` to the audit trigger. The setting is local to the
 * transaction (set_config's third argument): it ends with it, on commit or rollback, and never
 * leaks to the next user of the pooled connection. Use only `tx` inside `fn`.
 */
export async function withAuditMaintenance<T>(db: Database, kind: AuditMaintenanceKind, fn: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config(${AUDIT_MAINTENANCE_SETTING}, ${kind}, true)`)
    return fn(tx as unknown as Database)
  })
}
