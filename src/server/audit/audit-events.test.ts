import { and, asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditEvents } from '#server/db/schema.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { connectMailbox, createTestApp, signIn, type TestApp } from '#server/test/harness.ts'

const EVENT_TYPES = ['LOGIN_SUCCESS', 'LOGIN_FAILURE', 'USER_CREATED', 'USER_UPDATED', 'USER_DELETED', 'DATA_FETCHED', 'SETTINGS_CHANGED']
const CATEGORIES = ['AUTHENTICATION', 'USER_MANAGEMENT', 'DATA_ACCESS', 'SYSTEM']

describe.each(testDatabaseKinds())('audit events for what changes an account (SPEC 9 "Audit log"; issue 17) on %s', (kind) => {
  let ctx: TestApp
  beforeAll(async () => {
    ctx = await createTestApp(kind, { stripe: true, mail: true })
  }, 60_000)
  afterAll(async () => {
    await ctx?.close()
  })

  it('records settings, lists, onboarding, mailbox connect and disconnect, and plan changes, with the action, IP and user agent', async () => {
    const { sid, user } = await signIn(ctx, 'google', { email: 'audited@example.com' })
    const post = (url: string, payload: object) =>
      ctx.app.inject({ method: 'POST', url, headers: { 'x-requested-with': 'XMLHttpRequest', 'user-agent': 'AuditTest/1.0' }, remoteAddress: '203.0.113.7', cookies: { sid }, payload })
    expect((await post('/_api/settings', { allowPromotional: false, confidenceThreshold: 0.8 })).statusCode).toBe(200)
    expect((await post('/_api/whitelist', { domain: 'friends.example' })).statusCode).toBe(200)
    expect((await post('/_api/whitelist/domain', { domain: 'friends.example' })).statusCode).toBe(200)
    expect((await post('/_api/blacklist', { domain: 'spam.example' })).statusCode).toBe(200)
    expect((await post('/_api/onboarding/complete', {})).statusCode).toBe(200)
    await connectMailbox(ctx, sid, 'gmail', 'audited@example.com')
    expect((await post('/_api/gmail/disconnect', { confirmDisconnection: true })).statusCode).toBe(200)
    const checkout = await post('/_api/billing/create-checkout', { planId: 'standard' })
    ctx.stripe!.completeCheckout(/cs_test_[A-Za-z0-9]+/.exec(checkout.json().url as string)![0])

    const rowsOf = () => ctx.db.select().from(auditEvents).where(eq(auditEvents.userId, user.id)).orderBy(asc(auditEvents.id))
    for (let end = Date.now() + 15_000; !(await rowsOf()).some((r) => r.action === 'PLAN_CHANGED') && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 100))
    const rows = await rowsOf()
    const actions = rows.map((r) => r.action)
    for (const action of ['SETTINGS_UPDATED', 'WHITELIST_DOMAIN_ADDED', 'WHITELIST_DOMAIN_REMOVED', 'BLACKLIST_DOMAIN_ADDED', 'ONBOARDING_COMPLETED', 'MAILBOX_CONNECTED', 'MAILBOX_DISCONNECTED', 'PLAN_CHANGED']) {
      expect(actions).toContain(action)
    }
    // The filter lists only SPEC 9's types and categories.
    for (const row of rows) {
      expect(EVENT_TYPES).toContain(row.eventType)
      expect(CATEGORIES).toContain(row.eventCategory)
    }
    const settings = rows.find((r) => r.action === 'SETTINGS_UPDATED')!
    expect(settings).toMatchObject({ eventType: 'SETTINGS_CHANGED', ipAddress: '203.0.113.7', userAgent: 'AuditTest/1.0', success: true, metadata: { fields: ['allowPromotional', 'confidenceThreshold'] } })
    expect(settings.sessionId).toBeTruthy()
    expect(rows.find((r) => r.action === 'MAILBOX_DISCONNECTED')).toMatchObject({ ipAddress: '203.0.113.7', metadata: { provider: 'gmail' } })
    expect(rows.find((r) => r.action === 'PLAN_CHANGED')).toMatchObject({ eventType: 'USER_UPDATED', metadata: { to: { planId: 'standard', status: 'active' } } })
    // Another user's changes are theirs.
    expect(await ctx.db.select().from(auditEvents).where(and(eq(auditEvents.userId, user.id + 1000)))).toEqual([])
  }, 60_000)
})
