import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { IdentityFakes } from '../identity/server.ts'
import { startGraphMailFake, type GraphMailFake } from './server.ts'
import { microsoftTokens, rawMessage, startReceiver, startTestIdentity, type Receiver } from './test-support.ts'

/**
 * Subscriptions and change notifications of the Graph mail fake (providers.md B3, D3), against a real
 * local HTTP receiver: the validation handshake, notifications with clientState, lifecycle events,
 * delivery faults, expiration rules.
 */

const ME = 'rio@contoso.example'
const CLIENT_STATE = 'a-secret-the-app-chose'

let identity: IdentityFakes
let fake: GraphMailFake
let receiver: Receiver
let token: string

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${fake.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Prefer: 'IdType="ImmutableId"', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- protocol tests read arbitrary Graph JSON
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any }
}

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString()

function subscribe(overrides: Record<string, unknown> = {}, headers?: Record<string, string>) {
  return call(
    'POST',
    '/subscriptions',
    {
      changeType: 'created',
      notificationUrl: receiver.notificationUrl,
      lifecycleNotificationUrl: receiver.lifecycleNotificationUrl,
      resource: "me/mailFolders('inbox')/messages",
      expirationDateTime: inMinutes(4000),
      clientState: CLIENT_STATE,
      ...overrides,
    },
    headers,
  )
}

beforeAll(async () => {
  identity = await startTestIdentity()
  fake = await startGraphMailFake({ identity, validationTimeoutMs: 300, notificationTimeoutMs: 300, notificationRetryDelayMs: 20 })
  token = (await microsoftTokens(identity, ME)).accessToken
})

afterAll(async () => {
  await fake.close()
  await identity.close()
})

beforeEach(async () => {
  receiver = await startReceiver()
})

afterEach(async () => {
  for (const sub of fake.subscriptions(ME)) await call('DELETE', `/subscriptions/${sub.id}`)
  fake.setNotificationFaults({})
  await fake.notificationsSettled()
  await receiver.close()
})

describe('creating a subscription', () => {
  it('runs the validation handshake on both URLs (empty text/plain POST, opaque token) and answers 201', async () => {
    const created = await subscribe()
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      changeType: 'created',
      resource: "me/mailFolders('inbox')/messages",
      clientState: CLIENT_STATE,
      notificationUrl: receiver.notificationUrl,
      lifecycleNotificationUrl: receiver.lifecycleNotificationUrl,
      applicationId: 'graph-mail-test-client',
    })
    expect(receiver.validations.map((v) => v.path)).toEqual(['/graph/notify', '/graph/lifecycle'])
    expect(receiver.validations[0]).toMatchObject({ bodyLength: 0, contentType: expect.stringMatching(/^text\/plain/) })
    // The token arrives URL-encoded and is human-readable text: the receiver must echo the decoded form.
    expect(receiver.validations[0]?.token).toMatch(/^Validation: Testing client application reachability/)
    expect(fake.pushes.filter((p) => p.kind === 'validation').slice(-2).map((p) => p.outcome)).toEqual(['ok', 'ok'])
    expect(receiver.received).toEqual([])
  })

  it.each([
    ['echoes something else', 'wrong-token', 'Response must exactly match validationToken query parameter.'],
    ['answers JSON', 'json', 'Content-Type text/plain'],
    ['answers 500', 'error', 'Must respond with 200 OK'],
    ['is slower than the validation timeout', 'slow', 'timed out'],
  ] as const)('fails with 400 ValidationError when the endpoint %s', async (_label, behaviour, message) => {
    receiver.behaviour.validation = behaviour
    const created = await subscribe()
    expect(created.status).toBe(400)
    expect(created.body.error.code).toBe('ValidationError')
    expect(created.body.error.message).toContain('Subscription validation request failed.')
    expect(created.body.error.message).toContain(message)
    expect(fake.subscriptions(ME)).toEqual([])
  })

  it('fails the handshake when the endpoint is unreachable', async () => {
    const created = await subscribe({ notificationUrl: 'http://127.0.0.1:9/graph/notify' })
    expect(created.status).toBe(400)
    expect(created.body.error.code).toBe('ValidationError')
  })

  it('refuses an expiration past the mail cap with ExtensionError, and raises one under 45 minutes to 45', async () => {
    const tooLong = await subscribe({ expirationDateTime: inMinutes(4231) })
    expect(tooLong.status).toBe(400)
    expect(tooLong.body.error).toMatchObject({ code: 'ExtensionError', message: 'Subscription expiration can only be 4230 minutes in the future.' })
    const short = await subscribe({ expirationDateTime: inMinutes(5) })
    expect(short.status).toBe(201)
    expect(Date.parse(short.body.expirationDateTime)).toBeGreaterThanOrEqual(Date.now() + 44 * 60_000)
  })

  it('requires https for notification URLs other than loopback', async () => {
    const created = await subscribe({ notificationUrl: 'http://example.com/hook' })
    expect(created.status).toBe(400)
    expect(receiver.validations).toEqual([])
  })
})

describe('managing a subscription', () => {
  it('GET, PATCH renews, PATCH past the cap is ErrorInvalidParameter, DELETE 204, then 404', async () => {
    const { body: sub } = await subscribe()
    expect((await call('GET', `/subscriptions/${sub.id}`)).body.id).toBe(sub.id)
    const renewed = await call('PATCH', `/subscriptions/${sub.id}`, { expirationDateTime: inMinutes(4200) })
    expect(renewed.status).toBe(200)
    expect(Date.parse(renewed.body.expirationDateTime)).toBeGreaterThan(Date.parse(sub.expirationDateTime))
    const over = await call('PATCH', `/subscriptions/${sub.id}`, { expirationDateTime: inMinutes(5000) })
    expect(over.status).toBe(400)
    expect(over.body.error.code).toBe('ErrorInvalidParameter')
    expect((await call('DELETE', `/subscriptions/${sub.id}`)).status).toBe(204)
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const gone = await call(method, `/subscriptions/${sub.id}`, method === 'PATCH' ? { expirationDateTime: inMinutes(100) } : undefined)
      expect(gone.status).toBe(404)
      expect(gone.body.error.code).toBe('ResourceNotFound')
    }
  })

  it('an expired subscription is gone (Graph deletes it silently)', async () => {
    const { body: sub } = await subscribe({ expirationDateTime: inMinutes(60) })
    fake.advanceClock(61 * 60_000)
    try {
      expect((await call('GET', `/subscriptions/${sub.id}`)).status).toBe(404)
    } finally {
      fake.advanceClock(-61 * 60_000)
    }
  })
})

describe('change notifications', () => {
  it('POSTs a created notification with clientState, resource and resourceData to the receiver, with immutable ids', async () => {
    const { body: sub } = await subscribe()
    const delivered = await fake.deliver(ME, rawMessage({ from: 'x@y.example', to: ME, subject: 'ping' }))
    const [push] = await receiver.waitFor(1, '/graph/notify')
    expect(push?.contentType).toMatch(/^application\/json/)
    const userId = fake.mailbox(ME).userId
    expect(push?.body.value).toEqual([
      {
        subscriptionId: sub.id,
        subscriptionExpirationDateTime: sub.expirationDateTime,
        changeType: 'created',
        resource: `Users/${userId}/Messages/${delivered.id}`,
        resourceData: { '@odata.type': '#Microsoft.Graph.Message', '@odata.id': `Users/${userId}/Messages/${delivered.id}`, '@odata.etag': expect.stringMatching(/^W\/"/), id: delivered.id },
        clientState: CLIENT_STATE,
        tenantId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    ])
    await fake.notificationsSettled()
    expect(fake.pushes.at(-1)).toMatchObject({ kind: 'change', status: 202, outcome: 'ok', messageIds: [delivered.id] })
  })

  it('notifies only for the subscribed folder, and not for seeded mail', async () => {
    await subscribe()
    await fake.deliver(ME, rawMessage({ from: 'x@y.example', to: ME, subject: 'archived' }), { folder: 'archive' })
    await fake.seed(ME, [{ raw: rawMessage({ from: 'x@y.example', to: ME, subject: 'seeded' }) }])
    await fake.notificationsSettled()
    expect(receiver.received).toEqual([])
  })

  it('a message moved into the folder is "created" there too', async () => {
    await subscribe()
    const { id } = await fake.deliver(ME, rawMessage({ from: 'x@y.example', to: ME, subject: 'comes back' }), { folder: 'archive' })
    await call('POST', `/me/messages/${encodeURIComponent(id)}/move`, { destinationId: 'inbox' })
    const [push] = await receiver.waitFor(1)
    expect(push?.body.value[0]).toMatchObject({ changeType: 'created', resourceData: { id } })
  })

  it('retries a notification the receiver refuses', async () => {
    await subscribe()
    receiver.behaviour.notificationStatus = 500
    await fake.deliver(ME, rawMessage({ from: 'x@y.example', to: ME, subject: 'retry me' }))
    await fake.notificationsSettled()
    const attempts = fake.pushes.filter((p) => p.kind === 'change').slice(-3)
    expect(attempts.map((p) => [p.attempt, p.status, p.outcome])).toEqual([
      [1, 500, 'rejected'],
      [2, 500, 'rejected'],
      [3, 500, 'rejected'],
    ])
  })

  it('fault modes: duplicates, reordering (newest first on flush) and drops', async () => {
    await subscribe()
    fake.setNotificationFaults({ duplicate: true })
    await fake.deliver(ME, rawMessage({ from: 'x@y.example', to: ME, subject: 'twice' }))
    const twice = await receiver.waitFor(2)
    expect(twice[0]?.body).toEqual(twice[1]?.body)

    fake.setNotificationFaults({ reorder: true })
    const a = await fake.deliver(ME, rawMessage({ from: 'x@y.example', to: ME, subject: 'a' }))
    const b = await fake.deliver(ME, rawMessage({ from: 'x@y.example', to: ME, subject: 'b' }))
    await fake.notificationsSettled()
    expect(receiver.received).toHaveLength(2)
    fake.flushNotifications()
    const all = await receiver.waitFor(4)
    expect(all.slice(2).map((p) => p.body.value[0]?.resourceData)).toEqual([expect.objectContaining({ id: b.id }), expect.objectContaining({ id: a.id })])

    fake.setNotificationFaults({ drop: true })
    await fake.deliver(ME, rawMessage({ from: 'x@y.example', to: ME, subject: 'lost' }))
    await fake.notificationsSettled()
    expect(receiver.received).toHaveLength(4)
    expect(fake.pushes.at(-1)?.outcome).toBe('dropped')
  })
})

describe('lifecycle notifications', () => {
  it.each(['reauthorizationRequired', 'missed', 'subscriptionRemoved'] as const)('sends %s to the lifecycle URL', async (event) => {
    const { body: sub } = await subscribe()
    const record = await fake.sendLifecycleNotification(sub.id, event)
    expect(record).toMatchObject({ kind: 'lifecycle', lifecycleEvent: event, status: 202, outcome: 'ok' })
    const [push] = await receiver.waitFor(1, '/graph/lifecycle')
    expect(push?.body.value).toEqual([
      { subscriptionId: sub.id, subscriptionExpirationDateTime: sub.expirationDateTime, tenantId: expect.any(String), clientState: CLIENT_STATE, lifecycleEvent: event },
    ])
    expect(fake.subscriptions(ME).map((s) => s.id)).toEqual(event === 'subscriptionRemoved' ? [] : [sub.id])
  })
})
