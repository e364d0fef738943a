import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startGraphMailFake, type GraphMailFake } from '#fakes/graph-mail/server.ts'
import { rawMessage, startReceiver, startTestIdentity, type Receiver } from '#fakes/graph-mail/test-support.ts'
import type { IdentityFakes } from '#fakes/identity/server.ts'
import { MailProviderError, type MailProvider } from '../mail-provider.ts'
import { createOutlookProvider, OUTLOOK_SUBSCRIPTION_MAX_MINUTES } from './outlook-provider.ts'
import { connectTokens, storedCredentials, testOutlookOAuth } from './outlook-test-support.ts'

/**
 * Every MailProvider member of the Outlook adapter, against the Graph mail fake over loopback HTTP with
 * tokens from the Microsoft identity fake (providers.md B2, B3). Nothing is stubbed.
 */

let identity: IdentityFakes
let fake: GraphMailFake
let receiver: Receiver
let n = 0
let me: string
let provider: MailProvider

const from = (subject: string, extra: Partial<Parameters<typeof rawMessage>[0]> = {}) => rawMessage({ from: 'Sam <sam@sender.example>', to: me, subject, ...extra })

async function connect(email: string, options: { deltaPageSize?: number } = {}) {
  const oauth = testOutlookOAuth(identity)
  const store = storedCredentials(oauth, await connectTokens(oauth, email))
  return createOutlookProvider({ graphUrl: fake.url, credentials: store.credentials, retry: { baseDelayMs: 5 }, ...options })
}

beforeAll(async () => {
  identity = await startTestIdentity()
  fake = await startGraphMailFake({ identity })
  receiver = await startReceiver()
})

afterAll(async () => {
  await receiver.close()
  await fake.close()
  await identity.close()
})

beforeEach(async () => {
  n += 1
  me = `owner${n}@contoso.example`
  provider = await connect(me)
})

afterEach(() => {
  // The adapter sends Prefer: IdType="ImmutableId" on every request, and never tries to destroy mail.
  const ours = fake.journal.filter((e) => e.mailbox === me)
  expect(ours.length).toBeGreaterThan(0)
  expect(ours.filter((e) => e.idType !== 'immutable')).toEqual([])
  expect(fake.violations).toEqual([])
})

describe('getAddress', () => {
  it('is /me mail', async () => {
    expect(provider.name).toBe('outlook')
    expect(await provider.getAddress()).toBe(me)
  })

  it('a mailbox without Exchange Online is a MailProviderError MailboxNotEnabledForRESTAPI (a permanent state)', async () => {
    fake.setMailboxEnabled(me, false)
    expect(await provider.getAddress()).toBe(me) // userPrincipalName, as mail is null
    const error = await provider.currentCursor().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MailProviderError)
    expect(error).toMatchObject({ status: 404, code: 'MailboxNotEnabledForRESTAPI' })
  })
})

describe('cursor and new messages (delta)', () => {
  it('currentCursor is a delta link; listNewMessageIds returns what arrived since, oldest first, and the next cursor', async () => {
    await fake.seed(me, [{ raw: from('before the cursor') }])
    const cursor = await provider.currentCursor()
    // Graph names the folder by id as a key segment in its links.
    expect(cursor).toMatch(/\/v1\.0\/me\/mailfolders\('[^']+'\)\/messages\/delta\?\$deltatoken=/)
    expect(await provider.listNewMessageIds(cursor)).toMatchObject({ kind: 'ok', ids: [] })

    const t = Date.now()
    const second = await fake.deliver(me, from('second'), { receivedAt: t + 2000 })
    const first = await fake.deliver(me, from('first'), { receivedAt: t + 1000 })
    await fake.deliver(me, from('elsewhere'), { folder: 'archive' })
    const result = await provider.listNewMessageIds(cursor)
    if (result.kind !== 'ok') throw new Error('expected ok')
    expect(result.ids).toEqual([first.id, second.id])

    // The old cursor still works (the pipeline advances only after a batch), the new one is past them.
    expect(await provider.listNewMessageIds(cursor)).toMatchObject({ ids: [first.id, second.id] })
    expect(await provider.listNewMessageIds(result.nextCursor)).toMatchObject({ kind: 'ok', ids: [] })
  })

  it('ignores messages moved out of the Inbox and updates; a restored message comes back with its same id', async () => {
    const a = await fake.deliver(me, from('a'))
    const cursor = await provider.currentCursor()
    await provider.fileAway(a.id, 'promotional')
    const afterFiling = await provider.listNewMessageIds(cursor)
    expect(afterFiling).toMatchObject({ kind: 'ok', ids: [] })
    if (afterFiling.kind !== 'ok') return
    await provider.restore(a.id, 'promotional')
    expect(await provider.listNewMessageIds(afterFiling.nextCursor)).toMatchObject({ ids: [a.id] })
  })

  it('follows every page of a round', async () => {
    const small = await connect(me, { deltaPageSize: 2 })
    const cursor = await small.currentCursor()
    const delivered = []
    for (let i = 0; i < 5; i++) delivered.push(await fake.deliver(me, from(`m${i}`), { receivedAt: Date.now() + i * 1000 }))
    expect(await small.listNewMessageIds(cursor)).toMatchObject({ ids: delivered.map((d) => d.id) })
    expect(fake.journal.filter((e) => e.endpoint === 'messages.delta' && e.mailbox === me).length).toBeGreaterThanOrEqual(3)
  })

  it('an expired delta token (410 SyncStateNotFound) is cursor_expired', async () => {
    const cursor = await provider.currentCursor()
    fake.expireDeltaTokens(me)
    expect(await provider.listNewMessageIds(cursor)).toEqual({ kind: 'cursor_expired' })
  })

  it('a cursor pointing anywhere but our Graph delta endpoint is cursor_expired, and is never requested', async () => {
    const cursor = await provider.currentCursor()
    const token = new URL(cursor).searchParams.get('$deltatoken') ?? ''
    const before = fake.journal.length
    for (const bad of [
      `http://127.0.0.1:9/v1.0/me/mailFolders/inbox/messages/delta?$deltatoken=${token}`,
      `${fake.url}/me/messages?$deltatoken=${token}`,
      'not a url',
      '12345',
    ]) {
      expect(await provider.listNewMessageIds(bad)).toEqual({ kind: 'cursor_expired' })
    }
    expect(fake.journal.length).toBe(before)
  })
})

describe('listRecentInboxIds', () => {
  it('returns Inbox ids received since a time, at most max, oldest first', async () => {
    const base = Date.parse('2025-06-01T12:00:00Z')
    const seeded = await fake.seed(
      me,
      [0, 1, 2, 3, 4].map((i) => ({ raw: from(`r${i}`), receivedAt: base + i * 60_000 })),
    )
    await fake.seed(me, [{ raw: from('archived'), receivedAt: base + 10 * 60_000, folder: 'archive' }])
    const ids = seeded.map((s) => s.id)
    expect(await provider.listRecentInboxIds(new Date(base + 60_000), 10)).toEqual(ids.slice(1))
    expect(await provider.listRecentInboxIds(new Date(base), 3)).toEqual(ids.slice(2))
    expect(await provider.listRecentInboxIds(new Date(base), 0)).toEqual([])
  })
})

describe('fetchMessage', () => {
  it('returns the raw MIME, the receive time and the conversation id', async () => {
    const raw = from('Fetch me', { body: 'Body text.' })
    const receivedAt = new Date('2025-05-05T08:30:00Z')
    const { id } = await fake.deliver(me, raw, { receivedAt })
    const message = await provider.fetchMessage(id)
    expect(message).toEqual({ id, raw, receivedAt, threadId: expect.stringMatching(/\S/) })
  })

  it('returns null for a message that is gone (404 ErrorItemNotFound)', async () => {
    expect(await provider.fetchMessage('AAkALgAAAAnotthereAAA=')).toBeNull()
  })
})

describe('fileAway and restore', () => {
  it('creates "Inbox Guard/<Category>", moves the message there and back, keeping its id', async () => {
    const { id } = await fake.deliver(me, from('Cold pitch'))
    expect(await provider.fileAway(id, 'unwanted')).toEqual({ id })
    expect(fake.mailbox(me).messages.find((m) => m.id === id)?.folder).toBe('Inbox Guard/Unwanted')
    expect(await provider.isInInbox(id)).toBe(false)
    expect(await provider.restore(id, 'unwanted')).toEqual({ id })
    expect(fake.mailbox(me).messages.find((m) => m.id === id)?.folder).toBe('Inbox')
    expect(await provider.isInInbox(id)).toBe(true)
    expect((await provider.fetchMessage(id))?.id).toBe(id)
    expect(await provider.isInInbox('AAMkAGVmMDEzMTM4LWZhZGUtNDQxZi1hMDcyLWM4MWE4MzM1NWQ3ZgBGAAAAAAA')).toBeNull()
  })

  it('reuses existing folders and creates each only once, also under concurrent calls', async () => {
    const messages = await Promise.all([1, 2, 3].map((i) => fake.deliver(me, from(`promo ${i}`))))
    await Promise.all(messages.map((m) => provider.fileAway(m.id, 'promotional')))
    await provider.fileAway((await fake.deliver(me, from('news'))).id, 'informational')
    const folders = fake.mailbox(me).folders.map((f) => f.path)
    expect(folders.filter((p) => p === 'Inbox Guard')).toHaveLength(1)
    expect(folders.filter((p) => p === 'Inbox Guard/Promotional')).toHaveLength(1)
    expect(fake.mailbox(me).byFolder['Inbox Guard/Promotional']).toHaveLength(3)
    const creates = fake.journal.filter((e) => e.mailbox === me && e.endpoint.endsWith('.create'))
    expect(creates.map((e) => e.endpoint)).toEqual(['mailFolders.create', 'childFolders.create', 'childFolders.create'])

    // A new adapter instance (another worker) finds the folders instead of creating them.
    const other = await connect(me)
    await other.fileAway((await fake.deliver(me, from('promo 4'))).id, 'promotional')
    expect(fake.journal.filter((e) => e.mailbox === me && e.endpoint.endsWith('.create'))).toHaveLength(3)
  })

  it('on ErrorFolderExists (another worker created it meanwhile) it looks the folder up and uses it', async () => {
    const other = await connect(me)
    await other.fileAway((await fake.deliver(me, from('first'))).id, 'transactional')
    // This adapter's first lookup misses (as in a race), so it tries to create and gets ErrorFolderExists.
    fake.injectFault({ endpoint: 'mailFolders.list', pathIncludes: '/mailFolders', status: 200, body: { value: [] } })
    const { id } = await fake.deliver(me, from('second'))
    await provider.fileAway(id, 'transactional')
    const calls = fake.journal.filter((e) => e.mailbox === me || e.error === 'injected_fault').map((e) => `${e.endpoint} ${e.status}`)
    expect(calls.slice(-5)).toEqual(['mailFolders.list 200', 'mailFolders.create 409', 'mailFolders.list 200', 'childFolders.list 200', 'messages.move 201'])
    expect(fake.mailbox(me).folders.filter((f) => f.path === 'Inbox Guard')).toHaveLength(1)
    expect(fake.mailbox(me).messages.find((m) => m.id === id)?.folder).toBe('Inbox Guard/Transactional')
  })
})

describe('hasWrittenTo (prior correspondence in Sent Items)', () => {
  it('is true for an address or a domain the person has sent mail to', async () => {
    expect(await provider.hasWrittenTo('pat@partner.example')).toBe(false)
    await fake.deliver(me, rawMessage({ from: me, to: 'Pat <Pat@Partner.example>', subject: 'Our call' }))
    expect(await provider.hasWrittenTo('pat@partner.example')).toBe(true)
    expect(await provider.hasWrittenTo('PARTNER.example')).toBe(true)
    expect(await provider.hasWrittenTo('other@partner.example')).toBe(false)
    expect(await provider.hasWrittenTo('sender.example')).toBe(false)
  })

  it('is false, without a request, for something that is neither an address nor a domain', async () => {
    await provider.getAddress()
    const before = fake.journal.length
    expect(await provider.hasWrittenTo('"to:x" OR *')).toBe(false)
    expect(await provider.hasWrittenTo('')).toBe(false)
    expect(fake.journal.length).toBe(before)
  })
})

describe('push (Graph subscriptions)', () => {
  const target = () => ({ notificationUrl: receiver.notificationUrl, lifecycleNotificationUrl: receiver.lifecycleNotificationUrl, clientState: `state-${n}` })

  it('startPush subscribes to new Inbox messages for the longest lifetime Graph allows; notifications carry clientState and immutable ids', async () => {
    const sub = await provider.startPush(target())
    expect(sub.id).toBeTruthy()
    const minutes = (sub.expiresAt.getTime() - Date.now()) / 60_000
    expect(minutes).toBeGreaterThan(OUTLOOK_SUBSCRIPTION_MAX_MINUTES - 15)
    expect(minutes).toBeLessThanOrEqual(OUTLOOK_SUBSCRIPTION_MAX_MINUTES)
    expect(fake.subscriptions(me)).toEqual([
      expect.objectContaining({ id: sub.id, changeType: 'created', resource: "me/mailFolders('inbox')/messages", lifecycleNotificationUrl: receiver.lifecycleNotificationUrl }),
    ])

    const cursor = await provider.currentCursor()
    const seen = receiver.received.length
    const { id } = await fake.deliver(me, from('push me'))
    const pushes = await receiver.waitFor(seen + 1)
    const item = pushes.at(-1)?.body.value[0]
    expect(item).toMatchObject({ clientState: `state-${n}`, changeType: 'created', subscriptionId: sub.id, resourceData: { id } })
    expect(await provider.listNewMessageIds(cursor)).toMatchObject({ ids: [id] })
  })

  it('renewPush extends the subscription; a subscription that is gone is created anew', async () => {
    const sub = await provider.startPush(target())
    const shorter = { ...sub, expiresAt: new Date(Date.now() + 60_000) }
    const renewed = await provider.renewPush(shorter, target())
    expect(renewed.id).toBe(sub.id)
    expect(fake.journal.filter((e) => e.mailbox === me && e.endpoint === 'subscriptions.update').map((e) => e.status)).toEqual([200])

    await fake.sendLifecycleNotification(sub.id ?? '', 'subscriptionRemoved')
    const recreated = await provider.renewPush(renewed, target())
    expect(recreated.id).not.toBe(sub.id)
    expect(fake.subscriptions(me).map((s) => s.id)).toEqual([recreated.id])
  })

  it('stopPush deletes the subscription, and a second stop (404) is fine', async () => {
    const sub = await provider.startPush(target())
    await provider.stopPush(sub)
    expect(fake.subscriptions(me)).toEqual([])
    await provider.stopPush(sub)
    await provider.stopPush({ id: null, expiresAt: new Date() })
    expect(fake.journal.filter((e) => e.mailbox === me && e.endpoint === 'subscriptions.delete').map((e) => e.status)).toEqual([204, 404])
  })

  it('a failed validation handshake is a MailProviderError ValidationError', async () => {
    receiver.behaviour.validation = 'wrong-token'
    try {
      const error = await provider.startPush(target()).catch((e: unknown) => e)
      expect(error).toMatchObject({ name: 'MailProviderError', status: 400, code: 'ValidationError' })
    } finally {
      receiver.behaviour.validation = 'echo'
    }
  })
})
