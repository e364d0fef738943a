import { eq, sql } from 'drizzle-orm'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildRawMessage } from '#fakes/gmail/rfc822.ts'
import { auditEvents, billingAccounts, decisions, invoices, mailboxes, users, waitlistEntries } from '#server/db/schema.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { connectMailbox, createTestApp, signIn, type TestApp } from '#server/test/harness.ts'

/** Tables allowed to keep rows about a deleted user (seven-year records), and only with the user id or none. */
const KEPT_RECORDS = new Set(['audit_events', 'billing_accounts', 'invoices', 'stripe_events'])

describe.each(testDatabaseKinds())('onboarding and account deletion (SPEC 3, 5, 7; issue 17) on %s', (kind) => {
  let ctx: TestApp
  let stripe: Stripe
  beforeAll(async () => {
    ctx = await createTestApp(kind, { stripe: true, mail: true })
    stripe = new Stripe(ctx.stripe!.apiKey, { ...ctx.stripe!.sdkOptions(), maxNetworkRetries: 0, telemetry: false })
  }, 60_000)
  afterAll(async () => {
    await ctx?.close()
  })

  const post = (url: string, payload: object, sid?: string) =>
    ctx.app.inject({ method: 'POST', url, headers: { 'x-requested-with': 'XMLHttpRequest' }, cookies: sid ? { sid } : {}, payload })
  const session = async (sid: string) => (await ctx.app.inject({ method: 'GET', url: '/_api/auth/session', cookies: { sid } })).json().user as { hasCompletedOnboarding: boolean } | null
  const deletion = (email: string, phrase = 'DELETE MY ACCOUNT') => ({ confirmationEmail: email, confirmationPhrase: phrase })

  /** Every row of every public table as text, to look for the user's id and address anywhere. */
  async function rowsMentioning(userId: number, email: string) {
    const tables = (await ctx.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`)) as unknown as { rows: { table_name: string }[] }
    const found: string[] = []
    for (const { table_name: table } of tables.rows) {
      if (table.startsWith('__drizzle')) continue
      const result = (await ctx.db.execute(sql.raw(`select * from "${table}"`))) as unknown as { rows: Record<string, unknown>[] }
      for (const row of result.rows) {
        const text = JSON.stringify(row).toLowerCase()
        const holdsId = Object.entries(row).some(([column, value]) => /(^|_)user_?id$/i.test(column) && Number(value) === userId)
        if (text.includes(email.toLowerCase()) || (holdsId && !KEPT_RECORDS.has(table))) found.push(`${table}: ${JSON.stringify(row).slice(0, 200)}`)
      }
    }
    return found
  }

  it('completes onboarding for the caller only; signed out → 401', async () => {
    const { sid } = await signIn(ctx, 'google', { email: 'onboarding@example.com' })
    const { sid: otherSid } = await signIn(ctx, 'google', { email: 'onboarding.other@example.com' })
    expect((await session(sid))?.hasCompletedOnboarding).toBe(false)
    expect((await post('/_api/onboarding/complete', {})).statusCode).toBe(401)
    const done = await post('/_api/onboarding/complete', {}, sid)
    expect(done.statusCode).toBe(200)
    expect(done.json()).toEqual({ success: true })
    expect((await session(sid))?.hasCompletedOnboarding).toBe(true)
    expect((await session(otherSid))?.hasCompletedOnboarding).toBe(false)
  })

  it.each([
    [{ confirmationEmail: 'not-an-address', confirmationPhrase: 'DELETE MY ACCOUNT' }, 'Please enter a valid email address.'],
    [{ confirmationEmail: 'keeper@example.com', confirmationPhrase: '' }, 'Confirmation phrase is required.'],
    [{ confirmationEmail: 'someone.else@example.com', confirmationPhrase: 'DELETE MY ACCOUNT' }, 'The e-mail address does not match this account.'],
    [{ confirmationEmail: 'keeper@example.com', confirmationPhrase: 'delete my account' }, 'Type DELETE MY ACCOUNT exactly to confirm.'],
  ])('refuses %j with 400 "%s" and deletes nothing', async (payload, message) => {
    const { sid } = await signIn(ctx, 'google', { email: 'keeper@example.com' })
    const res = await post('/_api/account/delete', payload, sid)
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toBe(message)
    expect(await session(sid)).not.toBeNull()
  })

  it('signed out → 401', async () => {
    expect((await post('/_api/account/delete', deletion('keeper@example.com'))).statusCode).toBe(401)
  })

  it('when Stripe cannot be reached: 502, and the account is whole', async () => {
    const { sid } = await signIn(ctx, 'google', { email: 'stripe.down@example.com' })
    const checkout = await post('/_api/billing/create-checkout', { planId: 'standard' }, sid)
    expect(checkout.statusCode).toBe(200)
    ctx.stripe!.injectFault({ endpoint: 'subscriptions.list', status: 500, times: 5 })
    const res = await post('/_api/account/delete', deletion('stripe.down@example.com'), sid)
    expect(res.statusCode).toBe(502)
    expect(res.json().error).toMatch(/nothing was deleted/)
    expect(await session(sid)).not.toBeNull()
  })

  it('deletes everything of the user, cancels the subscription and revokes the grant; billing and audit keep records by id only', async () => {
    const email = 'leaving@example.com'
    const { sid, user } = await signIn(ctx, 'google', { email })
    const { sid: secondSid } = await signIn(ctx, 'google', { email })
    const { sid: neighbourSid, user: neighbour } = await signIn(ctx, 'google', { email: 'staying@example.com' })
    // A paid plan, a mailbox with decided mail, lists, settings, a waitlist entry.
    const checkout = await post('/_api/billing/create-checkout', { planId: 'standard' }, sid)
    ctx.stripe!.completeCheckout(/cs_test_[A-Za-z0-9]+/.exec(checkout.json().url as string)![0])
    for (let end = Date.now() + 15_000; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 100))) {
      const [account] = await ctx.db.select().from(billingAccounts).where(eq(billingAccounts.userId, user.id))
      if (account?.status === 'active') break
    }
    await connectMailbox(ctx, sid, 'gmail', email)
    const [mailbox] = await ctx.db.select().from(mailboxes).where(eq(mailboxes.userId, user.id))
    ctx.gmail!.deliver(email, buildRawMessage({ from: 'Anna Berg <anna@example.net>', to: email, subject: 'Saturday', text: 'Shall we meet on Saturday?' }))
    for (let end = Date.now() + 15_000; (await ctx.db.select().from(decisions).where(eq(decisions.mailboxId, mailbox!.id))).length === 0 && Date.now() < end; )
      await new Promise((resolve) => setTimeout(resolve, 100))
    expect((await post('/_api/whitelist', { domain: 'friends.example' }, sid)).statusCode).toBe(200)
    expect((await post('/_api/settings', { allowPromotional: false }, sid)).statusCode).toBe(200)
    expect((await post('/_api/team/waitlist', { name: 'Leaving', email }, sid)).statusCode).toBe(200)
    expect((await post('/_api/whitelist', { domain: 'neighbours.example' }, neighbourSid)).statusCode).toBe(200)
    expect(await rowsMentioning(user.id, email)).not.toEqual([])
    ctx.fakes.clearJournal()

    const res = await post('/_api/account/delete', deletion(`  ${email.toUpperCase()} `), sid)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ message: 'Account deleted successfully. You will be logged out.' })
    expect(res.headers['set-cookie']).toMatch(/sid=;/)

    // Signed out everywhere; a second request is a clean 401.
    expect(await session(sid)).toBeNull()
    expect(await session(secondSid)).toBeNull()
    expect((await post('/_api/account/delete', deletion(email), sid)).statusCode).toBe(401)
    // No further charge; the grant revoked; push stopped.
    const { data: subscriptions } = await stripe.subscriptions.list({ status: 'all', limit: 100 })
    const customerId = (await ctx.db.select().from(billingAccounts).where(eq(billingAccounts.stripeCustomerId, subscriptions.find((s) => s.status === 'canceled')?.customer as string)))[0]?.stripeCustomerId
    expect(customerId).toBeDefined()
    expect(subscriptions.filter((s) => s.customer === customerId).every((s) => s.status === 'canceled')).toBe(true)
    const customer = await stripe.customers.retrieve(customerId!)
    expect(!customer.deleted && customer.email).toBeFalsy()
    expect(ctx.fakes.journal.some((entry) => entry.endpoint === 'revoke' && entry.status === 200)).toBe(true)
    expect(ctx.gmail!.mailbox(email).watch).toBeUndefined()

    // Nothing outside billing and audit holds the id or the address; those keep the id only.
    expect(await rowsMentioning(user.id, email)).toEqual([])
    expect(await ctx.db.select().from(users).where(eq(users.id, user.id))).toEqual([])
    expect((await ctx.db.select().from(billingAccounts).where(eq(billingAccounts.stripeCustomerId, customerId!)))[0]).toMatchObject({ userId: null, status: 'canceled' })
    expect((await ctx.db.select().from(invoices).where(eq(invoices.stripeCustomerId, customerId!))).length).toBeGreaterThan(0)
    expect(await ctx.db.select().from(waitlistEntries).where(eq(waitlistEntries.email, email))).toEqual([])
    const deleted = await ctx.db.select().from(auditEvents).where(eq(auditEvents.eventType, 'USER_DELETED'))
    expect(deleted).toEqual([expect.objectContaining({ userId: user.id, action: 'ACCOUNT_DELETED', ipAddress: null, userAgent: null, metadata: {} })])

    // The neighbour is untouched; signing in again with the address makes a fresh account.
    expect(await session(neighbourSid)).not.toBeNull()
    expect((await ctx.app.inject({ method: 'GET', url: '/_api/whitelist', cookies: { sid: neighbourSid } })).json()).toEqual([expect.objectContaining({ domain: 'neighbours.example' })])
    expect(neighbour.id).not.toBe(user.id)
    const again = await signIn(ctx, 'google', { email })
    expect(again.user.id).not.toBe(user.id)
    expect(again.user.hasCompletedOnboarding).toBe(false)
  }, 60_000)
})
