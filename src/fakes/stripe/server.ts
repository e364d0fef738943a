import { FakeHttpError, json, parseJson, startFakeServer, type FakeRequest, type FakeResponse, type FakeRoute, type FakeServer } from '../http/fake-server.ts'
import { Billing, CHECKOUT_TTL_SECONDS, toApiVersion, type Customer, type Invoice, type Price, type PriceConfig, type RequestContext, type StoredEvent, type Subscription } from './billing.ts'
import { checkCard } from './cards.ts'
import { invalidParam, maskKey, missingParam, noSuch, noSuchParam, stripeError, stripeErrorBody, stripeFaultBody } from './errors.ts'
import { allowOnly, bool, expandOf, fingerprint, int, metadataOf, requestParams, str, type FormParams, type FormValue } from './form.ts'
import { newId } from './ids.ts'
import { checkoutPage, invoicePage, messagePage, money, portalPage } from './pages.ts'
import { createWebhookEmulator, type DeliveryLogEntry, type WebhookEmulator, type WebhookOptions } from './webhooks.ts'

/**
 * A stateful local fake of the parts of Stripe Inbox Guard uses (providers.md C, D1, D4), on the shared
 * fake HTTP helper (docs/decisions/004-local-fakes.md). It speaks Stripe's wire protocol under the real
 * paths (`/v1/...`, form-encoded bodies with bracket notation, Stripe's error bodies, Idempotency-Key),
 * so stripe-node runs unchanged with `{ host: '127.0.0.1', port, protocol: 'http' }`. Checkout and the
 * Customer Portal are local HTML pages; webhooks are delivered signed to the configured endpoint; a
 * movable clock drives renewals, failed payments and their retries, and session expiry.
 *
 * Test mode only (`livemode: false`), one account, one webhook endpoint.
 */

/** The secret key the fake accepts unless `apiKey` is given. A demo value, not a secret. */
export const STRIPE_FAKE_API_KEY = 'sk_test_inboxguard_local_fake_0000000000'
/** The webhook signing secret unless one is given. A demo value, not a secret. */
export const STRIPE_FAKE_WEBHOOK_SECRET = 'whsec_inboxguard_local_fake_00000000000000'
/** The standard monthly price configured by default. */
export const STANDARD_MONTHLY_PRICE_ID = 'price_inboxguard_standard_monthly'
/**
 * The account's default API version: the one stripe-node 23.1.0 pins (server.test.ts checks they stay
 * equal when the SDK is upgraded).
 */
export const STRIPE_FAKE_API_VERSION = '2026-10-28.endive'

export const DEFAULT_PRICES: PriceConfig[] = [
  { id: STANDARD_MONTHLY_PRICE_ID, unitAmount: 499, currency: 'usd', interval: 'month', productName: 'Inbox Guard Standard', nickname: 'Standard monthly', lookupKey: 'standard_monthly' },
]

export interface StripeFakeOptions {
  host?: string
  port?: number
  /** The one secret key accepted (default STRIPE_FAKE_API_KEY). */
  apiKey?: string
  /** The account's default API version, used when a request sends no Stripe-Version (default STRIPE_FAKE_API_VERSION). */
  apiVersion?: string
  /** Prices that exist from the start (default: the standard monthly price). */
  prices?: PriceConfig[]
  /** The webhook endpoint at start; can be set later with setWebhookEndpoint. */
  webhookEndpoint?: WebhookEndpointOptions & { url: string }
  webhooks?: WebhookOptions
  /** Days after a failed renewal payment at which it is retried (default 3, 5, 7). */
  paymentRetryDays?: number[]
  /** What a subscription becomes after the last failed retry (default 'cancel', Stripe's default setting). */
  afterFinalFailure?: 'cancel' | 'unpaid'
}

export interface WebhookEndpointOptions {
  /** Default STRIPE_FAKE_WEBHOOK_SECRET. */
  secret?: string
  /** The API version payloads are rendered in (default: the account's). */
  apiVersion?: string
  /** Event types sent (default all: `['*']`). */
  enabledEvents?: string[]
}

export interface CompleteCheckoutOptions {
  /** Default 4242 4242 4242 4242. */
  cardNumber?: string
  email?: string
  name?: string
}

export interface StripeFakeState {
  customers: Array<ReturnType<Billing['renderCustomer']>>
  subscriptions: Array<ReturnType<Billing['renderSubscription']>>
  invoices: Array<ReturnType<Billing['renderInvoice']>>
  checkoutSessions: Array<ReturnType<Billing['renderCheckoutSession']>>
  events: Array<{ id: string; type: string; created: number }>
}

export interface StripeFake {
  /** http://127.0.0.1:port: what the SDK's host/port/protocol point at. */
  url: string
  host: string
  port: number
  apiKey: string
  apiVersion: string
  /** The SDK options that point stripe-node at this fake. */
  sdkOptions(): { host: string; port: number; protocol: 'http' }
  journal: FakeServer['journal']
  clearJournal(): void
  injectFault: FakeServer['injectFault']
  clearFaults(): void
  clock: {
    now(): Date
    /** Moves time forward, running every renewal, payment retry and expiry that falls due on the way, in order. */
    advance(ms: number): void
  }
  /** Where events go (undefined: nowhere) and the secret they are signed with. */
  setWebhookEndpoint(url: string | undefined, secret?: string, options?: Omit<WebhookEndpointOptions, 'secret'>): void
  webhooks: Pick<WebhookEmulator, 'log' | 'duplicateNext' | 'dropNext' | 'delayNext' | 'staleSignatureNext' | 'badSignatureNext' | 'hold' | 'release' | 'idle'>
  /** The next `count` renewals fail to charge (invoice open, subscription past_due, invoice.payment_failed). */
  failNextRenewal(count?: number): void
  /** The customer's saved card declines every later charge (renewals, retries, invoices.pay) until set back. */
  setCardDeclines(customerId: string, declines: boolean): void
  /** What paying on the hosted page does, without the page (D4 `/__admin/checkout/{id}/complete`). */
  completeCheckout(sessionId: string, options?: CompleteCheckoutOptions): { customer: string; subscription: string; invoice: string }
  state(): StripeFakeState
  close(): Promise<void>
}

const API_VERSION_PATTERN = /^\d{4}-\d{2}-\d{2}(\.[a-z]+)?$/
const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'trialing', 'paused', 'all', 'ended']
/** Stripe keeps idempotent results for at least 24 hours. */
const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000

interface Ctx {
  request: FakeRequest
  params: FormParams
  version: string
  context: RequestContext
}

interface StoredResult {
  at: number
  method: string
  path: string
  fingerprint: string
  response: FakeResponse
}

function isUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

function urlParam(params: FormParams, name: string, required: boolean): string | undefined {
  const value = str(params, name)
  if (value === undefined || value === '') {
    if (required) throw missingParam(name)
    return undefined
  }
  if (!isUrl(value)) throw invalidParam(name, 'Not a valid URL', 'url_invalid')
  return value
}

function emailParam(params: FormParams, name: string): string | undefined {
  const value = str(params, name)
  if (value === undefined || value === '') return undefined
  if (!EMAIL.test(value)) throw invalidParam(name, `Invalid email address: ${value}`, 'email_invalid')
  return value
}

function buildPrices(configs: PriceConfig[], now: number): Price[] {
  return configs.map((c) => ({
    id: c.id ?? newId('price'),
    productId: newId('prod'),
    productName: c.productName ?? 'Subscription',
    unitAmount: c.unitAmount,
    currency: (c.currency ?? 'usd').toLowerCase(),
    interval: c.interval ?? 'month',
    intervalCount: c.intervalCount ?? 1,
    nickname: c.nickname ?? null,
    lookupKey: c.lookupKey ?? null,
    created: Math.floor(now / 1000),
  }))
}

export async function startStripeFake(options: StripeFakeOptions = {}): Promise<StripeFake> {
  const apiKey = options.apiKey ?? STRIPE_FAKE_API_KEY
  const accountVersion = options.apiVersion ?? STRIPE_FAKE_API_VERSION
  if (!API_VERSION_PATTERN.test(accountVersion)) throw new Error(`Invalid API version ${accountVersion}`)
  let clockOffset = 0
  const now = () => Date.now() + clockOffset
  const idempotent = new Map<string, StoredResult>()
  // The origin is known only after listen; pages and URLs read it lazily.
  let origin = ''

  const webhooks = createWebhookEmulator(
    options.webhooks ?? {},
    (eventId, version) => billing.renderEvent(billing.events.get(eventId)!, version),
    now,
    (eventId) => {
      const event = billing.events.get(eventId)
      if (event) event.pendingWebhooks = 0
    },
  )

  const billing: Billing = new Billing({
    now,
    get origin() {
      return origin
    },
    prices: buildPrices(options.prices ?? DEFAULT_PRICES, now()),
    paymentRetryDays: options.paymentRetryDays,
    afterFinalFailure: options.afterFinalFailure,
    onEvent: (event: StoredEvent) => {
      if (webhooks.publish({ id: event.id, type: event.type })) event.pendingWebhooks = 1
    },
  })

  function setEndpoint(url: string | undefined, endpoint: WebhookEndpointOptions = {}) {
    const version = endpoint.apiVersion ?? accountVersion
    if (!API_VERSION_PATTERN.test(version)) throw new Error(`Invalid API version ${version}`)
    webhooks.setEndpoint(url === undefined ? undefined : { url, secret: endpoint.secret ?? STRIPE_FAKE_WEBHOOK_SECRET, apiVersion: version, enabledEvents: endpoint.enabledEvents ?? ['*'] })
  }
  if (options.webhookEndpoint) setEndpoint(options.webhookEndpoint.url, options.webhookEndpoint)

  // ---- authentication, versions, idempotency ----

  function authenticate(request: FakeRequest) {
    const header = (request.headers.authorization ?? '').trim()
    let key: string | undefined
    const bearer = /^Bearer\s+(\S+)$/i.exec(header)
    if (bearer) key = bearer[1]
    const basic = /^Basic\s+(\S+)$/i.exec(header)
    if (basic) key = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')[0]
    const unauthorized = (message: string) =>
      new FakeHttpError(401, stripeErrorBody('invalid_request_error', message), { 'WWW-Authenticate': 'Bearer realm="Stripe"' }, 'unauthorized')
    if (!key) {
      throw unauthorized(
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
      )
    }
    if (key !== apiKey) {
      request.note('auth', 'invalid_key')
      throw unauthorized(`Invalid API Key provided: ${maskKey(key)}`)
    }
  }

  function versionOf(request: FakeRequest): string {
    const header = request.headers['stripe-version']
    const version = (Array.isArray(header) ? header[0] : header)?.trim()
    if (!version) return accountVersion
    if (!API_VERSION_PATTERN.test(version)) throw stripeError(400, 'invalid_request_error', `Invalid Stripe API version: ${version}`)
    return version
  }

  /** Replaces ids at the `expand[]` paths with the objects (`customer`, `subscription.latest_invoice`, `data.customer`). */
  function applyExpand(target: Record<string, unknown>, paths: string[]) {
    for (const path of paths) {
      const segments = path.split('.')
      if (segments.length > 4) throw invalidParam('expand', `You cannot expand more than 4 levels of a property. Property: ${path}`)
      const walk = (obj: Record<string, unknown>, segs: string[]) => {
        const [head, ...rest] = segs
        const value = obj[head!]
        if (Array.isArray(value)) {
          for (const element of value) if (element && typeof element === 'object') walk(element as Record<string, unknown>, rest.length ? rest : [])
          return
        }
        let next = value
        if (typeof value === 'string') next = billing.render(value)
        if (next === undefined || next === null || typeof next !== 'object') {
          if (value === null) return
          throw invalidParam('expand', `This property cannot be expanded (${path}).`)
        }
        obj[head!] = next
        if (rest.length) walk(next as Record<string, unknown>, rest)
      }
      walk(target, segments)
    }
    return target
  }

  function respond(ctx: Ctx, object: Record<string, unknown>, extraExpand: (o: Record<string, unknown>, paths: string[]) => string[] = (_o, p) => p) {
    const paths = extraExpand(object, expandOf(ctx.params))
    return json(200, toApiVersion(applyExpand(object, paths), ctx.version))
  }

  /** An API route: key check, Stripe-Version, parameters, Request-Id, and Idempotency-Key on POST. */
  function api(method: string, pattern: string, endpoint: string, handle: (ctx: Ctx) => FakeResponse): FakeRoute {
    return {
      method,
      pattern,
      endpoint,
      handle: (request) => {
        const requestId = newId('req')
        const baseHeaders = { 'Request-Id': requestId }
        const withHeaders = (response: FakeResponse, extra: Record<string, string> = {}): FakeResponse => ({ ...response, headers: { ...response.headers, ...baseHeaders, ...extra } })
        const fail = (error: unknown): never => {
          if (error instanceof FakeHttpError) throw new FakeHttpError(error.status, error.body, { ...error.headers, ...baseHeaders }, error.code)
          throw error
        }
        try {
          authenticate(request)
          const version = versionOf(request)
          const rawKey = request.headers['idempotency-key']
          const key = method === 'POST' ? (Array.isArray(rawKey) ? rawKey[0] : rawKey) : undefined
          const print = fingerprint(request.url.searchParams, request.body)
          if (key !== undefined) {
            if (key.length > 255) throw invalidParam('idempotency_key', 'Idempotency-Key must be at most 255 characters long.', 'idempotency_key_in_use')
            const stored = idempotent.get(key)
            if (stored && now() - stored.at < IDEMPOTENCY_TTL_MS) {
              if (stored.method !== method || stored.path !== request.path || stored.fingerprint !== print) {
                throw stripeError(
                  400,
                  'idempotency_error',
                  `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
                )
              }
              request.note('idempotentReplay', true)
              return withHeaders(stored.response, { 'Idempotent-Replayed': 'true', 'Idempotency-Key': key, 'Stripe-Version': version })
            }
          }
          const params = requestParams(request.url.searchParams, request.body)
          const context: RequestContext = { id: requestId, idempotencyKey: key ?? null }
          let response: FakeResponse
          try {
            response = handle({ request, params, version, context })
          } catch (error) {
            // Stripe saves the result once the endpoint began executing: card errors are replayed too.
            if (key !== undefined && error instanceof FakeHttpError && error.status === 402) {
              idempotent.set(key, { at: now(), method, path: request.path, fingerprint: print, response: { status: 402, body: error.body } })
            }
            throw error
          }
          if (key !== undefined) idempotent.set(key, { at: now(), method, path: request.path, fingerprint: print, response })
          return withHeaders(response, { 'Stripe-Version': version, ...(key !== undefined ? { 'Idempotency-Key': key } : {}) })
        } catch (error) {
          return fail(error)
        }
      },
    }
  }

  /** Stripe lists: newest first, `limit` 1-100 (default 10), `starting_after` / `ending_before` cursors. */
  function list<T extends { id: string; created: number }>(ctx: Ctx, items: T[], render: (item: T) => Record<string, unknown>, url: string, kind: string) {
    const limit = int(ctx.params, 'limit') ?? 10
    if (limit < 1 || limit > 100) throw invalidParam('limit', 'This value must be greater than or equal to 1 and less than or equal to 100.', 'parameter_invalid_integer')
    // Newest first; among equal times, the later created first.
    const sorted = items
      .map((item, index) => ({ item, index }))
      .sort((a, b) => b.item.created - a.item.created || b.index - a.index)
      .map((x) => x.item)
    let start = 0
    let end = sorted.length
    const after = str(ctx.params, 'starting_after')
    const before = str(ctx.params, 'ending_before')
    if (after !== undefined) {
      const i = sorted.findIndex((x) => x.id === after)
      if (i < 0) throw noSuchParam(kind, after, 'starting_after')
      start = i + 1
    }
    let page: T[]
    if (before !== undefined) {
      const i = sorted.findIndex((x) => x.id === before)
      if (i < 0) throw noSuchParam(kind, before, 'ending_before')
      end = i
      page = sorted.slice(Math.max(start, end - limit), end)
    } else page = sorted.slice(start, start + limit)
    const hasMore = before !== undefined ? sorted.indexOf(page[0]!) > start : start + page.length < end
    return respond(ctx, { object: 'list', data: page.map(render), has_more: page.length > 0 && hasMore, url })
  }

  // ---- lookups ----

  const customerOr404 = (id: string) => billing.customers.get(id) ?? fail404('customer', id)
  const subscriptionOr404 = (id: string) => billing.subscriptions.get(id) ?? fail404('subscription', id)
  const invoiceOr404 = (id: string) => billing.invoices.get(id) ?? fail404('invoice', id)
  function fail404(kind: string, id: string): never {
    throw noSuch(kind, id)
  }

  function customerFields(params: FormParams) {
    const nullable = (name: string) => {
      const v = str(params, name)
      return v === undefined ? undefined : v === '' ? null : v
    }
    const email = params.email === '' ? null : emailParam(params, 'email')
    return { email, name: nullable('name'), description: nullable('description'), phone: nullable('phone'), metadata: metadataOf(params) }
  }

  function lineItems(params: FormParams): Array<{ priceId: string; quantity: number }> {
    const raw: FormValue | undefined = params.line_items
    if (raw === undefined) throw missingParam('line_items')
    const items = Array.isArray(raw) ? raw : typeof raw === 'object' ? Object.values(raw) : null
    if (!items || items.length === 0) throw invalidParam('line_items', 'Invalid array', 'parameter_invalid_array')
    if (items.length > 1) throw invalidParam('line_items', 'The local Stripe fake models subscriptions with one line item.', 'parameter_unknown')
    return items.map((item, i) => {
      if (!item || typeof item !== 'object' || Array.isArray(item)) throw invalidParam(`line_items[${i}]`, 'Invalid hash', 'parameter_invalid_hash')
      const li = item as FormParams
      for (const key of Object.keys(li)) if (key !== 'price' && key !== 'quantity') throw invalidParam(`line_items[${i}][${key}]`, `Received unknown parameter: line_items[${i}][${key}]`, 'parameter_unknown')
      const priceId = str(li, 'price')
      if (!priceId) throw missingParam(`line_items[${i}][price]`)
      const price = billing.prices.get(priceId)
      if (!price) throw noSuchParam('price', priceId, `line_items[${i}][price]`)
      const quantityText = str(li, 'quantity')
      if (quantityText === undefined) throw missingParam(`line_items[${i}][quantity]`)
      if (!/^\d+$/.test(quantityText) || Number(quantityText) < 1) throw invalidParam(`line_items[${i}][quantity]`, `Invalid integer: ${quantityText}`, 'parameter_invalid_integer')
      return { priceId, quantity: Number(quantityText) }
    })
  }

  function lineItemsList(sessionId: string) {
    const session = billing.checkoutSessions.get(sessionId)!
    return {
      object: 'list',
      data: session.lineItems.map((li, i) => {
        const price = billing.prices.get(li.priceId)!
        return {
          id: `li_${sessionId.slice(8, 30)}${i}`,
          object: 'item',
          amount_discount: 0,
          amount_subtotal: price.unitAmount * li.quantity,
          amount_tax: 0,
          amount_total: price.unitAmount * li.quantity,
          currency: price.currency,
          description: price.productName,
          price: billing.renderPrice(price),
          quantity: li.quantity,
        }
      }),
      has_more: false,
      url: `/v1/checkout/sessions/${sessionId}/line_items`,
    }
  }

  /** `line_items` is includable, not an id: `expand[]=line_items` adds the list. */
  const includeLineItems = (object: Record<string, unknown>, paths: string[]) => {
    if (paths.includes('line_items')) object.line_items = lineItemsList(String(object.id))
    return paths.filter((p) => p !== 'line_items')
  }

  function requireUpdatable(sub: Subscription) {
    if (sub.status === 'canceled') throw stripeError(400, 'invalid_request_error', 'A canceled subscription can only update its cancellation_details and metadata.')
  }

  // ---- routes ----

  const routes: FakeRoute[] = [
    api('POST', '/v1/customers', 'customers.create', (ctx) => {
      allowOnly(ctx.params, ['email', 'name', 'description', 'phone', 'metadata'])
      const fields = customerFields(ctx.params)
      return respond(ctx, billing.renderCustomer(billing.createCustomer(fields, ctx.context)))
    }),
    api('GET', '/v1/customers', 'customers.list', (ctx) => {
      allowOnly(ctx.params, ['email', 'limit', 'starting_after', 'ending_before'])
      const email = str(ctx.params, 'email')
      // Stripe matches the email case-sensitively.
      const all = [...billing.customers.values()].filter((c) => email === undefined || c.email === email)
      return list(ctx, all, (c) => billing.renderCustomer(c), '/v1/customers', 'customer')
    }),
    api('GET', '/v1/customers/:id', 'customers.retrieve', (ctx) => respond(ctx, billing.renderCustomer(customerOr404(ctx.request.params.id ?? '')))),
    api('POST', '/v1/customers/:id', 'customers.update', (ctx) => {
      const customer = customerOr404(ctx.request.params.id ?? '')
      allowOnly(ctx.params, ['email', 'name', 'description', 'phone', 'metadata'])
      return respond(ctx, billing.renderCustomer(billing.updateCustomer(customer, customerFields(ctx.params), ctx.context)))
    }),
    api('GET', '/v1/prices', 'prices.list', (ctx) => {
      allowOnly(ctx.params, ['active', 'lookup_keys', 'limit', 'starting_after', 'ending_before', 'type'])
      const raw = ctx.params.lookup_keys
      const keys = raw === undefined ? undefined : (Array.isArray(raw) ? raw : typeof raw === 'object' ? Object.values(raw) : [raw]).map(String)
      const active = bool(ctx.params, 'active')
      const all = [...billing.prices.values()].filter((p) => (keys === undefined || (p.lookupKey !== null && keys.includes(p.lookupKey))) && active !== false)
      return list(ctx, all, (p) => billing.renderPrice(p), '/v1/prices', 'price')
    }),
    api('GET', '/v1/prices/:id', 'prices.retrieve', (ctx) => {
      const id = ctx.request.params.id ?? ''
      const price = billing.prices.get(id)
      if (!price) throw noSuch('price', id)
      return respond(ctx, billing.renderPrice(price))
    }),
    api('POST', '/v1/checkout/sessions', 'checkout.sessions.create', (ctx) => {
      const p = ctx.params
      allowOnly(p, ['mode', 'customer', 'customer_email', 'line_items', 'client_reference_id', 'success_url', 'cancel_url', 'metadata', 'subscription_data', 'allow_promotion_codes', 'expires_at'])
      const mode = str(p, 'mode')
      if (!mode) throw missingParam('mode')
      if (!['payment', 'setup', 'subscription'].includes(mode)) throw invalidParam('mode', 'Invalid mode: must be one of payment, setup, or subscription', 'parameter_invalid_string')
      if (mode !== 'subscription') throw invalidParam('mode', `The local Stripe fake models only mode=subscription (got ${mode}).`, 'parameter_invalid_string')
      const customerId = str(p, 'customer') || undefined
      const customerEmail = emailParam(p, 'customer_email')
      if (customerId && customerEmail) throw invalidParam('customer_email', 'You may only specify one of these parameters: customer, customer_email.', 'parameter_invalid_string')
      if (customerId && !billing.customers.has(customerId)) throw noSuchParam('customer', customerId, 'customer')
      const items = lineItems(p)
      const successUrl = urlParam(p, 'success_url', true)!
      const cancelUrl = urlParam(p, 'cancel_url', false) ?? null
      const clientReferenceId = str(p, 'client_reference_id') || null
      if (clientReferenceId && clientReferenceId.length > 200) throw invalidParam('client_reference_id', 'client_reference_id must be at most 200 characters long.')
      const subscriptionData = p.subscription_data
      let subscriptionMetadata: Record<string, string> = {}
      if (subscriptionData !== undefined) {
        if (typeof subscriptionData !== 'object' || Array.isArray(subscriptionData)) throw invalidParam('subscription_data', 'Invalid hash', 'parameter_invalid_hash')
        for (const key of Object.keys(subscriptionData)) if (key !== 'metadata') throw invalidParam(`subscription_data[${key}]`, `Received unknown parameter: subscription_data[${key}]`, 'parameter_unknown')
        subscriptionMetadata = metadataOf(subscriptionData, 'metadata') ?? {}
      }
      const expiresAt = int(p, 'expires_at')
      const nowSeconds = billing.seconds()
      if (expiresAt !== undefined && (expiresAt < nowSeconds + 1800 || expiresAt > nowSeconds + CHECKOUT_TTL_SECONDS)) {
        throw invalidParam('expires_at', 'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.', 'parameter_invalid_integer')
      }
      const session = billing.createCheckoutSession({
        customerId: customerId ?? null,
        customerEmail: customerEmail ?? null,
        clientReferenceId,
        successUrl,
        cancelUrl,
        metadata: metadataOf(p) ?? {},
        subscriptionMetadata,
        lineItems: items,
        allowPromotionCodes: bool(p, 'allow_promotion_codes') ?? null,
        ...(expiresAt !== undefined ? { expiresAt } : {}),
      })
      return respond(ctx, billing.renderCheckoutSession(session), includeLineItems)
    }),
    api('GET', '/v1/checkout/sessions/:id', 'checkout.sessions.retrieve', (ctx) => {
      const id = ctx.request.params.id ?? ''
      const session = billing.checkoutSessions.get(id)
      if (!session) throw noSuch('checkout.session', id)
      return respond(ctx, billing.renderCheckoutSession(session), includeLineItems)
    }),
    api('POST', '/v1/checkout/sessions/:id/expire', 'checkout.sessions.expire', (ctx) => {
      const id = ctx.request.params.id ?? ''
      const session = billing.checkoutSessions.get(id)
      if (!session) throw noSuch('checkout.session', id)
      if (session.status !== 'open') throw stripeError(400, 'invalid_request_error', `Only Checkout Sessions with a status in ["open"] can be expired.`)
      billing.expireCheckoutSession(session, ctx.context)
      return respond(ctx, billing.renderCheckoutSession(session))
    }),
    api('POST', '/v1/billing_portal/sessions', 'billing_portal.sessions.create', (ctx) => {
      allowOnly(ctx.params, ['customer', 'return_url'])
      const customerId = str(ctx.params, 'customer')
      if (!customerId) throw missingParam('customer')
      if (!billing.customers.has(customerId)) throw noSuchParam('customer', customerId, 'customer')
      const returnUrl = urlParam(ctx.params, 'return_url', false) ?? null
      return respond(ctx, billing.renderPortalSession(billing.createPortalSession(customerId, returnUrl)))
    }),
    api('GET', '/v1/subscriptions', 'subscriptions.list', (ctx) => {
      allowOnly(ctx.params, ['customer', 'status', 'price', 'limit', 'starting_after', 'ending_before'])
      const customer = str(ctx.params, 'customer')
      const price = str(ctx.params, 'price')
      const status = str(ctx.params, 'status')
      if (status !== undefined && !SUBSCRIPTION_STATUSES.includes(status)) {
        throw invalidParam('status', `Invalid status: must be one of ${SUBSCRIPTION_STATUSES.join(', ')}`, 'parameter_invalid_string')
      }
      const statusMatches = (s: Subscription) =>
        status === undefined ? s.status !== 'canceled' && s.status !== 'incomplete_expired' : status === 'all' ? true : status === 'ended' ? s.status === 'canceled' || s.status === 'incomplete_expired' : s.status === status
      const all = [...billing.subscriptions.values()].filter((s) => (customer === undefined || s.customerId === customer) && (price === undefined || s.priceId === price) && statusMatches(s))
      return list(ctx, all, (s) => billing.renderSubscription(s), '/v1/subscriptions', 'subscription')
    }),
    api('GET', '/v1/subscriptions/:id', 'subscriptions.retrieve', (ctx) => respond(ctx, billing.renderSubscription(subscriptionOr404(ctx.request.params.id ?? '')))),
    api('POST', '/v1/subscriptions/:id', 'subscriptions.update', (ctx) => {
      const sub = subscriptionOr404(ctx.request.params.id ?? '')
      allowOnly(ctx.params, ['cancel_at_period_end', 'metadata'])
      const cancel = bool(ctx.params, 'cancel_at_period_end')
      const metadata = metadataOf(ctx.params)
      if (cancel !== undefined) {
        requireUpdatable(sub)
        billing.setCancelAtPeriodEnd(sub, cancel, ctx.context)
      }
      if (metadata !== undefined) billing.updateSubscriptionMetadata(sub, metadata, ctx.context)
      return respond(ctx, billing.renderSubscription(sub))
    }),
    api('DELETE', '/v1/subscriptions/:id', 'subscriptions.cancel', (ctx) => {
      const sub = subscriptionOr404(ctx.request.params.id ?? '')
      // invoice_now and prorate are accepted; the fake issues no final or prorated invoice (README).
      allowOnly(ctx.params, ['invoice_now', 'prorate'])
      bool(ctx.params, 'invoice_now')
      bool(ctx.params, 'prorate')
      requireUpdatable(sub)
      billing.cancelNow(sub, ctx.context)
      return respond(ctx, billing.renderSubscription(sub))
    }),
    api('GET', '/v1/invoices', 'invoices.list', (ctx) => {
      allowOnly(ctx.params, ['customer', 'subscription', 'status', 'limit', 'starting_after', 'ending_before'])
      const customer = str(ctx.params, 'customer')
      const subscription = str(ctx.params, 'subscription')
      const status = str(ctx.params, 'status')
      if (status !== undefined && !['draft', 'open', 'paid', 'uncollectible', 'void'].includes(status)) {
        throw invalidParam('status', 'Invalid status: must be one of draft, open, paid, uncollectible, or void', 'parameter_invalid_string')
      }
      const all = [...billing.invoices.values()].filter(
        (i) => (customer === undefined || i.customerId === customer) && (subscription === undefined || i.subscriptionId === subscription) && (status === undefined || i.status === status),
      )
      return list(ctx, all, (i) => billing.renderInvoice(i), '/v1/invoices', 'invoice')
    }),
    api('GET', '/v1/invoices/:id', 'invoices.retrieve', (ctx) => respond(ctx, billing.renderInvoice(invoiceOr404(ctx.request.params.id ?? '')))),
    api('POST', '/v1/invoices/:id/pay', 'invoices.pay', (ctx) => {
      const invoice = invoiceOr404(ctx.request.params.id ?? '')
      allowOnly(ctx.params, [])
      if (invoice.status === 'paid') throw stripeError(400, 'invalid_request_error', 'Invoice is already paid.')
      if (invoice.status !== 'open') throw stripeError(400, 'invalid_request_error', `You can only pay an invoice with a status of open (this one is ${invoice.status}).`)
      if (!billing.payInvoice(invoice, ctx.context)) {
        throw stripeError(402, 'card_error', 'Your card was declined.', { code: 'card_declined', declineCode: 'generic_decline' })
      }
      return respond(ctx, billing.renderInvoice(invoice))
    }),
    api('GET', '/v1/events', 'events.list', (ctx) => {
      allowOnly(ctx.params, ['type', 'limit', 'starting_after', 'ending_before'])
      const type = str(ctx.params, 'type')
      const matches = (t: string) => type === undefined || t === type || (type.endsWith('*') && t.startsWith(type.slice(0, -1)))
      const all = [...billing.events.values()].filter((e) => matches(e.type))
      return list(ctx, all, (e) => billing.renderEvent(e, ctx.version), '/v1/events', 'event')
    }),
    api('GET', '/v1/events/:id', 'events.retrieve', (ctx) => {
      const id = ctx.request.params.id ?? ''
      const event = billing.events.get(id)
      if (!event) throw noSuch('event', id)
      return json(200, billing.renderEvent(event, ctx.version))
    }),
    ...hostedPages(),
  ]

  // ---- hosted pages ----

  function formOf(request: FakeRequest): Record<string, string> {
    return Object.fromEntries(new URLSearchParams(request.body))
  }

  function checkoutView(sessionId: string, status: number, extra: { error?: string; values?: Parameters<typeof checkoutPage>[1]['values'] } = {}): FakeResponse {
    const session = billing.checkoutSessions.get(sessionId)!
    const item = session.lineItems[0]!
    const price = billing.prices.get(item.priceId)!
    const customer = session.customerId ? billing.customers.get(session.customerId) : undefined
    return checkoutPage(status, {
      action: `/c/pay/${session.id}`,
      productName: price.productName,
      amount: money(price.unitAmount * item.quantity, price.currency),
      interval: price.intervalCount === 1 ? price.interval : `${price.intervalCount} ${price.interval}s`,
      email: customer?.email ?? session.customerEmail,
      emailLocked: Boolean(customer?.email),
      cancelUrl: session.cancelUrl,
      ...extra,
    })
  }

  function closedSessionPage(sessionId: string): FakeResponse | undefined {
    const session = billing.checkoutSessions.get(sessionId)
    if (!session) return messagePage(404, 'Something went wrong', 'The page you were looking for could not be found. Please check the URL or contact the merchant.')
    if (session.status === 'complete') return messagePage(200, 'Thanks for your payment', 'This checkout session is already complete.', { href: successUrl(session.successUrl, session.id), text: 'Continue' })
    if (session.status === 'expired') {
      return messagePage(410, 'This checkout session has expired', 'Go back and start again.', session.cancelUrl ? { href: session.cancelUrl, text: 'Go back' } : undefined)
    }
    return undefined
  }

  /** Stripe substitutes the literal `{CHECKOUT_SESSION_ID}` (also when URL-encoded) in success_url. */
  function successUrl(template: string, sessionId: string): string {
    return template.replaceAll('{CHECKOUT_SESSION_ID}', sessionId).replaceAll('%7BCHECKOUT_SESSION_ID%7D', sessionId)
  }

  function pay(sessionId: string, input: { cardNumber: string; expiry?: string; cvc?: string; email?: string; name?: string }): { ok: true } | { ok: false; message: string } {
    const session = billing.checkoutSessions.get(sessionId)!
    const customer = session.customerId ? billing.customers.get(session.customerId) : undefined
    const email = customer?.email ?? (input.email?.trim() || session.customerEmail)
    if (!email || !EMAIL.test(email)) return { ok: false, message: 'Your email address is invalid.' }
    const card = checkCard({ number: input.cardNumber, expiry: input.expiry, cvc: input.cvc }, new Date(now()))
    if (!card.ok) return { ok: false, message: card.message }
    billing.completeCheckout(session, { card: { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear }, email, name: input.name?.trim() || null })
    return { ok: true }
  }

  function hostedPages(): FakeRoute[] {
    return [
      {
        method: 'GET',
        pattern: '/c/pay/:id',
        endpoint: 'checkout.page',
        handle: (r) => closedSessionPage(r.params.id ?? '') ?? checkoutView(r.params.id ?? '', 200),
      },
      {
        method: 'POST',
        pattern: '/c/pay/:id',
        endpoint: 'checkout.pay',
        handle: (r) => {
          const id = r.params.id ?? ''
          const closed = closedSessionPage(id)
          if (closed) return closed
          const form = formOf(r)
          const input = { cardNumber: form.cardNumber ?? '', expiry: form.cardExpiry, cvc: form.cardCvc, email: form.email, name: form.billingName }
          const result = pay(id, input)
          if (!result.ok) {
            r.note('outcome', 'declined')
            return checkoutView(id, 402, { error: result.message, values: { email: form.email, name: form.billingName, cardNumber: form.cardNumber, expiry: form.cardExpiry, cvc: form.cardCvc } })
          }
          r.note('outcome', 'paid')
          const session = billing.checkoutSessions.get(id)!
          return { status: 303, headers: { Location: successUrl(session.successUrl, session.id) } }
        },
      },
      {
        method: 'GET',
        pattern: '/p/session/:token',
        endpoint: 'portal.page',
        handle: (r) => portalView(r.params.token ?? '', r.url.searchParams.get('message') ?? undefined),
      },
      {
        method: 'POST',
        pattern: '/p/session/:token',
        endpoint: 'portal.action',
        handle: (r) => {
          const token = r.params.token ?? ''
          const session = billing.portalSessions.get(token)
          if (!session) return portalView(token)
          const form = formOf(r)
          const sub = billing.subscriptions.get(form.subscription ?? '')
          if (!sub || sub.customerId !== session.customerId) return messagePage(404, 'Subscription not found', 'This subscription does not belong to this customer.')
          if (sub.status === 'canceled') return messagePage(409, 'Subscription already canceled', 'This subscription has already ended.')
          let message: string
          if (form.action === 'cancel_at_period_end') {
            billing.setCancelAtPeriodEnd(sub, true, null)
            message = 'Your subscription will be canceled at the end of the billing period.'
          } else if (form.action === 'resume') {
            billing.setCancelAtPeriodEnd(sub, false, null)
            message = 'Your subscription has been renewed.'
          } else if (form.action === 'cancel_now') {
            billing.cancelNow(sub, null)
            message = 'Your subscription has been canceled.'
          } else return messagePage(400, 'Unknown action', 'Choose one of the buttons on the portal page.')
          r.note('action', form.action)
          return { status: 303, headers: { Location: `/p/session/${token}?message=${encodeURIComponent(message)}` } }
        },
      },
      {
        method: 'GET',
        pattern: '/i/:token',
        endpoint: 'invoice.page',
        handle: (r) => {
          const invoice = [...billing.invoices.values()].find((i) => i.token === r.params.token)
          if (!invoice) return messagePage(404, 'Invoice not found', 'This invoice link is not valid.')
          const price = billing.prices.get(invoice.priceId)!
          return invoicePage({
            number: invoice.number,
            amount: money(invoice.amount, invoice.currency),
            status: invoice.status,
            created: invoice.created,
            periodStart: invoice.periodStart,
            periodEnd: invoice.periodEnd,
            description: `${invoice.quantity} × ${price.productName}`,
          })
        },
      },
    ]
  }

  function portalView(token: string, message?: string): FakeResponse {
    const session = billing.portalSessions.get(token)
    if (!session) return messagePage(404, 'This link has expired', 'Go back to the app and open the billing portal again.')
    const customer = billing.customers.get(session.customerId)!
    const subs = [...billing.subscriptions.values()].filter((s) => s.customerId === customer.id).sort((a, b) => b.created - a.created)
    const invoices = [...billing.invoices.values()].filter((i) => i.customerId === customer.id).sort((a, b) => b.created - a.created)
    return portalPage({
      action: `/p/session/${token}`,
      email: customer.email,
      returnUrl: session.returnUrl,
      message,
      subscriptions: subs.map((s) => {
        const price = billing.prices.get(s.priceId)!
        return {
          id: s.id,
          productName: price.productName,
          amount: money(price.unitAmount * s.quantity, price.currency),
          interval: price.interval,
          status: s.status,
          periodEnd: s.periodEnd,
          cancelAtPeriodEnd: s.cancelAtPeriodEnd,
        }
      }),
      invoices: invoices.map((i: Invoice) => ({ number: i.number, created: i.created, amount: money(i.amount, i.currency), status: i.status, url: `/i/${i.token}` })),
    })
  }

  // ---- admin ----

  const adminBody = (request: FakeRequest) => parseJson<Record<string, unknown>>(request, { error: 'invalid_json' })
  const wrap = (fn: (r: FakeRequest) => unknown) => async (r: FakeRequest) => {
    try {
      return json(200, (await fn(r)) ?? {})
    } catch (error) {
      if (error instanceof FakeHttpError) throw error
      throw new FakeHttpError(400, { error: error instanceof Error ? error.message : String(error) }, {}, 'invalid_request')
    }
  }
  const count = (r: FakeRequest) => Number(adminBody(r).count ?? 1)
  const adminRoutes: FakeRoute[] = [
    { method: 'GET', pattern: '/__admin/clock', endpoint: 'admin', handle: () => json(200, { now: new Date(now()).toISOString(), unix: Math.floor(now() / 1000) }) },
    { method: 'POST', pattern: '/__admin/clock/advance', endpoint: 'admin', handle: wrap((r) => fake.clock.advance(Number(adminBody(r).ms))) },
    {
      method: 'POST',
      pattern: '/__admin/webhooks/endpoint',
      endpoint: 'admin',
      handle: wrap((r) => {
        const b = adminBody(r)
        fake.setWebhookEndpoint(typeof b.url === 'string' ? b.url : undefined, typeof b.secret === 'string' ? b.secret : undefined, {
          ...(typeof b.apiVersion === 'string' ? { apiVersion: b.apiVersion } : {}),
          ...(Array.isArray(b.enabledEvents) ? { enabledEvents: b.enabledEvents.map(String) } : {}),
        })
      }),
    },
    { method: 'GET', pattern: '/__admin/webhooks/log', endpoint: 'admin', handle: () => json(200, webhooks.log) },
    { method: 'POST', pattern: '/__admin/webhooks/idle', endpoint: 'admin', handle: wrap(() => webhooks.idle()) },
    { method: 'POST', pattern: '/__admin/webhooks/duplicate', endpoint: 'admin', handle: wrap((r) => webhooks.duplicateNext(count(r))) },
    { method: 'POST', pattern: '/__admin/webhooks/drop', endpoint: 'admin', handle: wrap((r) => webhooks.dropNext(count(r))) },
    { method: 'POST', pattern: '/__admin/webhooks/delay', endpoint: 'admin', handle: wrap((r) => webhooks.delayNext(Number(adminBody(r).ms), count(r))) },
    { method: 'POST', pattern: '/__admin/webhooks/stale-signature', endpoint: 'admin', handle: wrap((r) => webhooks.staleSignatureNext(count(r))) },
    { method: 'POST', pattern: '/__admin/webhooks/bad-signature', endpoint: 'admin', handle: wrap((r) => webhooks.badSignatureNext(count(r))) },
    { method: 'POST', pattern: '/__admin/webhooks/hold', endpoint: 'admin', handle: wrap(() => webhooks.hold()) },
    { method: 'POST', pattern: '/__admin/webhooks/release', endpoint: 'admin', handle: wrap((r) => webhooks.release(adminBody(r).order === 'fifo' ? 'fifo' : 'reverse')) },
    { method: 'POST', pattern: '/__admin/renewals/fail-next', endpoint: 'admin', handle: wrap((r) => fake.failNextRenewal(count(r))) },
    {
      method: 'POST',
      pattern: '/__admin/customers/:id/card-declines',
      endpoint: 'admin',
      handle: wrap((r) => fake.setCardDeclines(r.params.id ?? '', adminBody(r).declines !== false)),
    },
    {
      method: 'POST',
      pattern: '/__admin/checkout/:id/complete',
      endpoint: 'admin',
      handle: wrap((r) => {
        const b = adminBody(r)
        return fake.completeCheckout(r.params.id ?? '', {
          ...(typeof b.cardNumber === 'string' ? { cardNumber: b.cardNumber } : {}),
          ...(typeof b.email === 'string' ? { email: b.email } : {}),
          ...(typeof b.name === 'string' ? { name: b.name } : {}),
        })
      }),
    },
    { method: 'GET', pattern: '/__admin/state', endpoint: 'admin', handle: () => json(200, fake.state()) },
  ]

  const server = await startFakeServer({
    host: options.host,
    port: options.port,
    routes,
    adminRoutes,
    now,
    faultBody: (status) => stripeFaultBody(status),
    notFoundBody: (path) =>
      stripeErrorBody('invalid_request_error', `Unrecognized request URL (${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`),
  })
  origin = server.origin
  const address = new URL(server.origin)

  const fake: StripeFake = {
    url: server.origin,
    host: address.hostname,
    port: Number(address.port),
    apiKey,
    apiVersion: accountVersion,
    sdkOptions: () => ({ host: address.hostname, port: Number(address.port), protocol: 'http' }),
    journal: server.journal,
    clearJournal: server.clearJournal,
    injectFault: (fault) => server.injectFault(fault),
    clearFaults: server.clearFaults,
    clock: {
      now: () => new Date(now()),
      advance(ms) {
        if (!Number.isFinite(ms) || ms < 0) throw new Error('ms must be a non-negative number')
        const target = now() + ms
        // Step through every due moment in order, so events carry the time they happened.
        for (let guard = 0; guard < 10_000; guard++) {
          const due = billing.nextDue(Math.floor(target / 1000))
          if (due === undefined) break
          clockOffset += Math.max(0, due * 1000 - now())
          billing.runDue()
        }
        clockOffset += Math.max(0, target - now())
      },
    },
    setWebhookEndpoint(url, secret, endpointOptions = {}) {
      setEndpoint(url, { ...endpointOptions, ...(secret !== undefined ? { secret } : {}) })
    },
    webhooks: {
      log: webhooks.log,
      duplicateNext: webhooks.duplicateNext,
      dropNext: webhooks.dropNext,
      delayNext: webhooks.delayNext,
      staleSignatureNext: webhooks.staleSignatureNext,
      badSignatureNext: webhooks.badSignatureNext,
      hold: webhooks.hold,
      release: webhooks.release,
      idle: webhooks.idle,
    },
    failNextRenewal(n = 1) {
      billing.failRenewals += n
    },
    setCardDeclines(customerId, declines) {
      const customer: Customer | undefined = billing.customers.get(customerId)
      if (!customer) throw new Error(`No such customer: ${customerId}`)
      if (!customer.card) throw new Error(`Customer ${customerId} has no saved card`)
      customer.card.declines = declines
    },
    completeCheckout(sessionId, completion = {}) {
      const session = billing.checkoutSessions.get(sessionId)
      if (!session) throw new Error(`No such checkout.session: ${sessionId}`)
      if (session.status !== 'open') throw new Error(`Checkout session ${sessionId} is ${session.status}`)
      const result = pay(sessionId, { cardNumber: completion.cardNumber ?? '4242424242424242', email: completion.email, name: completion.name })
      if (!result.ok) throw new Error(result.message)
      return { customer: session.customerId!, subscription: session.subscriptionId!, invoice: session.invoiceId! }
    },
    state: () => ({
      customers: [...billing.customers.values()].map((c) => billing.renderCustomer(c)),
      subscriptions: [...billing.subscriptions.values()].map((s) => billing.renderSubscription(s)),
      invoices: [...billing.invoices.values()].map((i) => billing.renderInvoice(i)),
      checkoutSessions: [...billing.checkoutSessions.values()].map((s) => billing.renderCheckoutSession(s)),
      events: [...billing.events.values()].map((e) => ({ id: e.id, type: e.type, created: e.created })),
    }),
    async close() {
      webhooks.close()
      await server.close()
    },
  }
  return fake
}

export type { DeliveryLogEntry }
