import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRemoteJWKSet, jwtVerify } from 'jose'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startIdentityFakes, type IdentityFakes } from '../identity/server.ts'
import { googleTokensFor } from './google-tokens.ts'
import { buildRawMessage } from './rfc822.ts'
import { GMAIL_SCOPES, startGmailFake, type GmailFake } from './server.ts'

// users.watch and the Pub/Sub push it sets up (providers.md A3, D2), received by a real local HTTP endpoint.

const GOOGLE = { clientId: 'gmail-push-test.apps.example', clientSecret: 'gmail-push-secret' }

interface Received {
  authorization: string
  body: { message: { data: string; messageId: string; message_id: string; publishTime: string; publish_time: string; attributes: object }; subscription: string }
}

let identity: IdentityFakes
let fake: GmailFake
let receiver: Server
let receiverUrl: string
const received: Received[] = []
/** Statuses the receiver answers next, then 204. */
const answers: number[] = []

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ authorization: req.headers.authorization ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received['body'] })
      res.writeHead(answers.shift() ?? 204)
      res.end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/_api/webhooks/gmail`
  identity = await startIdentityFakes({ google: GOOGLE, microsoft: { clientId: 'ms', clientSecret: 'ms-secret' } })
  // No endpoint at start: the app's URL is known only later.
  fake = await startGmailFake({ identity, pubsub: { topicName: 'projects/inbox-guard-test/topics/gmail', retryDelaysMs: [20, 40] } })
  fake.setPushEndpoint(receiverUrl)
})
afterAll(async () => {
  await fake.close()
  await identity.close()
  await new Promise<void>((resolve) => receiver.close(() => resolve()))
})
beforeEach(() => {
  received.length = 0
  answers.length = 0
})

async function tokenFor(email: string) {
  return (await googleTokensFor(identity, GOOGLE, email, ['openid', 'email', GMAIL_SCOPES.modify])).accessToken
}

async function watch(token: string, body: Record<string, unknown>) {
  const res = await fetch(`${fake.apiUrl}/gmail/v1/users/me/watch`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as any }
}

const decode = (r: Received) => JSON.parse(Buffer.from(r.body.message.data, 'base64').toString('utf8')) as { emailAddress: string; historyId: string | number }
const inbound = (to: string, subject: string) => buildRawMessage({ from: 'sender@elsewhere.example', to, subject, text: 'hi' })

describe('users.watch', () => {
  it('refuses a malformed topic with 400 and another project topic with 403, as Google does', async () => {
    const token = await tokenFor('watch-errors@example.com')
    const malformed = await watch(token, { topicName: 'gmail-topic' })
    expect(malformed.status).toBe(400)
    const other = await watch(token, { topicName: 'projects/someone-else/topics/gmail' })
    expect(other.status).toBe(403)
    expect(other.body.error.message).toBe('Error sending test message to Cloud PubSub projects/someone-else/topics/gmail : User not authorized to perform this action.')
  })

  it('returns historyId and a 7-day expiration in ms, and publishes one notification at once with a verifiable OIDC token', async () => {
    const user = 'watcher@example.com'
    const token = await tokenFor(user)
    const res = await watch(token, { topicName: fake.pubsub.topicName, labelIds: ['INBOX'], labelFilterBehavior: 'INCLUDE' })
    expect(res.status).toBe(200)
    expect(res.body.historyId).toBe(fake.mailbox(user).historyId)
    expect(res.body.expiration).toMatch(/^\d+$/)
    expect(Number(res.body.expiration) - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000)
    await fake.push.idle()

    expect(received).toHaveLength(1)
    const [push] = received
    expect(push!.body.subscription).toBe(fake.pubsub.subscription)
    expect(push!.body.message.messageId).toMatch(/^\d+$/)
    expect(push!.body.message.message_id).toBe(push!.body.message.messageId)
    expect(push!.body.message.publish_time).toBe(push!.body.message.publishTime)
    expect(push!.body.message.attributes).toEqual({})
    const data = decode(push!)
    expect(data.emailAddress).toBe(user)
    expect(String(data.historyId)).toBe(res.body.historyId)

    const jwt = /^Bearer (.+)$/.exec(push!.authorization)?.[1] ?? ''
    const { payload, protectedHeader } = await jwtVerify(jwt, createRemoteJWKSet(new URL(fake.pubsub.jwksUrl)), {
      issuer: 'https://accounts.google.com',
      audience: receiverUrl,
    })
    expect(protectedHeader.alg).toBe('RS256')
    expect(payload).toMatchObject({ email: fake.pubsub.serviceAccountEmail, email_verified: true })
    expect(payload.exp! - payload.iat!).toBe(3600)
  })

  it('pushes on new inbox mail at most once per second per mailbox and drops the excess', async () => {
    const user = 'busy@example.com'
    await watch(await tokenFor(user), { topicName: fake.pubsub.topicName, labelIds: ['INBOX'] })
    await fake.push.idle()
    received.length = 0
    fake.advanceClock(1000)

    const first = fake.deliver(user, inbound(user, 'One'))
    fake.deliver(user, inbound(user, 'Two'))
    fake.deliver(user, inbound(user, 'Three'))
    await fake.push.idle()
    expect(received.map((r) => String(decode(r).historyId))).toEqual([first.historyId])
    expect(fake.push.log.filter((e) => e.address === user && e.outcome === 'rate_limited')).toHaveLength(2)

    fake.advanceClock(1000)
    const later = fake.deliver(user, inbound(user, 'Four'))
    await fake.push.idle()
    expect(received.map((r) => String(decode(r).historyId))).toEqual([first.historyId, later.historyId])
  })

  it('does not push for mail outside the watched labels, after stop, or once the watch expired', async () => {
    const user = 'quiet@example.com'
    const token = await tokenFor(user)
    await watch(token, { topicName: fake.pubsub.topicName, labelIds: ['INBOX'], labelFilterBehavior: 'include' })
    await fake.push.idle()
    received.length = 0
    fake.advanceClock(1000)
    fake.deliver(user, buildRawMessage({ from: user, to: 'bob@elsewhere.example', subject: 'Sent mail' }))
    await fake.push.idle()
    expect(received).toHaveLength(0)

    const stopped = await fetch(`${fake.apiUrl}/gmail/v1/users/me/stop`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } })
    expect(stopped.status).toBe(204)
    fake.deliver(user, inbound(user, 'After stop'))
    await fake.push.idle()
    expect(received).toHaveLength(0)

    await watch(token, { topicName: fake.pubsub.topicName, labelIds: ['INBOX'] })
    await fake.push.idle()
    received.length = 0
    fake.advanceClock(8 * 86_400_000)
    fake.deliver(user, inbound(user, 'After expiry'))
    await fake.push.idle()
    expect(received).toHaveLength(0)
  })

  it('gives watches of one mailbox the lifetime setWatchTtl set, reports it, and stops pushing once it passed', async () => {
    const user = 'short-watch@example.com'
    const token = await tokenFor(user)
    fake.setWatchTtl(60_000, user)
    try {
      const before = fake.now().getTime()
      const short = await watch(token, { topicName: fake.pubsub.topicName, labelIds: ['INBOX'] })
      expect(Number(short.body.expiration) - before).toBeGreaterThanOrEqual(60_000)
      expect(Number(short.body.expiration) - before).toBeLessThan(70_000)
      const other = await watch(await tokenFor('long-watch@example.com'), { topicName: fake.pubsub.topicName, labelIds: ['INBOX'] })
      expect(Number(other.body.expiration) - before).toBeGreaterThan(6 * 86_400_000)
      await fake.push.idle()
      received.length = 0
      fake.advanceClock(61_000)
      fake.deliver(user, inbound(user, 'After a short watch lapsed'))
      await fake.push.idle()
      expect(received).toHaveLength(0)
    } finally {
      fake.setWatchTtl(7 * 86_400_000)
    }
    const renewed = await watch(token, { topicName: fake.pubsub.topicName, labelIds: ['INBOX'] })
    expect(Number(renewed.body.expiration) - fake.now().getTime()).toBeGreaterThan(6 * 86_400_000)
    await fake.push.idle()
  })

  it('redelivers with backoff while the endpoint fails, and gives up after the configured retries', async () => {
    const user = 'flaky-endpoint@example.com'
    const token = await tokenFor(user)
    answers.push(500, 503)
    await watch(token, { topicName: fake.pubsub.topicName })
    await fake.push.idle()
    expect(received).toHaveLength(3)
    expect(new Set(received.map((r) => r.body.message.messageId)).size).toBe(1)
    const log = fake.push.log.filter((e) => e.address === user)
    expect(log.map((e) => [e.outcome, e.attempt, e.status])).toEqual([
      ['retrying', 1, 500],
      ['retrying', 2, 503],
      ['delivered', 3, 204],
    ])

    received.length = 0
    answers.push(500, 500, 500)
    fake.advanceClock(1000)
    fake.deliver(user, inbound(user, 'Never acknowledged'))
    await fake.push.idle()
    expect(received).toHaveLength(3)
    expect(fake.push.log.filter((e) => e.address === user).at(-1)).toMatchObject({ outcome: 'failed', attempt: 3, status: 500 })
  })

  it('sends duplicates and reorders held notifications on request', async () => {
    const user = 'faults@example.com'
    const token = await tokenFor(user)
    fake.push.duplicateNext()
    await watch(token, { topicName: fake.pubsub.topicName })
    await fake.push.idle()
    expect(received).toHaveLength(2)
    expect(received[0]!.body.message.messageId).toBe(received[1]!.body.message.messageId)

    received.length = 0
    fake.push.hold()
    fake.advanceClock(1000)
    const a = fake.deliver(user, inbound(user, 'A'))
    fake.advanceClock(1000)
    const b = fake.deliver(user, inbound(user, 'B'))
    await fake.push.idle()
    expect(received).toHaveLength(0)
    fake.push.release()
    await fake.push.idle()
    expect(received.map((r) => String(decode(r).historyId))).toEqual([b.historyId, a.historyId])

    received.length = 0
    fake.push.dropNext()
    fake.advanceClock(1000)
    fake.deliver(user, inbound(user, 'Lost'))
    await fake.push.idle()
    expect(received).toHaveLength(0)
    expect(fake.push.log.at(-1)).toMatchObject({ address: user, outcome: 'dropped' })
  })

  it('does not push for seeded mail', async () => {
    const user = 'seeded@example.com'
    await watch(await tokenFor(user), { topicName: fake.pubsub.topicName })
    await fake.push.idle()
    received.length = 0
    fake.advanceClock(1000)
    const ids = fake.seed(user, [{ raw: inbound(user, 'Old 1') }, { raw: inbound(user, 'Old 2'), labelIds: ['INBOX'] }])
    await fake.push.idle()
    expect(ids).toHaveLength(2)
    expect(received).toHaveLength(0)
  })
})
