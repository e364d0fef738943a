import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startGraphMailFake, type GraphMailFake } from '#fakes/graph-mail/server.ts'
import { rawMessage, startTestIdentity } from '#fakes/graph-mail/test-support.ts'
import type { IdentityFakes } from '#fakes/identity/server.ts'
import { MailAuthRevokedError, MailProviderError, type MailProvider } from '../mail-provider.ts'
import { ForbiddenMailCallError } from '../mail-safety.ts'
import { GraphClient, retryAfterMs } from './graph-client.ts'
import { MovedMessageSchema } from './graph-schemas.ts'
import { DELTA_LINK_PATH, outlookAllowedCalls } from './outlook-allowed-calls.ts'
import { createOutlookProvider } from './outlook-provider.ts'
import { connectTokens, storedCredentials, testOutlookOAuth, type StoredCredentials } from './outlook-test-support.ts'

/**
 * The Outlook adapter's HTTP layer against the Graph mail fake: the deny-by-default guard, retries on
 * throttling and server errors, token refresh on 401 (providers.md B1, B2, B4).
 */

let identity: IdentityFakes
let fake: GraphMailFake
let n = 0
let me: string
let store: StoredCredentials
let provider: MailProvider

async function connect(email: string) {
  const oauth = testOutlookOAuth(identity)
  store = storedCredentials(oauth, await connectTokens(oauth, email))
  provider = createOutlookProvider({ graphUrl: fake.url, credentials: store.credentials, retry: { baseDelayMs: 5 } })
}

beforeAll(async () => {
  identity = await startTestIdentity()
  fake = await startGraphMailFake({ identity })
})

afterAll(async () => {
  await fake.close()
  await identity.close()
})

beforeEach(async () => {
  n += 1
  me = `worker${n}@contoso.example`
  await connect(me)
  fake.clearJournal()
})

afterEach(() => {
  fake.clearFaults()
  fake.setLatency(0)
  expect(fake.violations).toEqual([])
})

/** Statuses of this test's calls to an endpoint (the journal is cleared before each test). */
const calls = (endpoint: string) => fake.journal.filter((e) => e.endpoint === endpoint).map((e) => e.status)

describe('the guard (never delete mail)', () => {
  it('refuses destroying and unknown calls before they reach Graph', async () => {
    const { id } = await fake.deliver(me, rawMessage({ from: 'a@b.example', to: me, subject: 'keep' }))
    const client = new GraphClient({ graphUrl: fake.url, credentials: store.credentials, allowedCalls: () => outlookAllowedCalls(() => false) })
    const message = `/me/messages/${encodeURIComponent(id)}`
    const attempts: Array<[string, string, unknown?]> = [
      ['DELETE', message],
      ['POST', `${message}/permanentDelete`],
      ['POST', `${message}/move`, { destinationId: 'deleteditems' }],
      ['POST', `${message}/move`, { destinationId: 'JunkEmail' }],
      ['POST', `${message}/move`, { destinationId: 'recoverableitemsdeletions' }],
      // A folder id that is not one of ours (it could be Deleted Items' id): deny by default.
      ['POST', `${message}/move`, { destinationId: 'AQMkADsomeotherfolderAAA=' }],
      ['POST', `/me/messages/${encodeURIComponent('..')}/permanentDelete`],
      ['POST', `/me/messages/x/../../mailFolders/inbox/permanentDelete`],
      ['DELETE', '/me/mailFolders/inbox'],
      ['PATCH', message, { categories: ['x'] }],
      ['POST', '/me/mailFolders', { displayName: 'Something else' }],
      ['GET', '/me/contacts'],
      ['GET', 'http://127.0.0.1:9/v1.0/me'],
    ]
    const before = fake.journal.length
    for (const [method, target, body] of attempts) {
      await expect(client.empty(method, { target, body }), `${method} ${target}`).rejects.toBeInstanceOf(ForbiddenMailCallError)
    }
    expect(fake.journal.length).toBe(before)
    expect(fake.mailbox(me).messages.find((m) => m.id === id)?.folder).toBe('Inbox')

    // Delta links in Graph's own key-segment form are on the list, quoted or percent-encoded.
    expect(DELTA_LINK_PATH.test("/me/mailfolders('AQMkADAAAA=')/messages/delta")).toBe(true)
    expect(DELTA_LINK_PATH.test('/me/mailfolders(%27AQMkADAAAA=%27)/messages/delta')).toBe(true)
    expect(DELTA_LINK_PATH.test('/me/mailFolders/inbox/messages/delta')).toBe(true)
    expect(DELTA_LINK_PATH.test("/me/mailfolders('x')/messages/permanentDelete")).toBe(false)

    // The same client makes the calls that are on the list.
    expect(await client.json('POST', { target: `${message}/move`, body: { destinationId: 'inbox' } }, MovedMessageSchema)).toEqual({ id })
  })
})

describe('retries', () => {
  it('waits for Retry-After on 429, then succeeds', async () => {
    const { id } = await fake.deliver(me, rawMessage({ from: 'a@b.example', to: me, subject: 'slow down' }))
    fake.injectFault({ endpoint: 'messages.get', status: 429, headers: { 'Retry-After': '1' } })
    const started = Date.now()
    expect((await provider.fetchMessage(id))?.id).toBe(id)
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
    expect(calls('messages.get')).toEqual([429, 200])
  })

  it('backs off on 5xx (500, 502, 503, 504) and succeeds', async () => {
    const { id } = await fake.deliver(me, rawMessage({ from: 'a@b.example', to: me, subject: 'flaky' }))
    for (const status of [500, 502, 504]) fake.injectFault({ endpoint: 'messages.value', status })
    fake.injectFault({ endpoint: 'messages.value', status: 503, headers: { 'Retry-After': '0' } })
    expect((await provider.fetchMessage(id))?.raw).toContain('Subject: flaky')
    expect(calls('messages.value')).toEqual([500, 502, 504, 503, 200])
  })

  it('gives up after the attempts with a MailProviderError carrying status and code', async () => {
    fake.injectFault({ endpoint: 'me.get', status: 503, headers: { 'Retry-After': '0' }, times: 10 })
    const error = await provider.getAddress().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MailProviderError)
    expect(error).toMatchObject({ status: 503, code: 'ServiceNotAvailable' })
    expect(calls('me.get')).toHaveLength(5)
  })

  it('does not wait for a Retry-After beyond its budget', async () => {
    fake.injectFault({ endpoint: 'me.get', status: 429, headers: { 'Retry-After': '3600' } })
    const started = Date.now()
    await expect(provider.getAddress()).rejects.toMatchObject({ status: 429, code: 'ApplicationThrottled' })
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('rides out the 4-concurrent-requests limit (429 MailboxConcurrency)', async () => {
    const delivered = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => fake.deliver(me, rawMessage({ from: 'a@b.example', to: me, subject: `c${i}` }))))
    fake.setLatency(150, me)
    const fetched = await Promise.all(delivered.map((d) => provider.fetchMessage(d.id)))
    expect(fetched.map((m) => m?.id)).toEqual(delivered.map((d) => d.id))
    expect(calls('messages.get')).toContain(429)
  })

  it('retries a dropped connection for reads, but not for creating a subscription (it may have been created)', async () => {
    fake.injectFault({ endpoint: 'me.get', drop: true })
    expect(await provider.getAddress()).toBe(me)
    expect(calls('me.get')).toEqual([0, 200])
    fake.injectFault({ endpoint: 'subscriptions.create', drop: true })
    await expect(provider.startPush({ notificationUrl: 'http://127.0.0.1:9/hook', clientState: 's' })).rejects.toMatchObject({ status: 0, code: 'network_error' })
    expect(calls('subscriptions.create')).toEqual([0])
  })

  it('other errors are not retried', async () => {
    fake.injectFault({ endpoint: 'me.get', status: 403 })
    await expect(provider.getAddress()).rejects.toMatchObject({ name: 'MailProviderError', status: 403, code: 'ErrorAccessDenied' })
    expect(calls('me.get')).toEqual([403])
  })

  it('parses Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000)
    expect(retryAfterMs(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000)
    expect(retryAfterMs('soon')).toBeUndefined()
    expect(retryAfterMs(null)).toBeUndefined()
  })
})

describe('tokens', () => {
  it('on 401 it refreshes once, retries, and the rotated refresh token is what gets stored', async () => {
    const before = store.tokens
    identity.advanceClock(2 * 60 * 60 * 1000) // the stored access token has expired
    expect(await provider.getAddress()).toBe(me)
    expect(store.refreshes).toBe(1)
    expect(store.tokens.refreshToken).not.toBe(before.refreshToken)
    expect(calls('me.get')).toEqual([401, 200])
    // Rotation: the refresh token from before no longer works.
    await expect(testOutlookOAuth(identity).refresh(before.refreshToken)).rejects.toBeInstanceOf(MailAuthRevokedError)
  })

  it('a revoked grant surfaces as MailAuthRevokedError', async () => {
    identity.revokeRefreshTokens('microsoft', me)
    await expect(provider.currentCursor()).rejects.toBeInstanceOf(MailAuthRevokedError)
    expect(store.refreshes).toBe(0)
  })

  it('a second 401 after a refresh is a MailProviderError, not a loop', async () => {
    fake.injectFault({ endpoint: 'me.get', status: 401, times: 2 })
    await expect(provider.getAddress()).rejects.toMatchObject({ status: 401, code: 'InvalidAuthenticationToken' })
    expect(store.refreshes).toBe(1)
  })
})
