import { invoicePrefix, newId, newToken } from './ids.ts'

/**
 * The Stripe account the fake keeps in memory: prices, customers, Checkout and portal sessions,
 * subscriptions, invoices and the events they produce (providers.md C1, C2, D4). The HTTP layer
 * (server.ts) validates parameters and renders; this file owns the state and the lifecycle:
 * checkout completion, cancel at period end / resume / cancel now, clock-driven renewals, failed
 * payments with retries, and session expiry. Times are unix seconds from the fake's clock.
 *
 * Objects are rendered in the current API shape (`2025-03-31.basil` and later: billing periods on
 * subscription items, the invoice's subscription under `parent.subscription_details`); older versions
 * are derived from it by `toApiVersion`.
 */

export interface PriceConfig {
  /** Default: a generated `price_…` id. A fixed id lets demo config name it. */
  id?: string
  /** Cents. */
  unitAmount: number
  currency?: string
  interval?: 'day' | 'week' | 'month' | 'year'
  intervalCount?: number
  productName?: string
  nickname?: string
  lookupKey?: string
}

export interface Price {
  id: string
  productId: string
  productName: string
  unitAmount: number
  currency: string
  interval: 'day' | 'week' | 'month' | 'year'
  intervalCount: number
  nickname: string | null
  lookupKey: string | null
  created: number
}

export interface Card {
  brand: string
  last4: string
  expMonth: number
  expYear: number
  paymentMethodId: string
  /** Every later charge fails (a card that expired or was blocked after checkout). */
  declines: boolean
}

export interface Customer {
  id: string
  email: string | null
  name: string | null
  description: string | null
  phone: string | null
  metadata: Record<string, string>
  created: number
  invoicePrefix: string
  nextInvoiceSequence: number
  card?: Card
}

export interface CheckoutSession {
  id: string
  created: number
  expiresAt: number
  status: 'open' | 'complete' | 'expired'
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required'
  customerId: string | null
  customerEmail: string | null
  clientReferenceId: string | null
  successUrl: string
  cancelUrl: string | null
  metadata: Record<string, string>
  subscriptionMetadata: Record<string, string>
  lineItems: Array<{ priceId: string; quantity: number }>
  allowPromotionCodes: boolean | null
  subscriptionId: string | null
  invoiceId: string | null
  /** Email and name typed on the hosted page. */
  details: { email: string | null; name: string | null } | null
}

export interface PortalSession {
  id: string
  token: string
  created: number
  customerId: string
  returnUrl: string | null
  configuration: string
}

export type SubscriptionStatus = 'active' | 'past_due' | 'unpaid' | 'canceled' | 'incomplete' | 'incomplete_expired' | 'trialing' | 'paused'

export interface Subscription {
  id: string
  itemId: string
  customerId: string
  priceId: string
  quantity: number
  status: SubscriptionStatus
  created: number
  startDate: number
  billingCycleAnchor: number
  /** Number of whole intervals from the anchor to the current period's start. */
  cycle: number
  periodStart: number
  periodEnd: number
  cancelAtPeriodEnd: boolean
  cancelAt: number | null
  canceledAt: number | null
  endedAt: number | null
  cancellationReason: 'cancellation_requested' | 'payment_failed' | null
  latestInvoiceId: string | null
  metadata: Record<string, string>
}

export interface Invoice {
  id: string
  token: string
  number: string
  customerId: string
  subscriptionId: string
  lineId: string
  priceId: string
  quantity: number
  billingReason: 'subscription_create' | 'subscription_cycle'
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible'
  amount: number
  currency: string
  created: number
  periodStart: number
  periodEnd: number
  attemptCount: number
  nextPaymentAttempt: number | null
  finalizedAt: number | null
  paidAt: number | null
}

/** The API request that caused a change, for `event.request` (null for automatic changes). */
export interface RequestContext {
  id: string
  idempotencyKey: string | null
}

export interface StoredEvent {
  id: string
  type: string
  created: number
  /** The object as it was when the event happened, in the current API shape. */
  object: Record<string, unknown>
  previousAttributes?: Record<string, unknown>
  request: RequestContext | null
  pendingWebhooks: number
}

export interface BillingOptions {
  now: () => number
  origin: string
  prices: Price[]
  /** Days after a failed payment at which Stripe tries again; after the last, `afterFinalFailure` (default 3, 5, 7: Stripe's classic schedule). */
  paymentRetryDays?: number[]
  /** What a subscription becomes when every retry failed (Stripe's default setting cancels it). */
  afterFinalFailure?: 'cancel' | 'unpaid'
  onEvent: (event: StoredEvent) => void
}

/** Checkout Sessions expire after 24 hours by default. */
export const CHECKOUT_TTL_SECONDS = 24 * 3600
const DAY = 86_400

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
}

/** anchor + n intervals, calendar-aware for months and years (Jan 31 + 1 month = Feb 28/29), as Stripe bills. */
export function addIntervals(anchor: number, interval: Price['interval'], count: number): number {
  if (interval === 'day') return anchor + count * DAY
  if (interval === 'week') return anchor + count * 7 * DAY
  const d = new Date(anchor * 1000)
  const months = interval === 'month' ? count : count * 12
  const total = d.getUTCMonth() + months
  const year = d.getUTCFullYear() + Math.floor(total / 12)
  const month = ((total % 12) + 12) % 12
  const day = Math.min(d.getUTCDate(), daysInMonth(year, month))
  return Math.floor(Date.UTC(year, month, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000)
}

export class Billing {
  readonly prices = new Map<string, Price>()
  readonly customers = new Map<string, Customer>()
  readonly checkoutSessions = new Map<string, CheckoutSession>()
  readonly portalSessions = new Map<string, PortalSession>()
  readonly subscriptions = new Map<string, Subscription>()
  readonly invoices = new Map<string, Invoice>()
  readonly events = new Map<string, StoredEvent>()
  /** Renewal charges that fail next, whatever the card (failNextRenewal). */
  failRenewals = 0
  private readonly retryDays: number[]
  private readonly portalConfiguration = newId('bpc')

  constructor(private readonly options: BillingOptions) {
    for (const price of options.prices) this.prices.set(price.id, price)
    this.retryDays = options.paymentRetryDays ?? [3, 5, 7]
  }

  seconds(): number {
    return Math.floor(this.options.now() / 1000)
  }

  // ---- rendering (current API shape) ----

  renderPrice(price: Price) {
    return {
      id: price.id,
      object: 'price',
      active: true,
      billing_scheme: 'per_unit',
      created: price.created,
      currency: price.currency,
      custom_unit_amount: null,
      livemode: false,
      lookup_key: price.lookupKey,
      metadata: {},
      nickname: price.nickname,
      product: price.productId,
      recurring: { interval: price.interval, interval_count: price.intervalCount, meter: null, trial_period_days: null, usage_type: 'licensed' },
      tax_behavior: 'unspecified',
      tiers_mode: null,
      transform_quantity: null,
      type: 'recurring',
      unit_amount: price.unitAmount,
      unit_amount_decimal: String(price.unitAmount),
    }
  }

  renderCustomer(c: Customer) {
    return {
      id: c.id,
      object: 'customer',
      address: null,
      balance: 0,
      created: c.created,
      currency: c.card ? this.currencyOf(c) : null,
      default_source: null,
      delinquent: [...this.invoices.values()].some((i) => i.customerId === c.id && i.status === 'open' && i.attemptCount > 0),
      description: c.description,
      email: c.email,
      invoice_prefix: c.invoicePrefix,
      invoice_settings: { custom_fields: null, default_payment_method: c.card?.paymentMethodId ?? null, footer: null, rendering_options: null },
      livemode: false,
      metadata: { ...c.metadata },
      name: c.name,
      next_invoice_sequence: c.nextInvoiceSequence,
      phone: c.phone,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
    }
  }

  private currencyOf(c: Customer): string | null {
    const sub = [...this.subscriptions.values()].find((s) => s.customerId === c.id)
    return sub ? (this.prices.get(sub.priceId)?.currency ?? null) : null
  }

  renderCheckoutSession(s: CheckoutSession) {
    const amount = s.lineItems.reduce((sum, li) => sum + (this.prices.get(li.priceId)?.unitAmount ?? 0) * li.quantity, 0)
    const currency = this.prices.get(s.lineItems[0]?.priceId ?? '')?.currency ?? null
    const customer = s.customerId ? this.customers.get(s.customerId) : undefined
    return {
      id: s.id,
      object: 'checkout.session',
      after_expiration: null,
      allow_promotion_codes: s.allowPromotionCodes,
      amount_subtotal: amount,
      amount_total: amount,
      automatic_tax: { enabled: false, liability: null, provider: null, status: null },
      billing_address_collection: null,
      cancel_url: s.cancelUrl,
      client_reference_id: s.clientReferenceId,
      client_secret: null,
      consent: null,
      consent_collection: null,
      created: s.created,
      currency,
      custom_fields: [],
      custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
      customer: s.customerId,
      customer_creation: s.customerId && s.status !== 'complete' ? null : 'always',
      customer_details: s.details
        ? { address: null, email: s.details.email ?? customer?.email ?? null, name: s.details.name, phone: null, tax_exempt: 'none', tax_ids: [] }
        : s.customerId
          ? { address: null, email: customer?.email ?? null, name: null, phone: null, tax_exempt: 'none', tax_ids: [] }
          : null,
      customer_email: s.customerEmail,
      discounts: [],
      expires_at: s.expiresAt,
      invoice: s.invoiceId,
      invoice_creation: null,
      livemode: false,
      locale: null,
      metadata: { ...s.metadata },
      mode: 'subscription',
      payment_intent: null,
      payment_link: null,
      payment_method_collection: 'always',
      payment_method_options: { card: { request_three_d_secure: 'automatic' } },
      payment_method_types: ['card'],
      payment_status: s.paymentStatus,
      phone_number_collection: { enabled: false },
      recovered_from: null,
      setup_intent: null,
      shipping_address_collection: null,
      shipping_cost: null,
      shipping_options: [],
      status: s.status,
      submit_type: null,
      subscription: s.subscriptionId,
      success_url: s.successUrl,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: 'hosted',
      // Stripe keeps the URL only while the session is open.
      url: s.status === 'open' ? `${this.options.origin}/c/pay/${s.id}` : null,
    }
  }

  renderPortalSession(p: PortalSession) {
    return {
      id: p.id,
      object: 'billing_portal.session',
      configuration: p.configuration,
      created: p.created,
      customer: p.customerId,
      flow: null,
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: p.returnUrl,
      url: `${this.options.origin}/p/session/${p.token}`,
    }
  }

  renderSubscription(s: Subscription) {
    const price = this.prices.get(s.priceId)!
    const renderedPrice = this.renderPrice(price)
    return {
      id: s.id,
      object: 'subscription',
      application: null,
      application_fee_percent: null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: s.billingCycleAnchor,
      billing_cycle_anchor_config: null,
      billing_mode: { flexible: null, type: 'classic' },
      billing_thresholds: null,
      cancel_at: s.cancelAt,
      cancel_at_period_end: s.cancelAtPeriodEnd,
      canceled_at: s.canceledAt,
      cancellation_details: { comment: null, feedback: null, reason: s.cancellationReason },
      collection_method: 'charge_automatically',
      created: s.created,
      currency: price.currency,
      customer: s.customerId,
      days_until_due: null,
      default_payment_method: this.customers.get(s.customerId)?.card?.paymentMethodId ?? null,
      default_source: null,
      default_tax_rates: [],
      description: null,
      discounts: [],
      ended_at: s.endedAt,
      invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
      items: {
        object: 'list',
        data: [
          {
            id: s.itemId,
            object: 'subscription_item',
            billing_thresholds: null,
            created: s.created,
            current_period_end: s.periodEnd,
            current_period_start: s.periodStart,
            discounts: [],
            metadata: {},
            plan: {
              id: price.id,
              object: 'plan',
              active: true,
              amount: price.unitAmount,
              amount_decimal: String(price.unitAmount),
              billing_scheme: 'per_unit',
              created: price.created,
              currency: price.currency,
              interval: price.interval,
              interval_count: price.intervalCount,
              livemode: false,
              metadata: {},
              meter: null,
              nickname: price.nickname,
              product: price.productId,
              tiers_mode: null,
              transform_usage: null,
              trial_period_days: null,
              usage_type: 'licensed',
            },
            price: renderedPrice,
            quantity: s.quantity,
            subscription: s.id,
            tax_rates: [],
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/subscription_items?subscription=${s.id}`,
      },
      latest_invoice: s.latestInvoiceId,
      livemode: false,
      metadata: { ...s.metadata },
      next_pending_invoice_item_invoice: null,
      on_behalf_of: null,
      pause_collection: null,
      payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
      pending_invoice_item_interval: null,
      pending_setup_intent: null,
      pending_update: null,
      schedule: null,
      start_date: s.startDate,
      status: s.status,
      test_clock: null,
      transfer_data: null,
      trial_end: null,
      trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
      trial_start: null,
    }
  }

  renderInvoice(i: Invoice) {
    const customer = this.customers.get(i.customerId)
    const sub = this.subscriptions.get(i.subscriptionId)
    const price = this.prices.get(i.priceId)!
    const paid = i.status === 'paid'
    return {
      id: i.id,
      object: 'invoice',
      account_country: 'US',
      account_name: 'Inbox Guard (demo)',
      account_tax_ids: null,
      amount_due: i.amount,
      amount_overpaid: 0,
      amount_paid: paid ? i.amount : 0,
      amount_remaining: paid ? 0 : i.amount,
      amount_shipping: 0,
      application: null,
      attempt_count: i.attemptCount,
      attempted: i.attemptCount > 0,
      auto_advance: !paid && i.nextPaymentAttempt !== null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
      automatically_finalizes_at: null,
      billing_reason: i.billingReason,
      collection_method: 'charge_automatically',
      created: i.created,
      currency: i.currency,
      custom_fields: null,
      customer: i.customerId,
      customer_address: null,
      customer_email: customer?.email ?? null,
      customer_name: customer?.name ?? null,
      customer_phone: null,
      customer_shipping: null,
      customer_tax_exempt: 'none',
      customer_tax_ids: [],
      default_payment_method: null,
      default_source: null,
      default_tax_rates: [],
      description: null,
      discounts: [],
      due_date: null,
      effective_at: i.finalizedAt,
      ending_balance: i.finalizedAt === null ? null : 0,
      footer: null,
      from_invoice: null,
      hosted_invoice_url: `${this.options.origin}/i/${i.token}`,
      // Simplified: the fake serves no PDF.
      invoice_pdf: null,
      issuer: { type: 'self' },
      last_finalization_error: null,
      latest_revision: null,
      lines: {
        object: 'list',
        data: [
          {
            id: i.lineId,
            object: 'line_item',
            amount: i.amount,
            currency: i.currency,
            description: `${i.quantity} × ${price.productName} (at $${(price.unitAmount / 100).toFixed(2)} / ${price.interval})`,
            discount_amounts: [],
            discountable: true,
            discounts: [],
            invoice: i.id,
            livemode: false,
            metadata: {},
            parent: {
              invoice_item_details: null,
              subscription_item_details: { invoice_item: null, proration: false, proration_details: { credited_items: null }, subscription: i.subscriptionId, subscription_item: sub?.itemId ?? '' },
              type: 'subscription_item_details',
            },
            period: { end: i.periodEnd, start: i.periodStart },
            pretax_credit_amounts: [],
            pricing: { price_details: { price: price.id, product: price.productId }, type: 'price_details', unit_amount_decimal: String(price.unitAmount) },
            quantity: i.quantity,
            subtotal: i.amount,
            taxes: [],
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/invoices/${i.id}/lines`,
      },
      livemode: false,
      metadata: {},
      next_payment_attempt: i.nextPaymentAttempt,
      number: i.number,
      on_behalf_of: null,
      parent: {
        quote_details: null,
        subscription_details: { metadata: { ...(sub?.metadata ?? {}) }, subscription: i.subscriptionId },
        type: 'subscription_details',
      },
      payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
      period_end: i.periodEnd,
      period_start: i.periodStart,
      post_payment_credit_notes_amount: 0,
      pre_payment_credit_notes_amount: 0,
      receipt_number: null,
      rendering: null,
      shipping_cost: null,
      shipping_details: null,
      starting_balance: 0,
      statement_descriptor: null,
      status: i.status,
      status_transitions: { finalized_at: i.finalizedAt, marked_uncollectible_at: null, paid_at: i.paidAt, voided_at: null },
      subtotal: i.amount,
      subtotal_excluding_tax: i.amount,
      test_clock: null,
      total: i.amount,
      total_discount_amounts: [],
      total_excluding_tax: i.amount,
      total_pretax_credit_amounts: [],
      total_taxes: [],
      webhooks_delivered_at: i.finalizedAt,
    }
  }

  renderEvent(e: StoredEvent, apiVersion: string) {
    return {
      id: e.id,
      object: 'event',
      api_version: apiVersion,
      created: e.created,
      data: {
        object: toApiVersion(e.object, apiVersion),
        ...(e.previousAttributes ? { previous_attributes: e.previousAttributes } : {}),
      },
      livemode: false,
      pending_webhooks: e.pendingWebhooks,
      request: e.request ? { id: e.request.id, idempotency_key: e.request.idempotencyKey } : { id: null, idempotency_key: null },
      type: e.type,
    }
  }

  /** Any object by id, rendered, for `expand[]`. */
  render(id: string): Record<string, unknown> | undefined {
    const customer = this.customers.get(id)
    if (customer) return this.renderCustomer(customer)
    const sub = this.subscriptions.get(id)
    if (sub) return this.renderSubscription(sub)
    const invoice = this.invoices.get(id)
    if (invoice) return this.renderInvoice(invoice)
    const price = this.prices.get(id)
    if (price) return this.renderPrice(price)
    const session = this.checkoutSessions.get(id)
    if (session) return this.renderCheckoutSession(session)
    return undefined
  }

  // ---- events ----

  private emit(type: string, object: Record<string, unknown>, request: RequestContext | null, previousAttributes?: Record<string, unknown>) {
    const event: StoredEvent = {
      id: newId('evt'),
      type,
      created: this.seconds(),
      object: structuredClone(object),
      ...(previousAttributes ? { previousAttributes } : {}),
      request,
      pendingWebhooks: 0,
    }
    this.events.set(event.id, event)
    this.options.onEvent(event)
    return event
  }

  // ---- customers ----

  createCustomer(fields: { email?: string | null; name?: string | null; description?: string | null; phone?: string | null; metadata?: Record<string, string> }, request: RequestContext | null): Customer {
    const customer: Customer = {
      id: newId('cus'),
      email: fields.email ?? null,
      name: fields.name ?? null,
      description: fields.description ?? null,
      phone: fields.phone ?? null,
      metadata: fields.metadata ?? {},
      created: this.seconds(),
      invoicePrefix: invoicePrefix(),
      nextInvoiceSequence: 1,
    }
    this.customers.set(customer.id, customer)
    this.emit('customer.created', this.renderCustomer(customer), request)
    return customer
  }

  updateCustomer(customer: Customer, fields: { email?: string | null; name?: string | null; description?: string | null; phone?: string | null; metadata?: Record<string, string> }, request: RequestContext) {
    const before = this.renderCustomer(customer)
    if (fields.email !== undefined) customer.email = fields.email
    if (fields.name !== undefined) customer.name = fields.name
    if (fields.description !== undefined) customer.description = fields.description
    if (fields.phone !== undefined) customer.phone = fields.phone
    if (fields.metadata !== undefined) {
      // An empty value removes the key; an empty hash (metadata='') removes all.
      const next = Object.keys(fields.metadata).length === 0 ? {} : { ...customer.metadata }
      for (const [k, v] of Object.entries(fields.metadata)) {
        if (v === '') delete next[k]
        else next[k] = v
      }
      customer.metadata = next
    }
    const after = this.renderCustomer(customer)
    const previous = changed(before, after)
    if (Object.keys(previous).length > 0) this.emit('customer.updated', after, request, previous)
    return customer
  }

  // ---- checkout ----

  createCheckoutSession(fields: Omit<CheckoutSession, 'id' | 'created' | 'status' | 'paymentStatus' | 'subscriptionId' | 'invoiceId' | 'details' | 'expiresAt'> & { expiresAt?: number }): CheckoutSession {
    const created = this.seconds()
    const session: CheckoutSession = {
      ...fields,
      id: newId('cs_test'),
      created,
      expiresAt: fields.expiresAt ?? created + CHECKOUT_TTL_SECONDS,
      status: 'open',
      paymentStatus: 'unpaid',
      subscriptionId: null,
      invoiceId: null,
      details: null,
    }
    this.checkoutSessions.set(session.id, session)
    return session
  }

  /**
   * The person paid on the hosted page: customer (when the session had none), subscription, paid first
   * invoice, then the events in the order Stripe usually sends them (C2; delivery order is not guaranteed).
   */
  completeCheckout(session: CheckoutSession, payment: { card: Omit<Card, 'paymentMethodId' | 'declines'>; email: string | null; name: string | null }) {
    const customer = session.customerId ? this.customers.get(session.customerId)! : this.createCustomer({ email: payment.email ?? session.customerEmail, name: payment.name }, null)
    customer.card = { ...payment.card, paymentMethodId: newId('pm'), declines: false }
    const item = session.lineItems[0]!
    const price = this.prices.get(item.priceId)!
    const now = this.seconds()
    const sub: Subscription = {
      id: newId('sub'),
      itemId: newId('si'),
      customerId: customer.id,
      priceId: price.id,
      quantity: item.quantity,
      status: 'active',
      created: now,
      startDate: now,
      billingCycleAnchor: now,
      cycle: 0,
      periodStart: now,
      periodEnd: addIntervals(now, price.interval, price.intervalCount),
      cancelAtPeriodEnd: false,
      cancelAt: null,
      canceledAt: null,
      endedAt: null,
      cancellationReason: null,
      latestInvoiceId: null,
      metadata: { ...session.subscriptionMetadata },
    }
    this.subscriptions.set(sub.id, sub)
    const invoice = this.newInvoice(sub, 'subscription_create')
    invoice.status = 'paid'
    invoice.attemptCount = 1
    invoice.paidAt = now
    sub.latestInvoiceId = invoice.id

    session.status = 'complete'
    session.paymentStatus = 'paid'
    session.customerId = customer.id
    session.subscriptionId = sub.id
    session.invoiceId = invoice.id
    session.details = { email: payment.email ?? customer.email, name: payment.name }

    this.emit('customer.subscription.created', this.renderSubscription(sub), null)
    this.emitInvoiceLifecycle(invoice, ['invoice.created', 'invoice.finalized', 'invoice.paid', 'invoice.payment_succeeded'])
    this.emit('checkout.session.completed', this.renderCheckoutSession(session), null)
    return { customer, subscription: sub, invoice }
  }

  expireCheckoutSession(session: CheckoutSession, request: RequestContext | null) {
    session.status = 'expired'
    this.emit('checkout.session.expired', this.renderCheckoutSession(session), request)
  }

  // ---- portal ----

  createPortalSession(customerId: string, returnUrl: string | null): PortalSession {
    const session: PortalSession = { id: newId('bps'), token: `test_${newToken(48)}`, created: this.seconds(), customerId, returnUrl, configuration: this.portalConfiguration }
    this.portalSessions.set(session.token, session)
    return session
  }

  // ---- subscriptions ----

  private updateSubscription(sub: Subscription, change: () => void, request: RequestContext | null) {
    const before = this.renderSubscription(sub)
    change()
    const after = this.renderSubscription(sub)
    const previous = changed(before, after)
    if (Object.keys(previous).length > 0) this.emit('customer.subscription.updated', after, request, previous)
  }

  setCancelAtPeriodEnd(sub: Subscription, cancel: boolean, request: RequestContext | null) {
    this.updateSubscription(
      sub,
      () => {
        sub.cancelAtPeriodEnd = cancel
        sub.cancelAt = cancel ? sub.periodEnd : null
        // Stripe sets canceled_at to the time of the request that scheduled the cancellation.
        sub.canceledAt = cancel ? this.seconds() : null
        sub.cancellationReason = cancel ? 'cancellation_requested' : null
      },
      request,
    )
  }

  updateSubscriptionMetadata(sub: Subscription, metadata: Record<string, string>, request: RequestContext) {
    this.updateSubscription(
      sub,
      () => {
        const next = Object.keys(metadata).length === 0 ? {} : { ...sub.metadata }
        for (const [k, v] of Object.entries(metadata)) {
          if (v === '') delete next[k]
          else next[k] = v
        }
        sub.metadata = next
      },
      request,
    )
  }

  cancelNow(sub: Subscription, request: RequestContext | null, reason: Subscription['cancellationReason'] = 'cancellation_requested', at = this.seconds()) {
    sub.status = 'canceled'
    sub.canceledAt = sub.cancelAtPeriodEnd && sub.canceledAt !== null ? sub.canceledAt : at
    sub.endedAt = at
    sub.cancellationReason = reason
    // Open invoices of a canceled subscription stop being retried.
    for (const invoice of this.invoices.values()) {
      if (invoice.subscriptionId === sub.id && invoice.status === 'open') invoice.nextPaymentAttempt = null
    }
    this.emit('customer.subscription.deleted', this.renderSubscription(sub), request)
  }

  // ---- invoices and payments ----

  private newInvoice(sub: Subscription, reason: Invoice['billingReason']): Invoice {
    const customer = this.customers.get(sub.customerId)!
    const price = this.prices.get(sub.priceId)!
    const now = this.seconds()
    const invoice: Invoice = {
      id: newId('in'),
      token: `test_${newToken(48)}`,
      number: `${customer.invoicePrefix}-${String(customer.nextInvoiceSequence++).padStart(4, '0')}`,
      customerId: customer.id,
      subscriptionId: sub.id,
      lineId: newId('il'),
      priceId: price.id,
      quantity: sub.quantity,
      billingReason: reason,
      status: 'open',
      amount: price.unitAmount * sub.quantity,
      currency: price.currency,
      created: now,
      periodStart: sub.periodStart,
      periodEnd: sub.periodEnd,
      attemptCount: 0,
      nextPaymentAttempt: null,
      finalizedAt: now,
      paidAt: null,
    }
    this.invoices.set(invoice.id, invoice)
    return invoice
  }

  private emitInvoiceLifecycle(invoice: Invoice, types: string[]) {
    for (const type of types) this.emit(type, this.renderInvoice(invoice), null)
  }

  private cardCharges(customerId: string): boolean {
    const card = this.customers.get(customerId)?.card
    return card !== undefined && !card.declines
  }

  /** Pays an open invoice with the customer's card; false when the card declines. */
  payInvoice(invoice: Invoice, request: RequestContext | null, options: { forceFailure?: boolean } = {}): boolean {
    const now = this.seconds()
    invoice.attemptCount += 1
    const sub = this.subscriptions.get(invoice.subscriptionId)
    if (!options.forceFailure && this.cardCharges(invoice.customerId)) {
      invoice.status = 'paid'
      invoice.paidAt = now
      invoice.nextPaymentAttempt = null
      this.emit('invoice.paid', this.renderInvoice(invoice), request)
      this.emit('invoice.payment_succeeded', this.renderInvoice(invoice), request)
      if (sub && (sub.status === 'past_due' || sub.status === 'unpaid') && !this.hasOpenInvoice(sub)) {
        this.updateSubscription(sub, () => (sub.status = 'active'), request)
      }
      return true
    }
    const delayDays = this.retryDays[invoice.attemptCount - 1]
    const subscriptionActive = sub !== undefined && sub.status !== 'canceled'
    invoice.nextPaymentAttempt = delayDays !== undefined && subscriptionActive ? now + delayDays * DAY : null
    this.emit('invoice.payment_failed', this.renderInvoice(invoice), request)
    if (sub && sub.status !== 'canceled') {
      if (invoice.nextPaymentAttempt === null && request === null) {
        // Every automatic retry failed: the account's setting decides (Stripe's default cancels).
        if (this.options.afterFinalFailure === 'unpaid') this.updateSubscription(sub, () => (sub.status = 'unpaid'), null)
        else this.cancelNow(sub, null, 'payment_failed')
      } else if (sub.status === 'active') {
        this.updateSubscription(sub, () => (sub.status = 'past_due'), request)
      }
    }
    return false
  }

  private hasOpenInvoice(sub: Subscription): boolean {
    return [...this.invoices.values()].some((i) => i.subscriptionId === sub.id && i.status === 'open')
  }

  // ---- the clock ----

  /** The next moment something is due (renewal, payment retry, session expiry), if any is at or before `until`. */
  nextDue(until: number): number | undefined {
    let next: number | undefined
    const consider = (t: number) => {
      if (t <= until && (next === undefined || t < next)) next = t
    }
    for (const sub of this.subscriptions.values()) if (sub.status !== 'canceled' && sub.status !== 'incomplete_expired') consider(sub.periodEnd)
    for (const invoice of this.invoices.values()) if (invoice.status === 'open' && invoice.nextPaymentAttempt !== null) consider(invoice.nextPaymentAttempt)
    for (const session of this.checkoutSessions.values()) if (session.status === 'open') consider(session.expiresAt)
    return next
  }

  /** Runs everything due at `now` (the clock already points there). */
  runDue() {
    const now = this.seconds()
    for (const session of this.checkoutSessions.values()) {
      if (session.status === 'open' && session.expiresAt <= now) this.expireCheckoutSession(session, null)
    }
    for (const sub of this.subscriptions.values()) {
      if (sub.status === 'canceled' || sub.periodEnd > now) continue
      if (sub.cancelAtPeriodEnd) {
        this.cancelNow(sub, null, 'cancellation_requested', sub.periodEnd)
        continue
      }
      this.renew(sub)
    }
    for (const invoice of this.invoices.values()) {
      if (invoice.status === 'open' && invoice.nextPaymentAttempt !== null && invoice.nextPaymentAttempt <= now) this.payInvoice(invoice, null)
    }
  }

  /** A new billing period: invoice, charge, and `customer.subscription.updated` for the new period. */
  private renew(sub: Subscription) {
    const price = this.prices.get(sub.priceId)!
    const failThis = this.failRenewals > 0
    if (failThis) this.failRenewals -= 1
    let invoice: Invoice | undefined
    this.updateSubscription(
      sub,
      () => {
        sub.cycle += 1
        sub.periodStart = sub.periodEnd
        sub.periodEnd = addIntervals(sub.billingCycleAnchor, price.interval, price.intervalCount * (sub.cycle + 1))
        invoice = this.newInvoice(sub, 'subscription_cycle')
        sub.latestInvoiceId = invoice.id
        this.emitInvoiceLifecycle(invoice, ['invoice.created', 'invoice.finalized'])
      },
      null,
    )
    this.payInvoice(invoice!, null, { forceFailure: failThis })
  }
}

/** `previous_attributes`: the top-level fields that changed, with their old values. */
function changed(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const previous: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(before)) {
    if (JSON.stringify(value) !== JSON.stringify(after[key])) previous[key] = value
  }
  return previous
}

/** `2025-03-31.basil` moved billing periods to subscription items and the invoice's subscription under `parent` (C2). */
export const BASIL = '2025-03-31'

export function isBeforeBasil(apiVersion: string): boolean {
  return apiVersion.slice(0, 10) < BASIL
}

/** Renders a current-shape object (and any expanded objects inside it) in an older API version. */
export function toApiVersion<T>(value: T, apiVersion: string): T {
  if (!isBeforeBasil(apiVersion)) return value
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk)
    if (v === null || typeof v !== 'object') return v
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) out[k] = walk(x)
    if (out.object === 'subscription') {
      const item = (out.items as { data: Array<{ current_period_start: number; current_period_end: number }> }).data[0]
      out.current_period_start = item?.current_period_start ?? null
      out.current_period_end = item?.current_period_end ?? null
    }
    if (out.object === 'invoice') {
      const details = (out.parent as { subscription_details: { subscription: unknown } | null } | null)?.subscription_details
      out.subscription = details?.subscription ?? null
      delete out.parent
    }
    return out
  }
  return walk(value) as T
}
