import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { usageCounts } from '#server/db/schema.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { createTestApp, signIn, type TestApp } from '#server/test/harness.ts'
import { usageMonth } from './billing.service.ts'

describe.each(testDatabaseKinds())('GET /_api/billing/subscription (SPEC 3, 7) on %s', (kind) => {
  let ctx: TestApp
  let sid: string
  let userId: number
  let otherSid: string
  beforeAll(async () => {
    ctx = await createTestApp(kind)
    ;({ sid, user: { id: userId } } = await signIn(ctx, 'google', { email: 'billing@example.com' }))
    ;({ sid: otherSid } = await signIn(ctx, 'google', { email: 'other.billing@example.com' }))
  })
  afterAll(async () => {
    await ctx?.close()
  })

  const get = (cookie?: string) => ctx.app.inject({ method: 'GET', url: '/_api/billing/subscription', cookies: cookie ? { sid: cookie } : {} })

  it('refuses a caller who is not signed in', async () => {
    expect((await get()).statusCode).toBe(401)
  })

  it('answers the free plan, not a 404, with this month’s usage against its limit of 10', async () => {
    const fresh = await get(sid)
    expect(fresh.statusCode).toBe(200)
    expect(fresh.json()).toEqual({
      subscription: { planId: 'free', planName: 'Free', status: 'active', emailLimit: 10, cancelAtPeriodEnd: false, currentPeriodEnd: null },
      usage: { emailsProcessed: 0, percentUsed: 0 },
      invoice: null,
    })
    // What the pipeline counted: this month for this user; last month and other users do not count.
    const now = new Date()
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15))
    await ctx.db.insert(usageCounts).values([
      { userId, month: usageMonth(now), emailsProcessed: 7 },
      { userId, month: usageMonth(lastMonth), emailsProcessed: 40 },
    ])
    expect((await get(sid)).json().usage).toEqual({ emailsProcessed: 7, percentUsed: 70 })
    expect((await get(otherSid)).json().usage).toEqual({ emailsProcessed: 0, percentUsed: 0 })
  })
})
