import { and, desc, eq, sql } from 'drizzle-orm'
import Stripe from 'stripe'
import { recordAuditEvent } from '#server/audit/audit-log.ts'
import type { Config } from '#server/config.ts'
import type { Database } from '#server/db/client.ts'
import { billingAccounts, invoices, stripeEvents, usageCounts, users } from '#server/db/schema.ts'
import type { SubscriptionResponse } from '#shared/api/billing.ts'
import { PLANS } from '#shared/plans.ts'

/** The UTC calendar month usage is counted in (the pipeline counts one per decided message). */
export const usageMonth = (at: Date) => at.toISOString().slice(0, 7)

/** A checkout retried within this window (the client retries mutations once) gets the same session. */
export const CHECKOUT_REUSE_MS = 10 * 60_000

/** Subscription states that give the paid plan (past_due keeps it while Stripe retries the payment). */
const PAID_STATES = new Set(['active', 'trialing', 'past_due'])

/** The free plan's decided messages per UTC month (SPEC 9 "Plans"). */
export const FREE_PLAN_LIMIT = PLANS.find((p) => p.id === 'free')!.emailLimit ?? 0

/** A past_due subscription keeps filtering this long, then pauses like the free limit (issue 16). */
export const PAST_DUE_GRACE_MS = 7 * 24 * 3600_000

type AccountRow = typeof billingAccounts.$inferSelect

/** Whether the account filters without a monthly limit right now: a paid plan, past_due within its grace. */
function unlimitedNow(account: AccountRow | undefined, now: Date): boolean {
  if (!account || account.planId !== 'standard') return false
  if (account.status === 'active' || account.status === 'trialing') return true
  return account.status === 'past_due' && (!account.pastDueSince || now.getTime() - account.pastDueSince.getTime() < PAST_DUE_GRACE_MS)
}

/**
 * How many more new messages the pipeline may decide for this user this UTC month: Infinity on a
 * paid plan, else the free plan's limit less what was counted. Read once per sync.
 */
export async function monthlyAllowance(db: Database, userId: number, now: Date = new Date()): Promise<number> {
  const [[account], [usage]] = await Promise.all([
    db.select().from(billingAccounts).where(eq(billingAccounts.userId, userId)).limit(1),
    db.select({ n: usageCounts.emailsProcessed }).from(usageCounts).where(and(eq(usageCounts.userId, userId), eq(usageCounts.month, usageMonth(now)))),
  ])
  if (unlimitedNow(account, now)) return Number.POSITIVE_INFINITY
  return Math.max(0, FREE_PLAN_LIMIT - (usage?.n ?? 0))
}

/** Counts new messages left untouched because the limit was reached (shown on the Billing & Usage card). */
export async function countLeftAlone(db: Database, userId: number, count: number, now: Date = new Date()) {
  if (count <= 0) return
  await db
    .insert(usageCounts)
    .values({ userId, month: usageMonth(now), emailsProcessed: 0, emailsLeftAlone: count })
    .onConflictDoUpdate({ target: [usageCounts.userId, usageCounts.month], set: { emailsLeftAlone: sql`${usageCounts.emailsLeftAlone} + ${count}` } })
}

export class BillingError extends Error {
  constructor(
    readonly status: 400 | 502,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

/** The stripe SDK for the configured account: Stripe itself, or another origin (the local fake). */
export function createStripeClient(config: Config['stripe']): Stripe | null {
  if (!config.secretKey) return null
  const origin = config.apiUrl ? new URL(config.apiUrl) : null
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
    ...(origin ? { host: origin.hostname, port: Number(origin.port || (origin.protocol === 'https:' ? 443 : 80)), protocol: origin.protocol === 'https:' ? 'https' : 'http' } : {}),
  })
}

export interface BillingServiceDeps {
  db: Database
  config: Config
  stripe: Stripe | null
  /** Queues a re-read of one customer's subscription and invoices (jobs retry it when Stripe fails). */
  enqueueCustomerSync(customerId: string): Promise<void>
}

/**
 * Billing on Stripe (issue 16): one customer per user, created once; Checkout for the standard plan;
 * the Billing Portal; signed webhooks that only record the event and queue a re-read of the customer
 * from Stripe, so duplicates and out-of-order deliveries end in Stripe's current state.
 */
export function createBillingService({ db, config, stripe, enqueueCustomerSync }: BillingServiceDeps) {
  const free = PLANS.find((p) => p.id === 'free')!
  const standard = PLANS.find((p) => p.id === 'standard')!
  const appUrl = config.appUrl.replace(/\/+$/, '')
  const billingAvailable = stripe !== null && Boolean(config.stripe.standardPriceId)

  const requireStripe = () => {
    if (!stripe) throw new BillingError(502, 'billing_unavailable', 'Billing is not available right now.')
    return stripe
  }

  async function accountOf(userId: number) {
    const [row] = await db.select().from(billingAccounts).where(eq(billingAccounts.userId, userId)).limit(1)
    return row
  }

  async function readSubscription(userId: number, now: Date = new Date()): Promise<SubscriptionResponse> {
    const [account, [usage], [invoice], [user]] = await Promise.all([
      accountOf(userId),
      db
        .select({ emailsProcessed: usageCounts.emailsProcessed, emailsLeftAlone: usageCounts.emailsLeftAlone })
        .from(usageCounts)
        .where(and(eq(usageCounts.userId, userId), eq(usageCounts.month, usageMonth(now)))),
      db.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(desc(invoices.createdAt)).limit(1),
      db.select({ chosenAt: users.freePlanChosenAt, dismissedMonth: users.planPromptDismissedMonth }).from(users).where(eq(users.id, userId)),
    ])
    const paid = account?.planId === 'standard' && PAID_STATES.has(account.status)
    // Past due beyond its grace: shown as Standard / Past Due, but limited like the free plan.
    // Without billing configured nothing can be bought, so the pipeline enforces no limit either.
    const limited = billingAvailable && !unlimitedNow(account, now)
    const plan = paid ? standard : free
    const emailLimit = limited ? free.emailLimit : null
    const emailsProcessed = usage?.emailsProcessed ?? 0
    return {
      subscription: {
        planId: plan.id,
        planName: plan.name,
        status: paid ? account.status : account && account.status === 'canceled' ? 'canceled' : 'active',
        emailLimit,
        cancelAtPeriodEnd: paid ? account.cancelAtPeriodEnd : false,
        currentPeriodEnd: paid ? (account.currentPeriodEnd?.toISOString() ?? null) : null,
      },
      usage: {
        emailsProcessed,
        percentUsed: emailLimit ? Math.min(100, Math.round((emailsProcessed / emailLimit) * 1000) / 10) : 0,
        emailsLeftAlone: usage?.emailsLeftAlone ?? 0,
      },
      invoice: invoice
        ? { amountCents: invoice.amountCents, currency: invoice.currency, status: invoice.status, date: invoice.createdAt.toISOString(), hostedUrl: invoice.hostedUrl }
        : null,
      planPrompt: {
        billingAvailable,
        freePlanChosen: Boolean(user?.chosenAt),
        dismissedThisMonth: user?.dismissedMonth === usageMonth(now),
      },
    }
  }

  /**
   * "Continue with the free plan": remembered, so the dialog stays shut. Dismissed while the free limit
   * is reached (or a payment is overdue), it also stays shut for the rest of this month.
   */
  async function continueFree(userId: number, now: Date = new Date()): Promise<{ planPrompt: SubscriptionResponse['planPrompt'] }> {
    const current = await readSubscription(userId, now)
    const { subscription, usage } = current
    const limitReached = subscription.emailLimit !== null && usage.emailsProcessed >= subscription.emailLimit
    const pastDue = subscription.status === 'past_due'
    await db
      .update(users)
      .set({
        freePlanChosenAt: sql`coalesce(${users.freePlanChosenAt}, ${now.toISOString()}::timestamptz)`,
        ...(limitReached || pastDue ? { planPromptDismissedMonth: usageMonth(now) } : {}),
        updatedAt: now,
      })
      .where(eq(users.id, userId))
    return { planPrompt: { ...current.planPrompt, freePlanChosen: true, dismissedThisMonth: current.planPrompt.dismissedThisMonth || limitReached || pastDue } }
  }

  /** The user's Stripe customer, created once (an idempotency key keeps two racing requests to one). */
  async function ensureCustomer(userId: number): Promise<string> {
    const existing = await accountOf(userId)
    if (existing) return existing.stripeCustomerId
    const [user] = await db.select({ email: users.email, name: users.displayName }).from(users).where(eq(users.id, userId))
    const customer = await requireStripe().customers.create(
      { email: user?.email ?? undefined, name: user?.name ?? undefined, metadata: { userId: String(userId) } },
      { idempotencyKey: `inbox-guard-customer-${userId}` },
    )
    await db.insert(billingAccounts).values({ userId, stripeCustomerId: customer.id }).onConflictDoNothing()
    return (await accountOf(userId))!.stripeCustomerId
  }

  async function createCheckout(userId: number, planId: 'standard' | 'team', now: Date = new Date()): Promise<{ url: string }> {
    if (planId === 'team') throw new BillingError(400, 'plan_not_available', 'The Team plan is not available yet: join its waitlist on the pricing page.')
    const account = await accountOf(userId)
    if (account && account.planId === 'standard' && PAID_STATES.has(account.status)) {
      throw new BillingError(400, 'already_subscribed', 'You are already on the Standard plan: use Manage Billing to change it.')
    }
    const client = requireStripe()
    try {
      const customer = await ensureCustomer(userId)
      // Same user, same window → same key and parameters → Stripe answers the session it made before.
      const bucket = Math.floor(now.getTime() / CHECKOUT_REUSE_MS)
      const session = await client.checkout.sessions.create(
        {
          mode: 'subscription',
          customer,
          client_reference_id: String(userId),
          line_items: [{ price: config.stripe.standardPriceId!, quantity: 1 }],
          success_url: `${appUrl}/dashboard?checkout=success`,
          cancel_url: `${appUrl}/pricing?checkout=canceled`,
          metadata: { userId: String(userId), planId },
        },
        { idempotencyKey: `inbox-guard-checkout-${userId}-${bucket}` },
      )
      if (!session.url) throw new BillingError(502, 'checkout_failed', 'Stripe did not return a checkout page. Please try again.')
      return { url: session.url }
    } catch (error) {
      if (error instanceof BillingError) throw error
      throw new BillingError(502, 'checkout_failed', 'Stripe could not start the checkout. Please try again in a moment.')
    }
  }

  async function portal(userId: number): Promise<{ url: string }> {
    const account = await accountOf(userId)
    if (!account || account.planId !== 'standard' || account.status === 'none') {
      throw new BillingError(400, 'no_billing', 'You are on the free plan: there is no billing to manage.')
    }
    try {
      const session = await requireStripe().billingPortal.sessions.create({ customer: account.stripeCustomerId, return_url: `${appUrl}/dashboard` })
      return { url: session.url }
    } catch {
      throw new BillingError(502, 'portal_failed', 'Failed to create billing portal session.')
    }
  }

  /**
   * POST /_api/webhooks/stripe: the signature is checked on the raw body; a new event is recorded and
   * its customer queued for a re-read; a known event id does nothing a second time.
   */
  async function receiveWebhook(rawBody: string, signature: string | undefined): Promise<{ duplicate: boolean }> {
    let event: Stripe.Event
    try {
      // Without billing configured there is no secret, so no signature can match.
      if (!stripe || !config.stripe.webhookSecret) throw new Error('billing is not configured')
      event = stripe.webhooks.constructEvent(rawBody, signature ?? '', config.stripe.webhookSecret)
    } catch {
      throw new BillingError(400, 'bad_signature', 'The Stripe signature does not match this request.')
    }
    const customer = customerOf(event)
    const [recorded] = await db.insert(stripeEvents).values({ id: event.id, type: event.type }).onConflictDoNothing().returning({ id: stripeEvents.id })
    if (!recorded) return { duplicate: true }
    if (customer) await enqueueCustomerSync(customer)
    return { duplicate: false }
  }

  /**
   * Re-reads one customer's subscriptions and latest invoices from Stripe and stores what Stripe says
   * now, whatever order the events came in. Run by the billing-sync job, which retries on failure.
   */
  async function syncCustomer(customerId: string): Promise<{ planId: string; status: string }> {
    const client = requireStripe()
    let [account] = await db.select().from(billingAccounts).where(eq(billingAccounts.stripeCustomerId, customerId)).limit(1)
    if (!account) {
      // A customer made elsewhere (e.g. in the dashboard): its metadata names the user, if any.
      const customer = await client.customers.retrieve(customerId)
      const userId = !customer.deleted ? Number(customer.metadata?.userId) : NaN
      if (!Number.isInteger(userId) || userId <= 0) return { planId: 'free', status: 'none' }
      await db.insert(billingAccounts).values({ userId, stripeCustomerId: customerId }).onConflictDoNothing()
      ;[account] = await db.select().from(billingAccounts).where(eq(billingAccounts.stripeCustomerId, customerId)).limit(1)
      if (!account) return { planId: 'free', status: 'none' }
    }
    const { data: subscriptions } = await client.subscriptions.list({ customer: customerId, status: 'all', limit: 10 })
    const rank = (s: Stripe.Subscription) => (PAID_STATES.has(s.status) ? 2 : s.status === 'canceled' ? 1 : 0)
    const current = [...subscriptions].sort((a, b) => rank(b) - rank(a) || b.created - a.created)[0]
    const onStandard = current?.items.data.some((item) => item.price.id === config.stripe.standardPriceId) ?? false
    const periodEnd = current?.items.data[0]?.current_period_end
    const pastDue = current?.status === 'past_due'
    const state = {
      pastDueSince: pastDue ? (account.pastDueSince ?? new Date()) : null,
      stripeSubscriptionId: current?.id ?? null,
      planId: current && onStandard && PAID_STATES.has(current.status) ? ('standard' as const) : ('free' as const),
      status: current?.status ?? 'none',
      cancelAtPeriodEnd: current?.cancel_at_period_end ?? false,
      currentPeriodEnd: periodEnd ? new Date(periodEnd * 1000) : null,
      updatedAt: new Date(),
    }
    await db.update(billingAccounts).set(state).where(eq(billingAccounts.id, account.id))
    if (account.userId !== null && (account.planId !== state.planId || account.status !== state.status || account.cancelAtPeriodEnd !== state.cancelAtPeriodEnd)) {
      await recordAuditEvent(db, {
        eventType: 'USER_UPDATED',
        eventCategory: 'USER_MANAGEMENT',
        severity: state.status === 'past_due' ? 'WARNING' : 'INFO',
        userId: account.userId,
        action: 'PLAN_CHANGED',
        success: true,
        resourceType: 'subscription',
        resourceId: state.stripeSubscriptionId,
        metadata: { from: { planId: account.planId, status: account.status }, to: { planId: state.planId, status: state.status, cancelAtPeriodEnd: state.cancelAtPeriodEnd } },
      })
    }
    const { data: recent } = await client.invoices.list({ customer: customerId, limit: 5 })
    for (const invoice of recent) {
      const values = {
        stripeCustomerId: customerId,
        userId: account.userId,
        amountCents: invoice.status === 'paid' ? invoice.amount_paid : invoice.amount_due,
        currency: invoice.currency,
        status: invoice.status ?? 'draft',
        createdAt: new Date(invoice.created * 1000),
        hostedUrl: invoice.hosted_invoice_url ?? null,
      }
      await db.insert(invoices).values({ id: invoice.id!, ...values }).onConflictDoUpdate({ target: invoices.id, set: values })
    }
    return { planId: state.planId, status: state.status }
  }

  /**
   * Account deletion (issue 17): ends every live subscription at Stripe now, so nothing is charged
   * again, and removes the personal fields Stripe holds for the customer. The billing records stay
   * (seven years) and lose the user id when the user row goes. Throws before anything changes here
   * when Stripe cannot be reached, so the account stays whole and the request can be retried.
   */
  async function closeForDeletion(userId: number): Promise<void> {
    const account = await accountOf(userId)
    if (!account || !stripe) return
    try {
      const { data } = await stripe.subscriptions.list({ customer: account.stripeCustomerId, status: 'all', limit: 20 })
      for (const subscription of data) {
        if (subscription.status !== 'canceled' && subscription.status !== 'incomplete_expired') await stripe.subscriptions.cancel(subscription.id)
      }
      await stripe.customers.update(account.stripeCustomerId, { email: '', name: '', metadata: { userId: '' } })
    } catch {
      throw new BillingError(502, 'billing_unreachable', 'Stripe could not be reached to cancel your subscription, so nothing was deleted. Please try again in a moment.')
    }
    await db.update(billingAccounts).set({ status: 'canceled', planId: 'free', cancelAtPeriodEnd: false, updatedAt: new Date() }).where(eq(billingAccounts.id, account.id))
  }

  return { readSubscription, continueFree, closeForDeletion, createCheckout, portal, receiveWebhook, syncCustomer }
}

export type BillingService = ReturnType<typeof createBillingService>

/** The customer an event concerns (every billing object this app handles names one). */
function customerOf(event: Stripe.Event): string | null {
  const object = event.data.object as { object?: string; id?: string; customer?: string | { id: string } | null }
  if (object.object === 'customer' && object.id) return object.id
  const customer = object.customer
  return typeof customer === 'string' ? customer : (customer?.id ?? null)
}
