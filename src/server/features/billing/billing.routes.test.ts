import { and, eq } from 'drizzle-orm'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildRawMessage } from '#fakes/gmail/rfc822.ts'
import { STRIPE_FAKE_WEBHOOK_SECRET } from '#fakes/stripe/server.ts'
import { decisions, mailboxes, stripeEvents, usageCounts } from '#server/db/schema.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { connectMailbox, createTestApp, signIn, type TestApp } from '#server/test/harness.ts'
import type { SubscriptionResponse } from '#shared/api/billing.ts'
import { monthlyAllowance, usageMonth } from './billing.service.ts'

const DAY = 24 * 3600_000

describe.each(testDatabaseKinds())('billing on the local Stripe (SPEC 3, 7; issue 16) on %s', (kind) => {
  let ctx: TestApp
  let sid: string
  let userId: number
  let otherSid: string
  let stripe: Stripe
  beforeAll(async () => {
    ctx = await createTestApp(kind, { stripe: true, mail: true })
    ;({ sid, user: { id: userId } } = await signIn(ctx, 'google', { email: 'billing@example.com' }))
    ;({ sid: otherSid } = await signIn(ctx, 'google', { email: 'other.billing@example.com' }))
    stripe = new Stripe(ctx.stripe!.apiKey, { ...ctx.stripe!.sdkOptions(), maxNetworkRetries: 0, telemetry: false })
  }, 60_000)
  afterAll(async () => {
    await ctx?.close()
  })

  const get = (cookie?: string) => ctx.app.inject({ method: 'GET', url: '/_api/billing/subscription', cookies: cookie ? { sid: cookie } : {} })
  const post = (url: string, payload: object, cookie?: string) =>
    ctx.app.inject({ method: 'POST', url, headers: { 'x-requested-with': 'XMLHttpRequest' }, cookies: cookie ? { sid: cookie } : {}, payload })
  const webhook = (body: string, signature: string) => ctx.app.inject({ method: 'POST', url: '/_api/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload: body })

  /** Polls the subscription call until it matches (webhooks and the re-read job run in the background). */
  async function until(cookie: string, check: (s: SubscriptionResponse) => boolean, timeoutMs = 15_000): Promise<SubscriptionResponse> {
    const end = Date.now() + timeoutMs
    for (;;) {
      const body = (await get(cookie)).json() as SubscriptionResponse
      if (check(body)) return body
      if (Date.now() > end) throw new Error(`subscription never matched: ${JSON.stringify(body)}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  it('refuses callers who are not signed in', async () => {
    expect((await get()).statusCode).toBe(401)
    expect((await post('/_api/billing/create-checkout', { planId: 'standard' })).statusCode).toBe(401)
    expect((await post('/_api/billing/portal', {})).statusCode).toBe(401)
  })

  it('answers the free plan, not a 404, with this month’s usage against its limit of 10; no portal on the free plan', async () => {
    const fresh = await get(sid)
    expect(fresh.statusCode).toBe(200)
    expect(fresh.json()).toEqual({
      subscription: { planId: 'free', planName: 'Free', status: 'active', emailLimit: 10, cancelAtPeriodEnd: false, currentPeriodEnd: null },
      usage: { emailsProcessed: 0, percentUsed: 0, emailsLeftAlone: 0 },
      invoice: null,
      planPrompt: { billingAvailable: true, freePlanChosen: false, dismissedThisMonth: false },
    })
    const now = new Date()
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15))
    await ctx.db.insert(usageCounts).values([
      { userId, month: usageMonth(now), emailsProcessed: 7 },
      { userId, month: usageMonth(lastMonth), emailsProcessed: 40 },
    ])
    expect((await get(sid)).json().usage).toEqual({ emailsProcessed: 7, percentUsed: 70, emailsLeftAlone: 0 })
    expect((await get(otherSid)).json().usage).toEqual({ emailsProcessed: 0, percentUsed: 0, emailsLeftAlone: 0 })
    const portal = await post('/_api/billing/portal', {}, sid)
    expect(portal.statusCode).toBe(400)
    expect(portal.json().error).toBe('You are on the free plan: there is no billing to manage.')
  })

  it('remembers "Continue with the free plan" per user; dismissed with the limit reached, the dialog stays shut for the month only', async () => {
    const { sid: chooserSid, user: chooser } = await signIn(ctx, 'google', { email: 'chooser@example.com' })
    expect((await post('/_api/billing/continue-free', {})).statusCode).toBe(401)
    const first = await post('/_api/billing/continue-free', {}, chooserSid)
    expect(first.statusCode).toBe(200)
    expect(first.json().planPrompt).toEqual({ billingAvailable: true, freePlanChosen: true, dismissedThisMonth: false })
    expect(((await get(chooserSid)).json() as SubscriptionResponse).planPrompt).toEqual({ billingAvailable: true, freePlanChosen: true, dismissedThisMonth: false })
    // Someone else's choice is theirs alone.
    expect(((await get(otherSid)).json() as SubscriptionResponse).planPrompt.freePlanChosen).toBe(false)

    // The limit reached: the client reopens the dialog; dismissing it again holds for this month.
    await ctx.db.insert(usageCounts).values({ userId: chooser.id, month: usageMonth(new Date()), emailsProcessed: 10, emailsLeftAlone: 2 })
    expect(((await get(chooserSid)).json() as SubscriptionResponse).planPrompt.dismissedThisMonth).toBe(false)
    expect((await post('/_api/billing/continue-free', {}, chooserSid)).json().planPrompt.dismissedThisMonth).toBe(true)
    expect(((await get(chooserSid)).json() as SubscriptionResponse).planPrompt).toEqual({ billingAvailable: true, freePlanChosen: true, dismissedThisMonth: true })
  })

  it('refuses the team plan and an unknown plan with a clear message', async () => {
    const team = await post('/_api/billing/create-checkout', { planId: 'team' }, sid)
    expect(team.statusCode).toBe(400)
    expect(team.json().error).toMatch(/Team plan is not available yet/)
    expect((await post('/_api/billing/create-checkout', { planId: 'gold' }, sid)).statusCode).toBe(400)
  })

  it('upgrades through Checkout: one customer, the same session when retried, then Standard, unlimited, with the paid invoice', async () => {
    const first = await post('/_api/billing/create-checkout', { planId: 'standard' }, sid)
    expect(first.statusCode).toBe(200)
    // The client retries a mutation once: the retry gets the same checkout, never a second one.
    const retried = await post('/_api/billing/create-checkout', { planId: 'standard' }, sid)
    expect(retried.json().url).toBe(first.json().url)
    expect(ctx.stripe!.state().customers).toHaveLength(1)
    const sessionId = /cs_test_[A-Za-z0-9]+/.exec(first.json().url as string)![0]

    // Paying with the test card on the hosted page.
    ctx.stripe!.completeCheckout(sessionId)
    const paid = await until(sid, (s) => s.subscription.planId === 'standard' && s.invoice !== null)
    expect(paid.subscription).toMatchObject({ planId: 'standard', planName: 'Standard', status: 'active', emailLimit: null, cancelAtPeriodEnd: false })
    expect(new Date(paid.subscription.currentPeriodEnd!).getTime()).toBeGreaterThan(Date.now() + 20 * DAY)
    expect(paid.usage).toEqual({ emailsProcessed: 7, percentUsed: 0, emailsLeftAlone: 0 })
    expect(paid.invoice).toMatchObject({ amountCents: 499, status: 'paid' })
    // Another user is still on the free plan; a second checkout is refused.
    expect((await get(otherSid)).json().subscription.planId).toBe('free')
    expect((await post('/_api/billing/create-checkout', { planId: 'standard' }, sid)).statusCode).toBe(400)
    const portal = await post('/_api/billing/portal', {}, sid)
    expect(portal.statusCode).toBe(200)
    expect(portal.json().url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
  })

  it('ends in Stripe’s state whatever order the events arrive in; a failed renewal shows Past Due', async () => {
    const [subscription] = (await stripe.subscriptions.list({ status: 'active' })).data
    ctx.stripe!.webhooks.hold()
    await stripe.subscriptions.update(subscription!.id, { cancel_at_period_end: true })
    await stripe.subscriptions.update(subscription!.id, { cancel_at_period_end: false })
    await stripe.subscriptions.update(subscription!.id, { cancel_at_period_end: true })
    ctx.stripe!.webhooks.release('reverse')
    await ctx.stripe!.webhooks.idle()
    const canceling = await until(sid, (s) => s.subscription.cancelAtPeriodEnd)
    expect(canceling.subscription).toMatchObject({ planId: 'standard', status: 'active', cancelAtPeriodEnd: true })

    await stripe.subscriptions.update(subscription!.id, { cancel_at_period_end: false })
    ctx.stripe!.failNextRenewal()
    ctx.stripe!.clock.advance(32 * DAY)
    const pastDue = await until(sid, (s) => s.subscription.status === 'past_due')
    expect(pastDue.subscription).toMatchObject({ planId: 'standard', status: 'past_due', emailLimit: null })
  })

  it('checks the signature on the raw body: a wrong secret, a stale timestamp or an altered body → 400 and nothing recorded; a redelivery has no second effect', async () => {
    const payload = JSON.stringify({ id: 'evt_test_signature_1', object: 'event', type: 'customer.updated', data: { object: { id: 'cus_unknown1', object: 'customer' } } })
    const before = await ctx.db.select().from(stripeEvents)
    const wrongSecret = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_not_ours' })
    const stale = stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_FAKE_WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 })
    const good = stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_FAKE_WEBHOOK_SECRET })
    for (const [body, signature] of [
      [payload, wrongSecret],
      [payload, stale],
      [payload.replace('customer.updated', 'customer.deleted'), good],
      [payload, ''],
    ] as const) {
      const res = await webhook(body, signature)
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toBe('The Stripe signature does not match this request.')
    }
    expect(await ctx.db.select().from(stripeEvents)).toHaveLength(before.length)
    expect((await webhook(payload, good)).json()).toEqual({ received: true, duplicate: false })
    expect((await webhook(payload, good)).json()).toEqual({ received: true, duplicate: true })
    expect(await ctx.db.select().from(stripeEvents).where(eq(stripeEvents.id, 'evt_test_signature_1'))).toHaveLength(1)
  })

  it('the free plan decides 10 messages a month; the 11th is left untouched in the inbox with the reason; an upgrade or a new month resumes', async () => {
    const { sid: limitedSid, user } = await signIn(ctx, 'google', { email: 'limited@example.com' })
    const address = 'limited.owner@example.com'
    await connectMailbox(ctx, limitedSid, 'gmail', address)
    const [mailbox] = await ctx.db.select().from(mailboxes).where(eq(mailboxes.userId, user.id))
    const note = (n: number) =>
      buildRawMessage({ from: `Anna Berg <anna.limit${n}@example.net>`, to: address, subject: `Note ${n}`, text: `Hello, here is note number ${n} about Saturday.` })
    const decidedIds = async () => (await ctx.db.select().from(decisions).where(eq(decisions.mailboxId, mailbox!.id))).map((d) => d.providerMessageId)
    const ids: string[] = []
    for (let n = 1; n <= 11; n++) ids.push(ctx.gmail!.deliver(address, note(n)).id)
    const usageOf = async () =>
      (await ctx.db.select().from(usageCounts).where(and(eq(usageCounts.userId, user.id), eq(usageCounts.month, usageMonth(new Date())))))[0]
    // The push-started syncs (one at a time per mailbox, as in production) do the work.
    for (let end = Date.now() + 20_000; ((await usageOf())?.emailsLeftAlone ?? 0) < 1 && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 100))
    const decided = await decidedIds()
    expect(decided).toHaveLength(10)
    expect(decided).toEqual(ids.slice(0, 10))
    // Untouched: still in the inbox, never labelled, and not decided later.
    const eleventh = ctx.gmail!.mailbox(address).messages.find((m) => m.id === ids[10])!
    expect(eleventh.labelIds).toContain('INBOX')
    const card = (await get(limitedSid)).json() as SubscriptionResponse
    expect(card.usage).toEqual({ emailsProcessed: 10, percentUsed: 100, emailsLeftAlone: 1 })
    // A new month starts with the full allowance again.
    const nextMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 2))
    expect(await monthlyAllowance(ctx.db, user.id, nextMonth)).toBe(10)

    // Upgrade: the next message is decided again; the one left alone stays left alone.
    const checkout = await post('/_api/billing/create-checkout', { planId: 'standard' }, limitedSid)
    ctx.stripe!.completeCheckout(/cs_test_[A-Za-z0-9]+/.exec(checkout.json().url as string)![0])
    await until(limitedSid, (s) => s.subscription.planId === 'standard')
    const twelfth = ctx.gmail!.deliver(address, note(12)).id
    for (let end = Date.now() + 20_000; !(await decidedIds()).includes(twelfth) && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await decidedIds()).toContain(twelfth)
    expect(await decidedIds()).not.toContain(ids[10])
    expect(((await get(limitedSid)).json() as SubscriptionResponse).usage).toMatchObject({ emailsProcessed: 11, emailsLeftAlone: 1 })
  })
})

describe('billing without Stripe configured (issue 16)', () => {
  let ctx: TestApp
  afterAll(async () => {
    await ctx?.close()
  })

  it('says plans cannot be bought here and shows no limit, since the pipeline enforces none', async () => {
    ctx = await createTestApp('pglite')
    const { sid } = await signIn(ctx, 'google', { email: 'nobilling@example.com' })
    const body = (await ctx.app.inject({ method: 'GET', url: '/_api/billing/subscription', cookies: { sid } })).json() as SubscriptionResponse
    expect(body.subscription).toMatchObject({ planId: 'free', emailLimit: null })
    expect(body.planPrompt.billingAvailable).toBe(false)
    const checkout = await ctx.app.inject({ method: 'POST', url: '/_api/billing/create-checkout', headers: { 'x-requested-with': 'XMLHttpRequest' }, cookies: { sid }, payload: { planId: 'standard' } })
    expect(checkout.statusCode).toBe(502)
    expect(checkout.json().error).toBe('Billing is not available right now.')
  }, 60_000)
})
