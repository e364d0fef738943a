import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { auditEvents } from '#server/db/schema.ts'
import { purgeAuditEventsPastRetention, SEVEN_YEARS_DAYS } from '#server/features/retention/retention.service.ts'
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '#server/test/databases.ts'
import { withAuditMaintenance } from './audit-maintenance.ts'

const DAY = 24 * 60 * 60 * 1000

/** The database's own message when a statement is refused (drizzle wraps it as the cause). */
async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run()
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause
    return cause?.message ?? (error as Error).message
  }
  return 'not refused'
}

describe.each(testDatabaseKinds())('audit rows are immutable outside the named maintenance paths (issue 18) on %s', (kind) => {
  let database: TestDatabase
  let id: number
  const db = () => database.handle.db
  const row = async () => (await db().select().from(auditEvents).where(eq(auditEvents.id, id)))[0]

  beforeAll(async () => {
    database = await createTestDatabase(kind)
  })
  afterAll(async () => {
    await database?.destroy()
  })
  beforeEach(async () => {
    await withAuditMaintenance(db(), 'purge', (tx) => tx.delete(auditEvents))
    const [inserted] = await db()
      .insert(auditEvents)
      .values({ eventType: 'LOGIN_SUCCESS', eventCategory: 'AUTHENTICATION', severity: 'INFO', userId: 7, action: 'establish_session', success: true, metadata: { token: 'ya29.secret' } })
      .returning({ id: auditEvents.id })
    id = inserted!.id
  })

  it('refuses a raw UPDATE and a raw DELETE, and the row stays as it was', async () => {
    const before = await row()
    expect(await refusal(() => db().execute(sql`update audit_events set action = 'tampered' where id = ${id}`))).toMatch(/append-only: UPDATE refused/)
    expect(await refusal(() => db().execute(sql`delete from audit_events where id = ${id}`))).toMatch(/append-only: DELETE refused/)
    expect(await refusal(() => db().update(auditEvents).set({ metadata: {} }).where(eq(auditEvents.id, id)))).toMatch(/append-only: UPDATE refused/)
    expect(await refusal(() => db().delete(auditEvents))).toMatch(/append-only: DELETE refused/)
    expect(await refusal(() => db().execute(sql`truncate audit_events`))).toMatch(/append-only: TRUNCATE refused/)
    expect(await row()).toEqual(before)
  })

  it('refuses the change inside a transaction that did not declare maintenance, or declared another value', async () => {
    expect(await refusal(() => db().transaction((tx) => tx.execute(sql`delete from audit_events where id = ${id}`)))).toMatch(/DELETE refused/)
    const bogus = () =>
      db().transaction(async (tx) => {
        await tx.execute(sql`select set_config('inbox_guard.audit_maintenance', 'anything', true)`)
        await tx.execute(sql`delete from audit_events where id = ${id}`)
      })
    expect(await refusal(bogus)).toMatch(/DELETE refused/)
    expect(await row()).toBeDefined()
  })

  it("lets a 'purge' transaction delete, but not update or truncate", async () => {
    expect(await refusal(() => withAuditMaintenance(db(), 'purge', (tx) => tx.update(auditEvents).set({ metadata: {} }).where(eq(auditEvents.id, id))))).toMatch(/UPDATE refused/)
    expect(await refusal(() => withAuditMaintenance(db(), 'purge', (tx) => tx.execute(sql`truncate audit_events`)))).toMatch(/TRUNCATE refused/)
    expect((await row())?.metadata).toEqual({ token: 'ya29.secret' })
    const deleted = await withAuditMaintenance(db(), 'purge', (tx) => tx.delete(auditEvents).where(eq(auditEvents.id, id)).returning({ id: auditEvents.id }))
    expect(deleted).toEqual([{ id }])
    expect(await row()).toBeUndefined()
  })

  it("lets a 'redaction' transaction rewrite metadata only, and not delete", async () => {
    expect(await refusal(() => withAuditMaintenance(db(), 'redaction', (tx) => tx.delete(auditEvents).where(eq(auditEvents.id, id))))).toMatch(/DELETE refused/)
    expect(await refusal(() => withAuditMaintenance(db(), 'redaction', (tx) => tx.update(auditEvents).set({ action: 'tampered', metadata: {} }).where(eq(auditEvents.id, id))))).toMatch(
      /may only change the metadata column/,
    )
    expect(await row()).toMatchObject({ action: 'establish_session', metadata: { token: 'ya29.secret' } })
    await withAuditMaintenance(db(), 'redaction', (tx) => tx.update(auditEvents).set({ metadata: { token: '[REDACTED]' } }).where(eq(auditEvents.id, id)))
    expect(await row()).toMatchObject({ action: 'establish_session', metadata: { token: '[REDACTED]' } })
  })

  it('ends the permission with the transaction, committed or rolled back', async () => {
    await withAuditMaintenance(db(), 'purge', async () => undefined)
    await expect(withAuditMaintenance(db(), 'purge', async () => Promise.reject(new Error('changed my mind')))).rejects.toThrow('changed my mind')
    // Every pooled connection (PostgreSQL has three) has just run a maintenance transaction or not; none keeps it.
    for (let i = 0; i < 4; i++) expect(await refusal(() => db().execute(sql`delete from audit_events where id = ${id}`))).toMatch(/DELETE refused/)
    const setting = await db().execute(sql`select coalesce(current_setting('inbox_guard.audit_maintenance', true), '') as value`)
    expect((setting as unknown as { rows: { value: string }[] }).rows[0]?.value).toBe('')
  })

  it('the retention purge deletes through the purge path and records one SYSTEM event with the count, only when it removed rows', async () => {
    const now = new Date()
    const old = new Date(now.getTime() - (SEVEN_YEARS_DAYS + 1) * DAY)
    await db()
      .insert(auditEvents)
      .values([1, 2, 3].map((n) => ({ eventType: 'LOGIN_SUCCESS', eventCategory: 'AUTHENTICATION', severity: 'INFO', action: `old-${n}`, success: true, timestamp: old })))
    expect(await purgeAuditEventsPastRetention(db(), now, { batchSize: 2 })).toBe(3)
    const purged = await db().select().from(auditEvents).where(eq(auditEvents.action, 'AUDIT_EVENTS_PURGED'))
    expect(purged).toEqual([expect.objectContaining({ eventCategory: 'SYSTEM', severity: 'INFO', success: true, userId: null, metadata: { rowsDeleted: 3, olderThan: expect.any(String) } })])
    expect(await purgeAuditEventsPastRetention(db(), now)).toBe(0)
    expect(await db().select().from(auditEvents).where(eq(auditEvents.action, 'AUDIT_EVENTS_PURGED'))).toHaveLength(1)
    expect(await row()).toBeDefined()
  })
})
