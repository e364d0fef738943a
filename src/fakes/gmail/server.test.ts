import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startIdentityFakes, type IdentityFakes } from '../identity/server.ts'
import { googleTokensFor } from './google-tokens.ts'
import { buildRawMessage } from './rfc822.ts'
import { GMAIL_SCOPES, startGmailFake, type GmailFake } from './server.ts'

// Protocol tests of the Gmail fake over real HTTP (providers.md A2, A4, A5, D2).

const GOOGLE = { clientId: 'gmail-fake-test.apps.example', clientSecret: 'gmail-fake-secret' }
const ME = 'ada@example.com'

let identity: IdentityFakes
let fake: GmailFake
let token: string

beforeAll(async () => {
  identity = await startIdentityFakes({ google: GOOGLE, microsoft: { clientId: 'ms', clientSecret: 'ms-secret' } })
  fake = await startGmailFake({ identity, historyRetention: { maxRecords: 50 } })
  token = (await googleTokensFor(identity, GOOGLE, ME, ['openid', 'email', GMAIL_SCOPES.modify])).accessToken
})
afterAll(async () => {
  await fake.close()
  await identity.close()
})
afterEach(() => {
  fake.clearFaults()
})

async function call(method: string, path: string, options: { body?: unknown; token?: string; user?: string } = {}) {
  const res = await fetch(`${fake.apiUrl}/gmail/v1/users/${options.user ?? 'me'}${path}`, {
    method,
    headers: {
      ...(options.token !== '' ? { Authorization: `Bearer ${options.token ?? token}` } : {}),
      ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  const text = await res.text()
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as any }
}

const mail = (from: string, to: string, subject: string, text = 'Hello there') => buildRawMessage({ from, to, subject, text })

describe('authentication and scopes', () => {
  it('answers 401 authError with the Google error shape without a valid token', async () => {
    for (const t of ['', 'ya29.not-a-real-token']) {
      const res = await call('GET', '/profile', { token: t })
      expect(res.status).toBe(401)
      expect(res.body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED', errors: [{ reason: 'authError', location: 'Authorization' }] })
      expect(res.headers.get('www-authenticate')).toContain('invalid_token')
    }
  })

  it('answers 403 insufficientPermissions when the token has no Gmail scope, and readonly cannot modify', async () => {
    const bare = await googleTokensFor(identity, GOOGLE, 'scopeless@example.com', ['openid', 'email'])
    const res = await call('GET', '/profile', { token: bare.accessToken })
    expect(res.status).toBe(403)
    expect(res.body.error.errors[0].reason).toBe('insufficientPermissions')

    const readonly = await googleTokensFor(identity, GOOGLE, 'reader@example.com', ['openid', GMAIL_SCOPES.readonly])
    const { id } = fake.deliver('reader@example.com', mail('x@other.org', 'reader@example.com', 'Hi'))
    expect((await call('GET', `/messages/${id}?format=raw`, { token: readonly.accessToken })).status).toBe(200)
    const modify = await call('POST', `/messages/${id}/modify`, { token: readonly.accessToken, body: { removeLabelIds: ['INBOX'] } })
    expect(modify.status).toBe(403)
    expect(modify.body.error.errors[0].reason).toBe('insufficientPermissions')
  })

  it('refuses another user id than the token owner', async () => {
    const res = await call('GET', '/profile', { user: 'someone.else@example.com' })
    expect(res.status).toBe(403)
    expect(res.body.error.message).toBe(`Delegation denied for ${ME}`)
  })

  it('creates an empty mailbox on first use, keyed by the token owner', async () => {
    const fresh = await googleTokensFor(identity, GOOGLE, 'New.Person@Example.com', ['openid', GMAIL_SCOPES.modify])
    const res = await call('GET', '/profile', { token: fresh.accessToken })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ emailAddress: 'new.person@example.com', messagesTotal: 0, threadsTotal: 0 })
    expect(res.body.historyId).toMatch(/^\d+$/)
  })
})

describe('messages', () => {
  it('lists with q (in:inbox, in:sent, to:, after:, newer_than:), labelIds and paging', async () => {
    const user = 'lister@example.com'
    const t = (await googleTokensFor(identity, GOOGLE, user, ['openid', GMAIL_SCOPES.modify])).accessToken
    const day = 86_400_000
    const old = fake.deliver(user, mail('a@shop.example', user, 'Old'), { receivedAt: Date.now() - 10 * day })
    const recent = [1, 2, 3].map((i) => fake.deliver(user, mail(`p${i}@people.example`, user, `Recent ${i}`), { receivedAt: Date.now() - i * 60_000 }))
    const sent = fake.deliver(user, mail(user, 'Bob <bob@partner.example.org>', 'Proposal'))
    expect(fake.mailbox(user).messages.find((m) => m.id === sent.id)?.labelIds).toEqual(['SENT'])

    const ids = async (q: string, extra = '') => {
      const res = await call('GET', `/messages?q=${encodeURIComponent(q)}${extra}`, { token: t })
      expect(res.status).toBe(200)
      return ((res.body.messages ?? []) as Array<{ id: string }>).map((m) => m.id)
    }
    expect(await ids('in:inbox')).toEqual([recent[0]!.id, recent[1]!.id, recent[2]!.id, old.id])
    expect(await ids('in:sent')).toEqual([sent.id])
    expect(await ids('in:sent to:bob@partner.example.org')).toEqual([sent.id])
    expect(await ids('in:sent to:partner.example.org')).toEqual([sent.id])
    expect(await ids('in:sent to:@example.org')).toEqual([sent.id])
    expect(await ids('in:sent to:carol@partner.example.org')).toEqual([])
    expect(await ids(`in:inbox after:${Math.floor((Date.now() - day) / 1000)}`)).toHaveLength(3)
    expect(await ids('in:inbox newer_than:2d')).toHaveLength(3)
    expect(await ids('', '&labelIds=INBOX&labelIds=UNREAD')).toHaveLength(4)
    expect(await ids('', '&labelIds=INBOX&labelIds=SENT')).toEqual([])

    const first = await call('GET', '/messages?labelIds=INBOX&maxResults=3', { token: t })
    expect(first.body.messages).toHaveLength(3)
    expect(first.body.resultSizeEstimate).toBe(4)
    const second = await call('GET', `/messages?labelIds=INBOX&maxResults=3&pageToken=${first.body.nextPageToken}`, { token: t })
    expect(second.body.messages.map((m: { id: string }) => m.id)).toEqual([old.id])
    expect(second.body.nextPageToken).toBeUndefined()

    const none = await call('GET', '/messages?q=in:inbox%20from:nobody@nowhere.example', { token: t })
    expect(none.body).toEqual({ resultSizeEstimate: 0 })
  })

  it('gets a message as raw, metadata, full and minimal, and 404s unknown ids', async () => {
    const raw = buildRawMessage({ from: 'Zed <zed@news.example>', to: ME, subject: 'Formats', text: 'Body text here', html: '<p>Body <b>html</b></p>', headers: { 'List-Id': '<news.example>' } })
    const { id, threadId } = fake.deliver(ME, raw)
    const asRaw = await call('GET', `/messages/${id}?format=raw`)
    expect(asRaw.status).toBe(200)
    expect(Buffer.from(asRaw.body.raw, 'base64url').toString('utf8')).toBe(raw)
    expect(asRaw.body).toMatchObject({ id, threadId, labelIds: ['INBOX', 'UNREAD'], snippet: 'Body text here' })
    expect(asRaw.body.internalDate).toMatch(/^\d+$/)
    expect(asRaw.body.payload).toBeUndefined()

    const meta = await call('GET', `/messages/${id}?format=metadata&metadataHeaders=Subject&metadataHeaders=list-id`)
    expect(meta.body.payload.headers).toEqual([
      { name: 'Subject', value: 'Formats' },
      { name: 'List-Id', value: '<news.example>' },
    ])
    expect(meta.body.raw).toBeUndefined()

    const full = await call('GET', `/messages/${id}`)
    expect(full.body.payload.mimeType).toBe('multipart/alternative')
    expect(full.body.payload.parts.map((p: { mimeType: string; partId: string }) => [p.partId, p.mimeType])).toEqual([
      ['0', 'text/plain'],
      ['1', 'text/html'],
    ])
    expect(Buffer.from(full.body.payload.parts[0].body.data, 'base64url').toString('utf8')).toBe('Body text here')

    const minimal = await call('GET', `/messages/${id}?format=minimal`)
    expect(Object.keys(minimal.body).sort()).toEqual(['historyId', 'id', 'internalDate', 'labelIds', 'sizeEstimate', 'snippet', 'threadId'])

    const missing = await call('GET', '/messages/ffffffffffff0000?format=raw')
    expect(missing.status).toBe(404)
    expect(missing.body.error).toMatchObject({ code: 404, message: 'Requested entity was not found.', errors: [{ reason: 'notFound' }] })
  })

  it('threads a reply with the message it answers', async () => {
    const first = buildRawMessage({ from: 'q@thread.example', to: ME, subject: 'Question', messageId: '<q1@thread.example>' })
    const a = fake.deliver(ME, first)
    const b = fake.deliver(ME, buildRawMessage({ from: ME, to: 'q@thread.example', subject: 'Re: Question', inReplyTo: '<q1@thread.example>' }))
    expect(b.threadId).toBe(a.threadId)
  })

  it('modifies labels and refuses more than 1000 ids in batchModify', async () => {
    const { id } = fake.deliver(ME, mail('m@mod.example', ME, 'Modify me'))
    const res = await call('POST', `/messages/${id}/modify`, { body: { addLabelIds: ['STARRED'], removeLabelIds: ['INBOX', 'UNREAD'] } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ id, threadId: id, labelIds: ['STARRED'] })
    expect((await call('POST', `/messages/${id}/modify`, { body: { addLabelIds: ['Label_999'] } })).status).toBe(400)

    const ids = Array.from({ length: 1001 }, (_, i) => `id${i}`)
    const tooMany = await call('POST', '/messages/batchModify', { body: { ids, addLabelIds: ['INBOX'] } })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.error.message).toBe('Number of ids cannot exceed 1000')
    const ok = await call('POST', '/messages/batchModify', { body: { ids: [id], addLabelIds: ['INBOX'] } })
    expect(ok.status).toBe(204)
    expect(fake.mailbox(ME).messages.find((m) => m.id === id)?.labelIds.sort()).toEqual(['INBOX', 'STARRED'])
  })
})

describe('labels', () => {
  it('creates user labels, answers 409 ALREADY_EXISTS on a name in any case, and checks the colour palette', async () => {
    const created = await call('POST', '/labels', { body: { name: 'Inbox Guard/Unwanted', color: { textColor: '#ffffff', backgroundColor: '#fb4c2f' } } })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^Label_\d+$/), name: 'Inbox Guard/Unwanted', type: 'user', labelListVisibility: 'labelShow', messageListVisibility: 'show' })

    const duplicate = await call('POST', '/labels', { body: { name: 'inbox guard/UNWANTED' } })
    expect(duplicate.status).toBe(409)
    expect(duplicate.body.error).toMatchObject({ code: 409, message: 'Label name exists or conflicts', status: 'ALREADY_EXISTS', errors: [{ reason: 'duplicate' }] })

    expect((await call('POST', '/labels', { body: { name: 'Bad colour', color: { textColor: '#ffffff', backgroundColor: '#123456' } } })).status).toBe(400)
    expect((await call('POST', '/labels', { body: { name: 'Inbox' } })).status).toBe(400)

    const list = await call('GET', '/labels')
    expect(list.body.labels.map((l: { id: string }) => l.id)).toEqual(expect.arrayContaining(['INBOX', 'SENT', 'UNREAD', 'TRASH', 'SPAM', created.body.id]))
    expect(list.body.labels.find((l: { id: string }) => l.id === created.body.id).messagesTotal).toBeUndefined()

    const { id } = fake.deliver(ME, mail('l@labels.example', ME, 'Label me'))
    await call('POST', `/messages/${id}/modify`, { body: { addLabelIds: [created.body.id] } })
    const got = await call('GET', `/labels/${created.body.id}`)
    expect(got.body).toMatchObject({ name: 'Inbox Guard/Unwanted', messagesTotal: 1, messagesUnread: 1, threadsTotal: 1 })
    expect((await call('GET', '/labels/Label_424242')).status).toBe(404)
  })
})

describe('history', () => {
  it('writes messageAdded and label changes with increasing ids that have gaps', async () => {
    const user = 'historian@example.com'
    const t = (await googleTokensFor(identity, GOOGLE, user, ['openid', GMAIL_SCOPES.modify])).accessToken
    const start = (await call('GET', '/profile', { token: t })).body.historyId as string
    const a = fake.deliver(user, mail('a@h.example', user, 'A'))
    const b = fake.deliver(user, mail('b@h.example', user, 'B'))
    await call('POST', `/messages/${a.id}/modify`, { token: t, body: { addLabelIds: ['STARRED'], removeLabelIds: ['INBOX'] } })

    const all = await call('GET', `/history?startHistoryId=${start}`, { token: t })
    expect(all.status).toBe(200)
    const records = all.body.history as Array<Record<string, unknown> & { id: string }>
    expect(records).toHaveLength(3)
    const ids = records.map((r) => Number(r.id))
    expect(ids[0]).toBeGreaterThan(Number(start))
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]!)
    expect(all.body.historyId).toBe(String(ids[2]))
    expect(records[0]).toMatchObject({ messages: [{ id: a.id }], messagesAdded: [{ message: { id: a.id, labelIds: ['INBOX', 'UNREAD'] } }] })
    expect(records[2]).toMatchObject({ labelsAdded: [{ message: { id: a.id }, labelIds: ['STARRED'] }], labelsRemoved: [{ message: { id: a.id }, labelIds: ['INBOX'] }] })

    // Gaps: over many records, consecutive ids are not all one apart.
    for (let i = 0; i < 10; i++) fake.deliver(user, mail(`g${i}@h.example`, user, `G${i}`))
    const gaps = (await call('GET', `/history?startHistoryId=${start}&historyTypes=messageAdded`, { token: t })).body.history.map((r: { id: string }) => Number(r.id))
    expect(gaps.slice(1).some((id: number, i: number) => id - gaps[i] > 1)).toBe(true)

    const added = await call('GET', `/history?startHistoryId=${start}&historyTypes=messageAdded&labelId=INBOX&maxResults=2`, { token: t })
    expect(added.body.history.map((r: { messagesAdded: Array<{ message: { id: string } }> }) => r.messagesAdded[0]!.message.id)).toEqual([a.id, b.id])
    expect(added.body.history[0].labelsAdded).toBeUndefined()
    expect(added.body.nextPageToken).toBeTruthy()
    const page2 = await call('GET', `/history?startHistoryId=${start}&historyTypes=messageAdded&labelId=INBOX&maxResults=2&pageToken=${added.body.nextPageToken}`, { token: t })
    expect(page2.body.history).toHaveLength(2)

    const head = all.body.historyId
    const empty = await call('GET', `/history?startHistoryId=${fake.mailbox(user).historyId}`, { token: t })
    expect(empty.body).toEqual({ historyId: fake.mailbox(user).historyId })
    expect(Number(head)).toBeLessThan(Number(fake.mailbox(user).historyId))
  })

  it('answers 404 notFound for a startHistoryId older than the retained window', async () => {
    const user = 'expiring@example.com'
    const t = (await googleTokensFor(identity, GOOGLE, user, ['openid', GMAIL_SCOPES.modify])).accessToken
    const start = (await call('GET', '/profile', { token: t })).body.historyId
    fake.deliver(user, mail('x@e.example', user, 'X'))
    expect((await call('GET', `/history?startHistoryId=${start}`, { token: t })).status).toBe(200)

    fake.expireHistory(user)
    const expired = await call('GET', `/history?startHistoryId=${start}`, { token: t })
    expect(expired.status).toBe(404)
    expect(expired.body.error).toMatchObject({ code: 404, message: 'Requested entity was not found.', errors: [{ reason: 'notFound' }] })
    const fresh = fake.mailbox(user).historyId
    fake.deliver(user, mail('y@e.example', user, 'Y'))
    expect((await call('GET', `/history?startHistoryId=${fresh}`, { token: t })).body.history).toHaveLength(1)

    // The configured window (50 records here) moves on by itself too.
    const before = fake.mailbox(user).historyId
    for (let i = 0; i < 51; i++) fake.deliver(user, mail(`n${i}@e.example`, user, `N${i}`))
    expect((await call('GET', `/history?startHistoryId=${before}`, { token: t })).status).toBe(404)
    expect((await call('GET', '/history', { token: t })).status).toBe(400)
  })
})

describe('mail-destroying calls', () => {
  it('answers 403 to every trash, delete and TRASH/SPAM call and records a violation', async () => {
    const { id } = fake.deliver(ME, mail('v@violations.example', ME, 'Keep me'))
    fake.clearViolations()
    const attempts: Array<[string, string, unknown?]> = [
      ['POST', `/messages/${id}/trash`],
      ['POST', `/messages/${id}/untrash`],
      ['DELETE', `/messages/${id}`],
      ['POST', '/messages/batchDelete', { ids: [id] }],
      ['POST', `/threads/${id}/trash`],
      ['DELETE', `/threads/${id}`],
      ['POST', `/messages/${id}/modify`, { addLabelIds: ['TRASH'] }],
      ['POST', '/messages/batchModify', { ids: [id], addLabelIds: ['SPAM'] }],
      ['POST', `/threads/${id}/modify`, { addLabelIds: ['trash'] }],
    ]
    for (const [method, path, body] of attempts) {
      const res = await call(method, path, { body })
      expect(res.status, `${method} ${path}`).toBe(403)
    }
    expect(fake.violations.map((v) => v.endpoint)).toEqual([
      'messages.trash',
      'messages.untrash',
      'messages.delete',
      'messages.batchDelete',
      'threads.trash',
      'threads.delete',
      'messages.modify',
      'messages.batchModify',
      'threads.modify',
    ])
    expect(fake.violations.every((v) => v.address === ME)).toBe(true)
    expect(fake.mailbox(ME).messages.find((m) => m.id === id)?.labelIds).toEqual(['INBOX', 'UNREAD'])
    expect(fake.journal.filter((e) => e.violation === true)).toHaveLength(attempts.length)
    fake.clearViolations()
  })
})

describe('faults, limits and the journal', () => {
  it('injects Gmail-style fault bodies through the shared helper', async () => {
    fake.injectFault({ endpoint: 'messages.list', status: 429 })
    fake.injectFault({ endpoint: 'getProfile', status: 503 })
    fake.injectFault({ endpoint: 'getProfile', status: 403 })
    const limited = await call('GET', '/messages')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('1')
    expect(limited.body.error.errors[0].reason).toBe('rateLimitExceeded')
    expect((await call('GET', '/profile')).body.error.errors[0].reason).toBe('backendError')
    expect((await call('GET', '/profile')).body.error.errors[0]).toMatchObject({ reason: 'userRateLimitExceeded', domain: 'usageLimits' })
    expect((await call('GET', '/profile')).status).toBe(200)
  })

  it('journals every call without tokens or message content', async () => {
    fake.clearJournal()
    const { id } = fake.deliver(ME, mail('j@journal.example', ME, 'Secret subject', 'secret body'))
    await call('GET', `/messages/${id}?format=raw`)
    await call('GET', '/messages?q=in:inbox%20secret')
    const text = JSON.stringify(fake.journal)
    expect(fake.journal.map((e) => e.endpoint)).toEqual(['messages.get', 'messages.list'])
    expect(fake.journal[0]).toMatchObject({ method: 'GET', path: `/gmail/v1/users/me/messages/${id}`, status: 200, format: 'raw' })
    for (const secret of [token, 'Secret subject', 'secret body', 'in:inbox']) expect(text).not.toContain(secret)
  })

  it('answers 429 "Too many concurrent requests for user" above the per-user concurrency limit', async () => {
    const limited = await startGmailFake({ identity, concurrencyLimitPerUser: 2, latencyMs: 150 })
    try {
      const results = await Promise.all(
        Array.from({ length: 4 }, () => fetch(`${limited.apiUrl}/gmail/v1/users/me/profile`, { headers: { Authorization: `Bearer ${token}` } })),
      )
      const statuses = results.map((r) => r.status).sort()
      expect(statuses).toEqual([200, 200, 429, 429])
      const body = (await results.find((r) => r.status === 429)!.json()) as { error: { message: string; errors: Array<{ reason: string }> } }
      expect(body.error.message).toBe('Too many concurrent requests for user.')
      expect(body.error.errors[0]!.reason).toBe('rateLimitExceeded')
    } finally {
      await limited.close()
    }
  })

  it('serves the admin twins of the hooks over HTTP', async () => {
    const user = 'admin-http@example.com'
    const raw = mail('h@admin.example', user, 'Over HTTP')
    const delivered = await fetch(`${fake.origin}/__admin/mailboxes/${encodeURIComponent(user)}/deliver`, { method: 'POST', body: JSON.stringify({ raw }) })
    expect(delivered.status).toBe(200)
    const { id } = (await delivered.json()) as { id: string }
    const box = (await (await fetch(`${fake.origin}/__admin/mailboxes/${encodeURIComponent(user)}`)).json()) as { messages: Array<{ id: string; subject: string }> }
    expect(box.messages).toEqual([expect.objectContaining({ id, subject: 'Over HTTP' })])
    expect((await fetch(`${fake.origin}/__admin/violations`)).status).toBe(200)
    const fault = await fetch(`${fake.origin}/__admin/faults`, { method: 'POST', body: JSON.stringify({ endpoint: 'getProfile', status: 500 }) })
    expect(fault.status).toBe(200)
    expect((await call('GET', '/profile')).status).toBe(500)
  })
})
