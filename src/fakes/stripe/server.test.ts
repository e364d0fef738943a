import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { addIntervals } from './billing.ts'
import { STANDARD_MONTHLY_PRICE_ID, STRIPE_FAKE_API_VERSION, startStripeFake, type StripeFake } from './server.ts'

// The Stripe fake driven by the real stripe-node SDK over HTTP (providers.md C1-C4, D1, D4), with
// webhooks received by a real local endpoint and verified with stripe.webhooks.constructEvent.

const SECRET = 'whsec_test_receiver_secret_1234567890'
const DAY_MS = 86_400_000

interface Received {
  raw: string
  signature: string
}

let receiver: Server
let receiverUrl: string
const received: Received[] = []
/** Statuses the receiver answers next, then 200. */
const answers: number[] = []

let fake: StripeFake
let stripe: Stripe

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ raw: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['stripe-signature'] ?? '') })
      res.writeHead(answers.shift() ?? 200)
      res.end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/_api/webhooks/stripe`
})
afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()))
})
beforeEach(async () => {
  received.length = 0
  answers.length = 0
  fake = await startStripeFake({ webhooks: { retryDelaysMs: [20, 40] } })
  fake.setWebhookEndpoint(receiverUrl, SECRET)
  stripe = new Stripe(fake.apiKey, { ...fake.sdkOptions(), maxNetworkRetries: 0, telemetry: false })
})
afterEach(async () => {
  await fake.webhooks.idle()
  await fake.close()
})

/** Every received webhook, verified as the app will verify it. */
async function events(): Promise<Stripe.Event[]> {
  await fake.webhooks.idle()
  return received.map((r) => stripe.webhooks.constructEvent(r.raw, r.signature, SECRET))
}

async function newSession(extra: Partial<Stripe.Checkout.SessionCreateParams> = {}, options?: Stripe.RequestOptions) {
  const customer = await stripe.customers.create({ email: 'ada@example.com', name: 'Ada' })
  const session = await stripe.checkout.sessions.create(
    {
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: STANDARD_MONTHLY_PRICE_ID, quantity: 1 }],
      client_reference_id: 'user_42',
      success_url: 'http://app.example/billing/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://app.example/billing',
      metadata: { userId: 'user_42' },
      ...extra,
    },
    options,
  )
  return { customer, session }
}

/** What the browser sends when the person submits the hosted Checkout form. */
function submitCard(url: string, cardNumber: string, extra: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: 'ada@example.com', cardNumber, cardExpiry: '12 / 34', cardCvc: '123', billingName: 'Ada Lovelace', action: 'pay', ...extra }),
    redirect: 'manual',
  })
}

async function subscribed() {
  const { customer, session } = await newSession()
  const res = await submitCard(session.url!, '4242 4242 4242 4242')
  expect(res.status).toBe(303)
  await fake.webhooks.idle()
  const paid = await stripe.checkout.sessions.retrieve(session.id)
  const subscription = await stripe.subscriptions.retrieve(String(paid.subscription))
  received.length = 0
  return { customer, session: paid, subscription }
}

function portalPost(url: string, subscription: string, action: string) {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ subscription, action }),
    redirect: 'manual',
  })
}

describe('the SDK against the fake', () => {
  it('pins the API version stripe-node pins, so payload shapes match the SDK types', () => {
    expect(STRIPE_FAKE_API_VERSION).toBe(Stripe.API_VERSION)
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('creates, retrieves and lists customers by email with Stripe ids and unix-second timestamps', async () => {
    const before = Math.floor(Date.now() / 1000)
    const created = await stripe.customers.create({ email: 'grace@example.com', name: 'Grace', metadata: { userId: 'u1' } })
    expect(created).toMatchObject({ object: 'customer', email: 'grace@example.com', name: 'Grace', metadata: { userId: 'u1' }, livemode: false })
    expect(created.id).toMatch(/^cus_[A-Za-z0-9]{14}$/)
    expect(created.created).toBeGreaterThanOrEqual(before)
    expect(created.created).toBeLessThan(before + 5)
    expect(created.lastResponse.requestId).toMatch(/^req_/)

    const fetched = await stripe.customers.retrieve(created.id)
    expect(fetched).toMatchObject({ id: created.id, email: 'grace@example.com' })
    await stripe.customers.create({ email: 'other@example.com' })
    const listed = await stripe.customers.list({ email: 'grace@example.com' })
    expect(listed.data.map((c) => c.id)).toEqual([created.id])
    expect(fake.journal.some((e) => e.endpoint === 'customers.create' && e.status === 200)).toBe(true)
  })

  it('answers 404 resource_missing with param id for an unknown customer', async () => {
    const error = await stripe.customers.retrieve('cus_doesnotexist00').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'id', message: "No such customer: 'cus_doesnotexist00'" })

    const raw = await fetch(`${fake.url}/v1/subscriptions/sub_nope`, { headers: { Authorization: `Bearer ${fake.apiKey}` } })
    expect(raw.status).toBe(404)
    expect(await raw.json()).toEqual({
      error: { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: "No such subscription: 'sub_nope'", doc_url: 'https://stripe.com/docs/error-codes/resource-missing' },
    })
  })

  it('answers 400 with the offending param for missing, unknown and dangling parameters', async () => {
    const missing = await stripe.checkout.sessions
      .create({ mode: 'subscription', line_items: [{ price: STANDARD_MONTHLY_PRICE_ID, quantity: 1 }] } as Stripe.Checkout.SessionCreateParams)
      .catch((e: unknown) => e)
    expect(missing).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', code: 'parameter_missing', param: 'success_url' })

    const noCustomer = await stripe.checkout.sessions
      .create({ mode: 'subscription', customer: 'cus_ghost', line_items: [{ price: STANDARD_MONTHLY_PRICE_ID, quantity: 1 }], success_url: 'http://app.example/ok' })
      .catch((e: unknown) => e)
    expect(noCustomer).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'customer', message: "No such customer: 'cus_ghost'" })

    const noPrice = await stripe.checkout.sessions
      .create({ mode: 'subscription', line_items: [{ price: 'price_ghost', quantity: 1 }], success_url: 'http://app.example/ok' })
      .catch((e: unknown) => e)
    expect(noPrice).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'line_items[0][price]' })

    const unknown = await stripe.customers.create({ email: 'x@example.com', favourite_colour: 'blue' } as Stripe.CustomerCreateParams).catch((e: unknown) => e)
    expect(unknown).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'favourite_colour' })
  })

  it('answers 401 for a wrong or missing key without echoing the key', async () => {
    const wrongKey = 'sk_test_wrongwrongwrong1234'
    const wrong = new Stripe(wrongKey, { ...fake.sdkOptions(), maxNetworkRetries: 0 })
    const error = await wrong.customers.list().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError)
    expect((error as Stripe.errors.StripeError).statusCode).toBe(401)
    expect((error as Error).message).toContain('1234')
    expect((error as Error).message).not.toContain(wrongKey)

    const none = await fetch(`${fake.url}/v1/customers`)
    expect(none.status).toBe(401)
    expect(((await none.json()) as { error: { message: string } }).error.message).toMatch(/^You did not provide an API key/)
  })

  it('turns injected faults into Stripe api_error bodies the SDK raises', async () => {
    fake.injectFault({ endpoint: 'customers.create', status: 500 })
    const error = await stripe.customers.create({ email: 'f@example.com' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError)
    expect((await stripe.customers.create({ email: 'f@example.com' })).id).toMatch(/^cus_/)
  })
})

describe('Checkout', () => {
  it('creates a session from the form-encoded body, and the same Idempotency-Key returns the same session', async () => {
    const customer = await stripe.customers.create({ email: 'idem@example.com' })
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: STANDARD_MONTHLY_PRICE_ID, quantity: 1 }],
      client_reference_id: 'user_7',
      success_url: 'http://app.example/ok?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://app.example/billing',
      metadata: { userId: 'user_7' },
      subscription_data: { metadata: { plan: 'standard' } },
    }
    const first = await stripe.checkout.sessions.create(params, { idempotencyKey: 'checkout-user_7-1' })
    const second = await stripe.checkout.sessions.create(params, { idempotencyKey: 'checkout-user_7-1' })
    expect(second.id).toBe(first.id)
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true')
    expect(fake.state().checkoutSessions).toHaveLength(1)
    expect(first.id).toMatch(/^cs_test_[A-Za-z0-9]{58}$/)
    expect(first).toMatchObject({
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer: customer.id,
      client_reference_id: 'user_7',
      metadata: { userId: 'user_7' },
      subscription: null,
      amount_total: 499,
      currency: 'usd',
    })
    expect(first.url).toBe(`${fake.url}/c/pay/${first.id}`)
    expect(first.expires_at - first.created).toBe(24 * 3600)

    const reused = await stripe.checkout.sessions.create({ ...params, client_reference_id: 'user_8' }, { idempotencyKey: 'checkout-user_7-1' }).catch((e: unknown) => e)
    expect(reused).toBeInstanceOf(Stripe.errors.StripeIdempotencyError)
    expect(fake.state().checkoutSessions).toHaveLength(1)

    const expanded = await stripe.checkout.sessions.retrieve(first.id, { expand: ['customer', 'line_items'] })
    expect((expanded.customer as Stripe.Customer).email).toBe('idem@example.com')
    expect(expanded.line_items?.data[0]).toMatchObject({ quantity: 1, price: { id: STANDARD_MONTHLY_PRICE_ID, unit_amount: 499 } })
  })

  it('serves an accessible hosted page with labelled inputs, a named button and a cancel link', async () => {
    const { session } = await newSession()
    const res = await fetch(session.url!)
    expect(res.status).toBe(200)
    const html = await res.text()
    for (const id of ['email', 'cardNumber', 'cardExpiry', 'cardCvc', 'billingName']) {
      expect(html).toContain(`<label for="${id}">`)
      expect(html).toContain(`id="${id}" name="${id}"`)
    }
    expect(html).toMatch(/<button type="submit" name="action" value="pay">Subscribe<\/button>/)
    expect(html).toContain('href="http://app.example/billing"')
    expect(html).toContain('$4.99')
  })

  it('paying with 4242 creates an active monthly subscription and a paid invoice, redirects to success_url and sends signed webhooks', async () => {
    const { customer, session } = await newSession()
    const res = await submitCard(session.url!, '4242 4242 4242 4242')
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`http://app.example/billing/success?session_id=${session.id}`)

    const completed = await stripe.checkout.sessions.retrieve(session.id)
    expect(completed).toMatchObject({ status: 'complete', payment_status: 'paid', customer: customer.id, url: null })
    expect(completed.subscription).toMatch(/^sub_/)
    const sub = await stripe.subscriptions.retrieve(String(completed.subscription), { expand: ['latest_invoice'] })
    const item = sub.items.data[0]!
    expect(sub).toMatchObject({ object: 'subscription', status: 'active', customer: customer.id, cancel_at_period_end: false })
    expect(item.price.id).toBe(STANDARD_MONTHLY_PRICE_ID)
    expect(item.current_period_end).toBe(addIntervals(item.current_period_start, 'month', 1))
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(28 * 86_400)
    expect((sub.latest_invoice as Stripe.Invoice).status).toBe('paid')

    const invoices = await stripe.invoices.list({ customer: customer.id, limit: 10 })
    expect(invoices.data).toHaveLength(1)
    const invoice = invoices.data[0]!
    expect(invoice).toMatchObject({ object: 'invoice', status: 'paid', amount_paid: 499, amount_due: 499, currency: 'usd', billing_reason: 'subscription_create' })
    expect(invoice.id).toMatch(/^in_/)
    expect(invoice.parent?.subscription_details?.subscription).toBe(sub.id)
    expect((await fetch(invoice.hosted_invoice_url!)).status).toBe(200)

    const delivered = await events()
    const types = delivered.map((e) => e.type)
    expect(types).toEqual(expect.arrayContaining(['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']))
    const done = delivered.find((e) => e.type === 'checkout.session.completed')!
    const object = done.data.object as Stripe.Checkout.Session
    expect(object).toMatchObject({ id: session.id, client_reference_id: 'user_42', customer: customer.id, subscription: sub.id, payment_status: 'paid', metadata: { userId: 'user_42' } })
    expect(object.customer_details?.email).toBe('ada@example.com')
    expect(done.id).toMatch(/^evt_/)
    expect(done.api_version).toBe(Stripe.API_VERSION)
    expect((await stripe.events.retrieve(done.id)).type).toBe('checkout.session.completed')

    // Signed with the endpoint secret over the raw body: another secret does not verify.
    const raw = received.find((r) => r.raw.includes('"checkout.session.completed"'))!
    expect(raw.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    expect(() => stripe.webhooks.constructEvent(raw.raw, raw.signature, 'whsec_someone_else')).toThrow(Stripe.errors.StripeSignatureVerificationError)
    expect(() => stripe.webhooks.constructEvent(JSON.stringify(JSON.parse(raw.raw)), raw.signature, SECRET)).toThrow(Stripe.errors.StripeSignatureVerificationError)

    // Paying again does not create a second subscription.
    await submitCard(session.url!, '4242 4242 4242 4242')
    expect(fake.state().subscriptions).toHaveLength(1)
  })

  it('a declined card shows "Your card was declined." and changes nothing', async () => {
    const { session } = await newSession()
    const before = fake.state()
    received.length = 0
    const res = await submitCard(session.url!, '4000 0000 0000 0002')
    expect(res.status).toBe(402)
    const html = await res.text()
    expect(html).toContain('<p class="error" role="alert" id="card-error">Your card was declined.</p>')
    const after = fake.state()
    expect(after.subscriptions).toHaveLength(before.subscriptions.length)
    expect(after.invoices).toHaveLength(before.invoices.length)
    expect(after.events).toHaveLength(before.events.length)
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open')
    await fake.webhooks.idle()
    expect(received).toHaveLength(0)
  })

  it('creates the customer from customer_email when the session has none', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer_email: 'new@example.com',
      line_items: [{ price: STANDARD_MONTHLY_PRICE_ID, quantity: 1 }],
      success_url: 'http://app.example/ok',
    })
    expect(session.customer).toBeNull()
    expect((await submitCard(session.url!, '4242424242424242', { email: 'new@example.com' })).status).toBe(303)
    const completed = await stripe.checkout.sessions.retrieve(session.id)
    expect(completed.customer).toMatch(/^cus_/)
    expect((await stripe.customers.retrieve(String(completed.customer))) as Stripe.Customer).toMatchObject({ email: 'new@example.com' })
    expect((await events()).map((e) => e.type)).toContain('customer.created')
  })

  it('expires an unpaid session after 24 hours on the clock', async () => {
    const { session } = await newSession()
    fake.clock.advance(25 * 3600 * 1000)
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('expired')
    expect((await fetch(session.url!)).status).toBe(410)
    expect((await events()).map((e) => e.type)).toContain('checkout.session.expired')
  })
})

describe('Customer Portal and subscription changes', () => {
  it('cancels at period end, resumes and cancels now from the portal page, with the matching events', async () => {
    const { customer, subscription } = await subscribed()
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'http://app.example/settings' })
    expect(portal.id).toMatch(/^bps_/)
    expect(portal.url.startsWith(`${fake.url}/p/session/`)).toBe(true)
    const page = await (await fetch(portal.url)).text()
    expect(page).toContain('href="http://app.example/settings"')
    expect(page).toMatch(/<button type="submit" name="action" value="cancel_at_period_end"[^>]*>Cancel at period end<\/button>/)

    expect((await portalPost(portal.url, subscription.id, 'cancel_at_period_end')).status).toBe(303)
    const scheduled = await stripe.subscriptions.retrieve(subscription.id)
    expect(scheduled).toMatchObject({ status: 'active', cancel_at_period_end: true, cancel_at: subscription.items.data[0]!.current_period_end })
    expect(await (await fetch(portal.url)).text()).toContain('Renew subscription')

    await portalPost(portal.url, subscription.id, 'resume')
    expect((await stripe.subscriptions.retrieve(subscription.id)).cancel_at_period_end).toBe(false)

    await portalPost(portal.url, subscription.id, 'cancel_now')
    const canceled = await stripe.subscriptions.retrieve(subscription.id)
    expect(canceled.status).toBe('canceled')
    expect(canceled.ended_at).not.toBeNull()

    const delivered = await events()
    expect(delivered.map((e) => e.type)).toEqual(['customer.subscription.updated', 'customer.subscription.updated', 'customer.subscription.deleted'])
    expect(delivered[0]!.data.previous_attributes).toMatchObject({ cancel_at_period_end: false })
    expect((delivered[0]!.data.object as Stripe.Subscription).cancel_at_period_end).toBe(true)
    expect(delivered[1]!.data.previous_attributes).toMatchObject({ cancel_at_period_end: true })
    expect((delivered[2]!.data.object as Stripe.Subscription).status).toBe('canceled')
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(0)
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'canceled' })).data.map((s) => s.id)).toEqual([subscription.id])
  })

  it('updates and cancels through the API, records the request on the event, and refuses to change a canceled subscription', async () => {
    const { subscription } = await subscribed()
    const updated = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true }, { idempotencyKey: 'cancel-1' })
    expect(updated.cancel_at_period_end).toBe(true)
    const canceled = await stripe.subscriptions.cancel(subscription.id)
    expect(canceled.status).toBe('canceled')
    const delivered = await events()
    expect(delivered.map((e) => e.type)).toEqual(['customer.subscription.updated', 'customer.subscription.deleted'])
    expect(delivered[0]!.request).toMatchObject({ idempotency_key: 'cancel-1' })
    expect(delivered[0]!.request?.id).toMatch(/^req_/)

    const error = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false }).catch((e: unknown) => e)
    expect(error).toMatchObject({ statusCode: 400, message: 'A canceled subscription can only update its cancellation_details and metadata.' })
  })
})

describe('webhook delivery', () => {
  it('retries a failing endpoint with backoff and logs each attempt', async () => {
    const customer = await stripe.customers.create({ email: 'retry@example.com' })
    await fake.webhooks.idle()
    received.length = 0
    answers.push(500, 503)
    await stripe.customers.update(customer.id, { name: 'Changed' })
    await fake.webhooks.idle()
    expect(received).toHaveLength(3)
    const log = fake.webhooks.log.filter((e) => e.type === 'customer.updated')
    expect(log.map((e) => [e.outcome, e.attempt, e.status])).toEqual([
      ['retrying', 1, 500],
      ['retrying', 2, 503],
      ['delivered', 3, 200],
    ])
    const event = await stripe.events.retrieve(log[0]!.eventId)
    expect(event.pending_webhooks).toBe(0)
  })

  it('sends duplicates, reverses held events, loses dropped ones and can sign wrongly on request', async () => {
    const { customer } = await newSession()
    await fake.webhooks.idle()
    received.length = 0

    fake.webhooks.duplicateNext()
    await stripe.customers.update(customer.id, { name: 'One' })
    const dup = await events()
    expect(dup).toHaveLength(2)
    expect(dup[0]!.id).toBe(dup[1]!.id)

    received.length = 0
    fake.webhooks.hold()
    await stripe.customers.update(customer.id, { name: 'Two' })
    await stripe.customers.update(customer.id, { name: 'Three' })
    await fake.webhooks.idle()
    expect(received).toHaveLength(0)
    fake.webhooks.release()
    const reversed = await events()
    expect(reversed.map((e) => (e.data.object as Stripe.Customer).name)).toEqual(['Three', 'Two'])

    received.length = 0
    fake.webhooks.dropNext()
    await stripe.customers.update(customer.id, { name: 'Lost' })
    await fake.webhooks.idle()
    expect(received).toHaveLength(0)
    expect(fake.webhooks.log.at(-1)).toMatchObject({ type: 'customer.updated', outcome: 'dropped' })

    fake.webhooks.badSignatureNext()
    fake.webhooks.staleSignatureNext()
    await stripe.customers.update(customer.id, { name: 'Bad' })
    await stripe.customers.update(customer.id, { name: 'Stale' })
    await fake.webhooks.idle()
    expect(received).toHaveLength(2)
    expect(() => stripe.webhooks.constructEvent(received[0]!.raw, received[0]!.signature, SECRET)).toThrow(/No signatures found/)
    expect(() => stripe.webhooks.constructEvent(received[1]!.raw, received[1]!.signature, SECRET)).toThrow(/Timestamp outside the tolerance zone/)
  })

  it('lets a delayed event be overtaken by later ones', async () => {
    const customer = await stripe.customers.create({ email: 'delay@example.com' })
    await fake.webhooks.idle()
    received.length = 0
    fake.webhooks.delayNext(100)
    await stripe.customers.update(customer.id, { name: 'First' })
    await stripe.customers.update(customer.id, { name: 'Second' })
    const delivered = await events()
    expect(delivered.map((e) => (e.data.object as Stripe.Customer).name)).toEqual(['Second', 'First'])
  })

  it('renders payloads in an older endpoint API version with periods on the subscription and invoice.subscription', async () => {
    fake.setWebhookEndpoint(receiverUrl, SECRET, { apiVersion: '2024-06-20', enabledEvents: ['customer.subscription.created', 'invoice.paid'] })
    const { session } = await newSession()
    await submitCard(session.url!, '4242424242424242')
    const delivered = await events()
    expect(delivered.map((e) => e.type)).toEqual(['customer.subscription.created', 'invoice.paid'])
    const sub = delivered[0]!.data.object as unknown as Record<string, unknown>
    expect(delivered[0]!.api_version).toBe('2024-06-20')
    expect(typeof sub.current_period_end).toBe('number')
    const invoice = delivered[1]!.data.object as unknown as Record<string, unknown>
    expect(invoice.subscription).toBe(sub.id)
    expect(invoice.parent).toBeUndefined()
  })
})

describe('the clock', () => {
  it('renews at period end with a new period, a paid invoice, invoice.paid and customer.subscription.updated', async () => {
    const { customer, subscription } = await subscribed()
    const firstEnd = subscription.items.data[0]!.current_period_end
    fake.clock.advance(32 * DAY_MS)
    const renewed = await stripe.subscriptions.retrieve(subscription.id)
    const item = renewed.items.data[0]!
    expect(renewed.status).toBe('active')
    expect(item.current_period_start).toBe(firstEnd)
    expect(item.current_period_end).toBe(addIntervals(subscription.items.data[0]!.current_period_start, 'month', 2))
    const invoices = await stripe.invoices.list({ customer: customer.id })
    expect(invoices.data.map((i) => [i.billing_reason, i.status])).toEqual([
      ['subscription_cycle', 'paid'],
      ['subscription_create', 'paid'],
    ])
    const delivered = await events()
    expect(delivered.map((e) => e.type)).toEqual(expect.arrayContaining(['invoice.paid', 'customer.subscription.updated']))
    const paid = delivered.find((e) => e.type === 'invoice.paid')!
    expect(paid.created).toBe(firstEnd)
    expect((paid.data.object as Stripe.Invoice).lines.data[0]!.period.end).toBe(item.current_period_end)
  })

  it('a failed renewal leaves an open invoice, makes the subscription past_due, and the retry three days later recovers it', async () => {
    const { customer, subscription } = await subscribed()
    fake.failNextRenewal()
    fake.clock.advance(32 * DAY_MS)
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due')
    const open = (await stripe.invoices.list({ customer: customer.id, status: 'open' })).data
    expect(open).toHaveLength(1)
    expect(open[0]).toMatchObject({ attempt_count: 1, amount_paid: 0, amount_due: 499 })
    expect(open[0]!.next_payment_attempt).toBe(open[0]!.created + 3 * 86_400)
    const failed = await events()
    expect(failed.map((e) => e.type)).toEqual(expect.arrayContaining(['invoice.payment_failed', 'customer.subscription.updated']))
    expect(failed.find((e) => e.type === 'customer.subscription.updated' && (e.data.object as Stripe.Subscription).status === 'past_due')).toBeDefined()

    received.length = 0
    fake.clock.advance(3 * DAY_MS)
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active')
    expect((await stripe.invoices.retrieve(open[0]!.id)).status).toBe('paid')
    expect((await events()).map((e) => e.type)).toEqual(expect.arrayContaining(['invoice.paid', 'customer.subscription.updated']))
  })

  it('cancels the subscription after the last retry when the card keeps declining, and invoices.pay answers 402', async () => {
    const { customer, subscription } = await subscribed()
    fake.setCardDeclines(customer.id, true)
    fake.clock.advance(32 * DAY_MS)
    const [open] = (await stripe.invoices.list({ customer: customer.id, status: 'open' })).data
    const payError = await stripe.invoices.pay(open!.id).catch((e: unknown) => e)
    expect(payError).toBeInstanceOf(Stripe.errors.StripeCardError)
    expect(payError).toMatchObject({ statusCode: 402, code: 'card_declined', decline_code: 'generic_decline' })
    fake.clock.advance(20 * DAY_MS)
    const ended = await stripe.subscriptions.retrieve(subscription.id)
    expect(ended.status).toBe('canceled')
    expect(ended.cancellation_details?.reason).toBe('payment_failed')
  })

  it('ends a subscription set to cancel at period end when the period ends', async () => {
    const { subscription } = await subscribed()
    await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true })
    fake.clock.advance(31 * DAY_MS + 1000)
    const ended = await stripe.subscriptions.retrieve(subscription.id)
    expect(ended.status).toBe('canceled')
    expect(ended.ended_at).toBe(subscription.items.data[0]!.current_period_end)
    expect((await events()).map((e) => e.type)).toEqual(['customer.subscription.updated', 'customer.subscription.deleted'])
    expect(fake.state().invoices).toHaveLength(1)
  })
})

describe('admin routes', () => {
  it('mirror the in-process hooks over HTTP', async () => {
    const { session } = await newSession()
    const res = await fetch(`${fake.url}/__admin/checkout/${session.id}/complete`, { method: 'POST', body: '{}' })
    expect(res.status).toBe(200)
    const { subscription } = (await res.json()) as { subscription: string }
    expect((await stripe.subscriptions.retrieve(subscription)).status).toBe('active')
    const advance = await fetch(`${fake.url}/__admin/clock/advance`, { method: 'POST', body: JSON.stringify({ ms: DAY_MS }) })
    expect(advance.status).toBe(200)
    const clock = (await (await fetch(`${fake.url}/__admin/clock`)).json()) as { unix: number }
    expect(clock.unix - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(86_399)
    await fetch(`${fake.url}/__admin/webhooks/idle`, { method: 'POST' })
    const log = (await (await fetch(`${fake.url}/__admin/webhooks/log`)).json()) as Array<{ type: string; outcome: string }>
    expect(log.filter((e) => e.outcome === 'delivered').map((e) => e.type)).toContain('checkout.session.completed')
  })
})
