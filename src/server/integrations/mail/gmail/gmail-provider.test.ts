import { buildRawMessage } from '#fakes/gmail/rfc822.ts'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { MailAuthRevokedError, MailProviderError, type MailProvider } from '../mail-provider.ts'
import { createGmailProvider } from './gmail-provider.ts'
import type { RetryPolicy } from './gmail-transport.ts'
import { startGmailTestbed, type GmailTestbed, type TestMailbox } from './gmail-test-kit.ts'

// The Gmail adapter against the Gmail fake over real HTTP, with tokens from the identity fakes.

let bed: GmailTestbed
const FAST = { baseDelayMs: 1, maxDelayMs: 5 }

beforeAll(async () => {
  bed = await startGmailTestbed({ pubsub: { topicName: 'projects/inbox-guard-test/topics/gmail' } })
})
afterAll(async () => {
  // Nothing any test did may have tried to destroy mail.
  expect(bed.fake.violations).toEqual([])
  await bed.close()
})
afterEach(() => {
  bed.fake.clearFaults()
})

async function mailbox(email: string, retry: Partial<RetryPolicy> = FAST): Promise<{ box: TestMailbox; gmail: MailProvider }> {
  const box = await bed.connect(email)
  return { box, gmail: createGmailProvider({ apiUrl: bed.fake.apiUrl, credentials: box.credentials, retry }) }
}

const inbound = (to: string, subject: string, from = 'someone@elsewhere.example') => buildRawMessage({ from, to, subject, text: `About ${subject}` })
const journalOf = (endpoint: string) => bed.fake.journal.filter((e) => e.endpoint === endpoint)

describe('reading', () => {
  it('getAddress and currentCursor come from the profile', async () => {
    const { gmail } = await mailbox('Reader.One@Example.com')
    expect(await gmail.getAddress()).toBe('reader.one@example.com')
    const cursor = await gmail.currentCursor()
    expect(cursor).toBe(bed.fake.mailbox('reader.one@example.com').historyId)
  })

  it('listNewMessageIds returns inbox arrivals since the cursor, oldest first, across pages, and the new cursor', async () => {
    const email = 'arrivals@example.com'
    const { gmail } = await mailbox(email)
    const cursor = await gmail.currentCursor()
    const first = bed.fake.deliver(email, inbound(email, 'First'))
    bed.fake.deliver(email, buildRawMessage({ from: email, to: 'out@elsewhere.example', subject: 'Sent, not new mail' }))
    const second = bed.fake.deliver(email, inbound(email, 'Second'))

    const result = await gmail.listNewMessageIds(cursor)
    expect(result).toEqual({ kind: 'ok', ids: [first.id, second.id], nextCursor: bed.fake.mailbox(email).historyId })
    if (result.kind !== 'ok') throw new Error('unreachable')
    expect(await gmail.listNewMessageIds(result.nextCursor)).toEqual({ kind: 'ok', ids: [], nextCursor: result.nextCursor })

    // More than one page of history (500 records a page).
    const many = Array.from({ length: 510 }, (_, i) => bed.fake.deliver(email, inbound(email, `Bulk ${i}`)).id)
    bed.fake.clearJournal()
    const bulk = await gmail.listNewMessageIds(result.nextCursor)
    expect(bulk).toEqual({ kind: 'ok', ids: many, nextCursor: bed.fake.mailbox(email).historyId })
    expect(journalOf('history.list')).toHaveLength(2)
  })

  it('listNewMessageIds answers cursor_expired when Gmail no longer knows the history id (404)', async () => {
    const email = 'expired@example.com'
    const { gmail } = await mailbox(email)
    const cursor = await gmail.currentCursor()
    bed.fake.deliver(email, inbound(email, 'Lost in history'))
    bed.fake.expireHistory(email)
    expect(await gmail.listNewMessageIds(cursor)).toEqual({ kind: 'cursor_expired' })
  })

  it('listRecentInboxIds returns inbox mail after a time, oldest first, at most max', async () => {
    const email = 'recent@example.com'
    const { gmail } = await mailbox(email)
    const now = Date.now()
    bed.fake.deliver(email, inbound(email, 'Too old'), { receivedAt: now - 3 * 3600_000 })
    const ids = [50, 40, 30, 20].map((min) => bed.fake.deliver(email, inbound(email, `${min} minutes ago`), { receivedAt: now - min * 60_000 }).id)
    bed.fake.deliver(email, buildRawMessage({ from: email, to: 'x@elsewhere.example', subject: 'Sent' }))
    const since = new Date(now - 3600_000)
    expect(await gmail.listRecentInboxIds(since, 10)).toEqual(ids)
    expect(await gmail.listRecentInboxIds(since, 2)).toEqual(ids.slice(2))
  })

  it('fetchMessage returns the raw message, its time and thread, or null when it is gone', async () => {
    const email = 'fetcher@example.com'
    const { gmail } = await mailbox(email)
    const raw = buildRawMessage({ from: 'Zoë <zoe@elsewhere.example>', to: email, subject: 'Grüße', text: 'Ünïcödé body ✓' })
    const receivedAt = new Date(Date.now() - 60_000)
    const { id, threadId } = bed.fake.deliver(email, raw, { receivedAt })
    expect(await gmail.fetchMessage(id)).toEqual({ id, raw, receivedAt, threadId })
    bed.fake.userDeletes(email, id)
    expect(await gmail.fetchMessage(id)).toBeNull()
  })

  it('hasWrittenTo is true for an address or domain the person sent mail to', async () => {
    const email = 'writer@example.com'
    const { gmail } = await mailbox(email)
    expect(await gmail.hasWrittenTo('bob@partner.example.org')).toBe(false)
    bed.fake.deliver(email, buildRawMessage({ from: `Writer <${email}>`, to: 'Bob <bob@partner.example.org>', subject: 'Hello Bob' }))
    expect(await gmail.hasWrittenTo('bob@partner.example.org')).toBe(true)
    expect(await gmail.hasWrittenTo('partner.example.org')).toBe(true)
    expect(await gmail.hasWrittenTo('@partner.example.org')).toBe(true)
    expect(await gmail.hasWrittenTo('carol@partner.example.org')).toBe(false)
    // Mail received from Bob is not mail written to him.
    bed.fake.deliver(email, inbound(email, 'From Carol', 'carol@other.example'))
    expect(await gmail.hasWrittenTo('carol@other.example')).toBe(false)
    bed.fake.clearJournal()
    expect(await gmail.hasWrittenTo('bob@partner.example.org OR in:inbox')).toBe(false)
    expect(bed.fake.journal).toEqual([])
  })
})

describe('filing away and restoring', () => {
  it('fileAway labels the message "Inbox Guard/<Category>" and takes it out of the inbox; restore puts it back under the same id', async () => {
    const email = 'filer@example.com'
    const { gmail } = await mailbox(email)
    const { id } = bed.fake.deliver(email, inbound(email, 'Cold pitch'))
    const other = bed.fake.deliver(email, inbound(email, 'Another pitch'))
    bed.fake.clearJournal()

    expect(await gmail.fileAway(id, 'unwanted')).toEqual({ id })
    expect(await gmail.fileAway(other.id, 'unwanted')).toEqual({ id: other.id })
    const box = bed.fake.mailbox(email)
    const label = box.labels.find((l) => l.name === 'Inbox Guard/Unwanted')
    expect(label).toBeDefined()
    expect(box.messages.find((m) => m.id === id)?.labelIds.sort()).toEqual([label!.id, 'UNREAD'].sort())
    // The label id is cached: created once for both messages.
    expect(journalOf('labels.create')).toHaveLength(1)

    expect(await gmail.isInInbox(id)).toBe(false)
    expect(await gmail.restore(id, 'unwanted')).toEqual({ id })
    expect(bed.fake.mailbox(email).messages.find((m) => m.id === id)?.labelIds.sort()).toEqual(['INBOX', 'UNREAD'])
    expect(await gmail.isInInbox(id)).toBe(true)
    bed.fake.userDeletes(email, id)
    expect(await gmail.isInInbox(id)).toBeNull()
  })

  it('reuses an existing label when labels.create answers 409, and restore works from a fresh instance', async () => {
    const email = 'relabel@example.com'
    const { box, gmail: first } = await mailbox(email)
    const { id } = bed.fake.deliver(email, inbound(email, 'Promo'))
    await first.fileAway(id, 'promotional')
    const labelId = bed.fake.mailbox(email).labels.find((l) => l.name === 'Inbox Guard/Promotional')!.id

    // A new process: no cache, the label already exists.
    const second = createGmailProvider({ apiUrl: bed.fake.apiUrl, credentials: box.credentials, retry: FAST })
    const next = bed.fake.deliver(email, inbound(email, 'Promo 2'))
    bed.fake.clearJournal()
    await second.fileAway(next.id, 'promotional')
    expect(journalOf('labels.create').map((e) => e.status)).toEqual([409])
    expect(journalOf('labels.list')).toHaveLength(1)
    expect(bed.fake.mailbox(email).messages.find((m) => m.id === next.id)?.labelIds).toContain(labelId)
    expect(bed.fake.mailbox(email).labels.filter((l) => l.name === 'Inbox Guard/Promotional')).toHaveLength(1)

    const third = createGmailProvider({ apiUrl: bed.fake.apiUrl, credentials: box.credentials, retry: FAST })
    await third.restore(id, 'promotional')
    expect(bed.fake.mailbox(email).messages.find((m) => m.id === id)?.labelIds.sort()).toEqual(['INBOX', 'UNREAD'])
  })

  it('recreates the label when the person deleted it after the adapter cached its id', async () => {
    const email = 'label-deleter@example.com'
    const { gmail } = await mailbox(email)
    const a = bed.fake.deliver(email, inbound(email, 'First'))
    await gmail.fileAway(a.id, 'informational')
    const oldLabel = bed.fake.mailbox(email).labels.find((l) => l.name === 'Inbox Guard/Informational')!.id
    bed.fake.userDeletesLabel(email, oldLabel)

    const b = bed.fake.deliver(email, inbound(email, 'Second'))
    await gmail.fileAway(b.id, 'informational')
    const newLabel = bed.fake.mailbox(email).labels.find((l) => l.name === 'Inbox Guard/Informational')!.id
    expect(newLabel).not.toBe(oldLabel)
    expect(bed.fake.mailbox(email).messages.find((m) => m.id === b.id)?.labelIds).toEqual(expect.arrayContaining([newLabel]))
    expect(bed.fake.mailbox(email).messages.find((m) => m.id === b.id)?.labelIds).not.toContain('INBOX')
  })
})

describe('push', () => {
  it('startPush and renewPush watch INBOX on the topic; stopPush stops', async () => {
    const email = 'pusher@example.com'
    const { gmail } = await mailbox(email)
    const target = { gmailTopic: bed.fake.pubsub.topicName }
    const sub = await gmail.startPush(target)
    expect(sub.id).toBeNull()
    expect(sub.historyId).toBe(bed.fake.mailbox(email).historyId)
    expect(sub.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000)
    expect(bed.fake.mailbox(email).watch).toMatchObject({ topicName: target.gmailTopic, labelIds: ['INBOX'], labelFilterBehavior: 'include' })

    bed.fake.advanceClock(3600_000)
    const renewed = await gmail.renewPush(sub, target)
    expect(renewed.expiresAt.getTime()).toBeGreaterThan(sub.expiresAt.getTime())
    bed.fake.advanceClock(-3600_000)

    await gmail.stopPush(renewed)
    expect(bed.fake.mailbox(email).watch).toBeUndefined()
    await expect(gmail.startPush({ gmailTopic: 'projects/other/topics/gmail' })).rejects.toMatchObject({ name: 'MailProviderError', status: 403 })
  })
})

describe('retries and errors', () => {
  it('retries 429, 5xx and 403 rate limits, then succeeds', async () => {
    const email = 'retry@example.com'
    const { gmail } = await mailbox(email)
    const { id } = bed.fake.deliver(email, inbound(email, 'Eventually'))
    bed.fake.clearJournal()
    bed.fake.injectFault({ endpoint: 'messages.get', status: 429, headers: { 'Retry-After': '0' } })
    bed.fake.injectFault({ endpoint: 'messages.get', status: 503, headers: { 'Retry-After': '0' } })
    bed.fake.injectFault({ endpoint: 'messages.get', status: 500 })
    bed.fake.injectFault({ endpoint: 'messages.get', status: 403 }) // userRateLimitExceeded
    expect((await gmail.fetchMessage(id))?.id).toBe(id)
    expect(journalOf('messages.get').map((e) => e.status)).toEqual([429, 503, 500, 403, 200])
  })

  it('honours Retry-After', async () => {
    const { gmail } = await mailbox('patient@example.com')
    bed.fake.injectFault({ endpoint: 'getProfile', status: 429 }) // the helper sends Retry-After: 1
    const started = Date.now()
    await gmail.getAddress()
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
  })

  it('gives up after the attempts with MailProviderError carrying status and reason', async () => {
    const { gmail } = await mailbox('hopeless@example.com', { ...FAST, maxAttempts: 3 })
    bed.fake.clearJournal()
    bed.fake.injectFault({ endpoint: 'getProfile', status: 429, headers: { 'Retry-After': '0' }, times: 5 })
    await expect(gmail.getAddress()).rejects.toMatchObject({ name: 'MailProviderError', status: 429, code: 'rateLimitExceeded' })
    expect(journalOf('getProfile')).toHaveLength(3)
  })

  it('does not retry errors retrying cannot fix', async () => {
    const { gmail } = await mailbox('denied@example.com')
    bed.fake.clearJournal()
    bed.fake.injectFault({
      endpoint: 'getProfile',
      status: 403,
      body: { error: { code: 403, message: 'Request had insufficient authentication scopes.', errors: [{ reason: 'insufficientPermissions', domain: 'global', message: 'Insufficient Permission' }], status: 'PERMISSION_DENIED' } },
    })
    const error = await gmail.getAddress().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MailProviderError)
    expect(error).toMatchObject({ status: 403, code: 'insufficientPermissions' })
    expect(journalOf('getProfile')).toHaveLength(1)
  })

  it('refreshes the access token once on 401 and retries', async () => {
    const email = 'expiring-token@example.com'
    const { box, gmail } = await mailbox(email)
    // The access token expires on Google's clock while the app still believes it valid.
    bed.identity.advanceClock(2 * 3600_000)
    try {
      bed.fake.clearJournal()
      expect(await gmail.getAddress()).toBe(email)
      expect(box.refreshes()).toBe(1)
      expect(journalOf('getProfile').map((e) => e.status)).toEqual([401, 200])
      // A second 401 after a refresh is final.
      bed.fake.injectFault({ endpoint: 'getProfile', status: 401, times: 2 })
      await expect(gmail.getAddress()).rejects.toMatchObject({ name: 'MailProviderError', status: 401, code: 'authError' })
      expect(box.refreshes()).toBe(2)
    } finally {
      bed.identity.advanceClock(-2 * 3600_000)
    }
  })

  it('propagates MailAuthRevokedError when the grant was revoked (invalid_grant)', async () => {
    const email = 'revoked@example.com'
    const { box, gmail } = await mailbox(email)
    bed.identity.revokeRefreshTokens('google', email)
    const error = await gmail.currentCursor().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MailAuthRevokedError)
    expect(box.refreshes()).toBe(1)
  })

  it('maps a connection the server drops to MailProviderError after the retries', async () => {
    const { gmail } = await mailbox('dropped@example.com', { ...FAST, maxAttempts: 2 })
    bed.fake.injectFault({ endpoint: 'getProfile', drop: true, times: 2 })
    await expect(gmail.getAddress()).rejects.toMatchObject({ name: 'MailProviderError', status: 0, code: 'network_error' })
    bed.fake.injectFault({ endpoint: 'getProfile', drop: true })
    expect(await gmail.getAddress()).toBe('dropped@example.com')
  })
})
