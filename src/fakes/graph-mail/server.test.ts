import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { IdentityFakes } from '../identity/server.ts'
import { startGraphMailFake, type GraphMailFake } from './server.ts'
import { microsoftTokens, rawMessage, startTestIdentity } from './test-support.ts'

/** Protocol tests of the Graph mail fake (providers.md B2, B4, D3): plain fetch against the fake over loopback. */

const ME = 'dana@contoso.example'
const IMMUTABLE = { Prefer: 'IdType="ImmutableId"' }

let identity: IdentityFakes
let fake: GraphMailFake
let token: string
let readOnlyToken: string
let userOnlyToken: string

interface Answer {
  status: number
  headers: Headers
  body: any // eslint-disable-line @typescript-eslint/no-explicit-any -- protocol tests read arbitrary Graph JSON
  text: string
}

async function call(method: string, path: string, options: { body?: unknown; headers?: Record<string, string>; as?: string } = {}): Promise<Answer> {
  const url = path.startsWith('http') ? path : `${fake.url}${path}`
  const res = await fetch(url, {
    method,
    headers: {
      ...(options.as === '' ? {} : { Authorization: `Bearer ${options.as ?? token}` }),
      ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  })
  const text = await res.text()
  let body: unknown
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {
    body = undefined
  }
  return { status: res.status, headers: res.headers, body, text }
}

const mail = (subject: string, extra: Partial<Parameters<typeof rawMessage>[0]> = {}) => rawMessage({ from: 'Sam Sender <sam@sender.example>', to: ME, subject, ...extra })

beforeAll(async () => {
  identity = await startTestIdentity()
  fake = await startGraphMailFake({ identity })
  token = (await microsoftTokens(identity, ME)).accessToken
  readOnlyToken = (await microsoftTokens(identity, 'reader@contoso.example', ['openid', 'offline_access', 'User.Read', 'Mail.Read'])).accessToken
  userOnlyToken = (await microsoftTokens(identity, 'nomail@contoso.example', ['openid', 'User.Read'])).accessToken
})

afterAll(async () => {
  await fake.close()
  await identity.close()
})

afterEach(() => {
  fake.clearFaults()
  fake.setLatency(0)
})

describe('authentication and the mailbox', () => {
  it('GET /me answers for the account whose token calls, with mail and userPrincipalName', async () => {
    const me = await call('GET', '/me')
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ mail: ME, userPrincipalName: ME, displayName: 'Test Person' })
    expect(me.body.id).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('answers 401 InvalidAuthenticationToken without a token or with a bad one', async () => {
    const none = await call('GET', '/me/mailFolders', { as: '' })
    expect(none.status).toBe(401)
    expect(none.body.error.code).toBe('InvalidAuthenticationToken')
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer /)
    const bad = await call('GET', '/me/mailFolders', { as: 'not-a-token' })
    expect(bad.status).toBe(401)
    expect(bad.body.error).toMatchObject({ code: 'InvalidAuthenticationToken' })
    expect(bad.body.error.innerError['request-id']).toBeTruthy()
  })

  it('answers 403 ErrorAccessDenied when the token lacks Mail.Read, and for writes without Mail.ReadWrite', async () => {
    expect((await call('GET', '/me/mailFolders', { as: userOnlyToken })).body.error.code).toBe('ErrorAccessDenied')
    const write = await call('POST', '/me/mailFolders', { as: readOnlyToken, body: { displayName: 'X' } })
    expect(write.status).toBe(403)
    expect(write.body.error.code).toBe('ErrorAccessDenied')
    expect((await call('GET', '/me/mailFolders', { as: readOnlyToken })).status).toBe(200)
  })

  it('a mailbox starts with the well-known folders, reachable by well-known name', async () => {
    const list = await call('GET', '/me/mailFolders?$top=50')
    expect(list.body.value.map((f: { displayName: string }) => f.displayName)).toEqual(
      expect.arrayContaining(['Inbox', 'Drafts', 'Sent Items', 'Deleted Items', 'Junk Email', 'Archive']),
    )
    const inbox = await call('GET', '/me/mailFolders/inbox')
    expect(inbox.body).toMatchObject({ displayName: 'Inbox', totalItemCount: expect.any(Number) })
    const root = await call('GET', '/me/mailFolders/msgfolderroot')
    expect(inbox.body.parentFolderId).toBe(root.body.id)
  })

  it('a mailbox without Exchange Online answers MailboxNotEnabledForRESTAPI, and /me has mail null', async () => {
    const other = (await microsoftTokens(identity, 'guest@fabrikam.example')).accessToken
    fake.setMailboxEnabled('guest@fabrikam.example', false)
    const folders = await call('GET', '/me/mailFolders', { as: other })
    expect(folders.status).toBe(404)
    expect(folders.body.error.code).toBe('MailboxNotEnabledForRESTAPI')
    expect((await call('GET', '/me', { as: other })).body).toMatchObject({ mail: null, userPrincipalName: 'guest@fabrikam.example' })
  })
})

describe('folders', () => {
  it('creates top-level and child folders; a duplicate name among siblings is ErrorFolderExists', async () => {
    const root = await call('POST', '/me/mailFolders', { body: { displayName: 'Projects' } })
    expect(root.status).toBe(201)
    expect(root.body).toMatchObject({ displayName: 'Projects', childFolderCount: 0, isHidden: false })
    const dup = await call('POST', '/me/mailFolders', { body: { displayName: 'projects' } })
    expect(dup.status).toBe(409)
    expect(dup.body.error.code).toBe('ErrorFolderExists')

    const child = await call('POST', `/me/mailFolders/${encodeURIComponent(root.body.id)}/childFolders`, { body: { displayName: 'Alpha' } })
    expect(child.status).toBe(201)
    expect(child.body.parentFolderId).toBe(root.body.id)
    expect((await call('POST', `/me/mailFolders/${encodeURIComponent(root.body.id)}/childFolders`, { body: { displayName: 'Alpha' } })).body.error.code).toBe('ErrorFolderExists')
    // The same name under another parent is fine.
    expect((await call('POST', '/me/mailFolders/inbox/childFolders', { body: { displayName: 'Alpha' } })).status).toBe(201)

    const found = await call('GET', `/me/mailFolders?$filter=${encodeURIComponent("displayName eq 'Projects'")}`)
    expect(found.body.value).toHaveLength(1)
    expect(found.body.value[0].id).toBe(root.body.id)
    const children = await call('GET', `/me/mailFolders/${encodeURIComponent(root.body.id)}/childFolders`)
    expect(children.body.value.map((f: { displayName: string }) => f.displayName)).toEqual(['Alpha'])
  })

  it('pages folder lists with @odata.nextLink', async () => {
    const first = await call('GET', '/me/mailFolders?$top=2')
    expect(first.body.value).toHaveLength(2)
    const next = await call('GET', first.body['@odata.nextLink'])
    expect(next.body.value[0].id).not.toBe(first.body.value[0].id)
  })
})

describe('messages', () => {
  it('delivers into the Inbox; $select narrows the fields; headers only when selected; $value is the MIME', async () => {
    const raw = mail('Quarterly numbers', { headers: { 'List-Unsubscribe': '<mailto:u@sender.example>' } })
    const { id } = await fake.deliver(ME, raw)
    expect(fake.mailbox(ME).byFolder.Inbox).toContain(id)

    const full = await call('GET', `/me/messages/${encodeURIComponent(id)}`, { headers: IMMUTABLE })
    expect(full.status).toBe(200)
    expect(full.body).toMatchObject({ id, subject: 'Quarterly numbers', from: { emailAddress: { address: 'sam@sender.example', name: 'Sam Sender' } }, isRead: false })
    expect(full.body.internetMessageHeaders).toBeUndefined()
    expect(full.body.receivedDateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)

    const some = await call('GET', `/me/messages/${encodeURIComponent(id)}?$select=subject,internetMessageHeaders`, { headers: IMMUTABLE })
    expect(Object.keys(some.body).sort()).toEqual(['@odata.context', '@odata.etag', 'id', 'internetMessageHeaders', 'subject'])
    expect(some.body.internetMessageHeaders).toContainEqual({ name: 'List-Unsubscribe', value: '<mailto:u@sender.example>' })

    const value = await call('GET', `/me/messages/${encodeURIComponent(id)}/$value`, { headers: IMMUTABLE })
    expect(value.status).toBe(200)
    expect(value.text).toBe(raw)
  })

  it('lists a folder with $top, $filter on receivedDateTime, $orderby desc and nextLink paging', async () => {
    const box = 'lister@contoso.example'
    const t = (await microsoftTokens(identity, box)).accessToken
    const base = Date.parse('2025-03-01T00:00:00Z')
    await fake.seed(
      box,
      [0, 1, 2, 3, 4].map((i) => ({ raw: rawMessage({ from: 'a@b.example', to: box, subject: `m${i}` }), receivedAt: base + i * 60_000 })),
    )
    const q = `$top=2&$select=subject,receivedDateTime&$filter=${encodeURIComponent('receivedDateTime ge 2025-03-01T00:01:00Z')}&$orderby=${encodeURIComponent('receivedDateTime desc')}`
    const first = await call('GET', `/me/mailFolders/inbox/messages?${q}`, { as: t })
    expect(first.body.value.map((m: { subject: string }) => m.subject)).toEqual(['m4', 'm3'])
    const second = await call('GET', first.body['@odata.nextLink'], { as: t })
    expect(second.body.value.map((m: { subject: string }) => m.subject)).toEqual(['m2', 'm1'])
    expect(second.body['@odata.nextLink']).toBeUndefined()
  })

  it('mail from the mailbox itself lands in Sent Items, where $search="to:…" finds it by address or domain', async () => {
    await fake.deliver(ME, rawMessage({ from: ME, to: 'Pat <pat@partner.example>', subject: 'Proposal' }))
    const search = (term: string) => call('GET', `/me/mailFolders/sentitems/messages?$search=${encodeURIComponent(`"to:${term}"`)}&$select=id,toRecipients`)
    expect((await search('pat@partner.example')).body.value).toHaveLength(1)
    expect((await search('partner.example')).body.value).toHaveLength(1)
    expect((await search('someone@else.example')).body.value).toHaveLength(0)
    expect(fake.mailbox(ME).messages.find((m) => m.subject === 'Proposal')?.folder).toBe('Sent Items')
  })

  it('a move without Prefer IdType="ImmutableId" gives the message a new id and the old one answers 404', async () => {
    const { restId } = await fake.deliver(ME, mail('Move me (regular ids)'))
    const moved = await call('POST', `/me/messages/${encodeURIComponent(restId)}/move`, { body: { destinationId: 'archive' } })
    expect(moved.status).toBe(201)
    expect(moved.body.id).not.toBe(restId)
    expect((await call('GET', `/me/messages/${encodeURIComponent(restId)}`)).body.error.code).toBe('ErrorItemNotFound')
    expect((await call('GET', `/me/messages/${encodeURIComponent(moved.body.id)}`)).status).toBe(200)
  })

  it('with Prefer IdType="ImmutableId" the id survives moves', async () => {
    const { id } = await fake.deliver(ME, mail('Move me (immutable ids)'))
    const archive = await call('GET', '/me/mailFolders/archive')
    const moved = await call('POST', `/me/messages/${encodeURIComponent(id)}/move`, { body: { destinationId: archive.body.id }, headers: IMMUTABLE })
    expect(moved.status).toBe(201)
    expect(moved.body).toMatchObject({ id, parentFolderId: archive.body.id })
    const back = await call('POST', `/me/messages/${encodeURIComponent(id)}/move`, { body: { destinationId: 'inbox' }, headers: IMMUTABLE })
    expect(back.body.id).toBe(id)
  })

  it('PATCH replaces categories and sets isRead', async () => {
    const { id } = await fake.deliver(ME, mail('Tag me'), { categories: ['Old'] })
    const patched = await call('PATCH', `/me/messages/${encodeURIComponent(id)}`, { body: { categories: ['New'], isRead: true }, headers: IMMUTABLE })
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({ categories: ['New'], isRead: true })
  })
})

describe('delta (B2)', () => {
  const box = 'delta@contoso.example'
  let t: string

  beforeAll(async () => {
    t = (await microsoftTokens(identity, box)).accessToken
    await fake.seed(
      box,
      Array.from({ length: 5 }, (_, i) => ({ raw: rawMessage({ from: 'x@y.example', to: box, subject: `old ${i}` }) })),
    )
  })

  async function round(link: string, headers: Record<string, string> = {}) {
    const pages = []
    let next: string | undefined = link
    while (next) {
      const page = await call('GET', next, { as: t, headers: { ...IMMUTABLE, ...headers } })
      if (page.status !== 200) return { pages, error: page }
      pages.push(page)
      next = page.body['@odata.nextLink']
      if (!next) return { pages, deltaLink: page.body['@odata.deltaLink'] as string }
    }
    throw new Error('unreachable')
  }

  it('pages the initial sync by odata.maxpagesize with $skiptoken, ending in a $deltatoken link', async () => {
    const first = await round('/me/mailFolders/inbox/messages/delta?$select=id,receivedDateTime', { Prefer: 'IdType="ImmutableId", odata.maxpagesize=2' })
    expect(first.pages.map((p) => p.body.value.length)).toEqual([2, 2, 1])
    expect(first.pages[0]?.headers.get('preference-applied')).toBe('odata.maxpagesize=2')
    const inboxId = (await call('GET', '/me/mailFolders/inbox', { as: t })).body.id
    expect(first.pages[0]?.body['@odata.nextLink']).toBe(`${fake.url}/me/mailfolders('${inboxId}')/messages/delta?$skiptoken=${new URL(first.pages[0]?.body['@odata.nextLink']).searchParams.get('$skiptoken')}`)
    expect(first.deltaLink).toMatch(/\/me\/mailfolders\('[^']+'\)\/messages\/delta\?\$deltatoken=/)
    expect(Object.keys(first.pages[0]?.body.value[0]).sort()).toEqual(['@odata.etag', '@odata.type', 'id', 'receivedDateTime'])

    // Nothing happened: the next round is empty, and the delta link can be used again.
    const quiet = await round(first.deltaLink as string)
    expect(quiet.pages[0]?.body.value).toEqual([])
    expect((await round(first.deltaLink as string)).pages[0]?.body.value).toEqual([])
  })

  it('later rounds return created messages and @removed for messages moved out', async () => {
    const start = await round('/me/mailFolders/inbox/messages/delta?$select=id')
    const gone = fake.mailbox(box).byFolder.Inbox?.[0] as string
    const fresh = await fake.deliver(box, rawMessage({ from: 'x@y.example', to: box, subject: 'new one' }))
    await call('POST', `/me/messages/${encodeURIComponent(gone)}/move`, { as: t, body: { destinationId: 'archive' }, headers: IMMUTABLE })
    const next = await round(start.deltaLink as string)
    const items = next.pages.flatMap((p) => p.body.value)
    expect(items).toContainEqual(expect.objectContaining({ id: fresh.id }))
    expect(items).toContainEqual(expect.objectContaining({ id: gone, '@removed': { reason: 'deleted' } }))
    // Put it back for the other tests.
    await call('POST', `/me/messages/${encodeURIComponent(gone)}/move`, { as: t, body: { destinationId: 'inbox' }, headers: IMMUTABLE })
  })

  it('changeType=created keeps updates and removals out of later rounds; $filter on receivedDateTime is kept by the token', async () => {
    const since = new Date(Date.now() - 1000).toISOString().replace(/\.\d+Z$/, 'Z')
    const start = await round(`/me/mailFolders/inbox/messages/delta?changeType=created&$select=id&$filter=${encodeURIComponent(`receivedDateTime ge ${since}`)}`)
    const [updated, moved] = fake.mailbox(box).byFolder.Inbox as string[]
    await call('PATCH', `/me/messages/${encodeURIComponent(updated as string)}`, { as: t, body: { isRead: true } })
    await call('POST', `/me/messages/${encodeURIComponent(moved as string)}/move`, { as: t, body: { destinationId: 'archive' } })
    const old = await fake.deliver(box, rawMessage({ from: 'x@y.example', to: box, subject: 'backdated' }), { receivedAt: '2020-01-01T00:00:00Z' })
    const fresh = await fake.deliver(box, rawMessage({ from: 'x@y.example', to: box, subject: 'created' }))
    const items = (await round(start.deltaLink as string)).pages.flatMap((p) => p.body.value)
    expect(items.map((i: { id: string }) => i.id)).toEqual([fresh.id])
    expect(items.map((i: { id: string }) => i.id)).not.toContain(old.id)
  })

  it('an evicted token answers 410 SyncStateNotFound (resync required)', async () => {
    const start = await round('/me/mailFolders/inbox/messages/delta?$select=id')
    fake.expireDeltaTokens(box)
    const after = await round(start.deltaLink as string)
    expect(after.error?.status).toBe(410)
    expect(after.error?.body.error.code).toBe('SyncStateNotFound')
    expect(after.error?.body.error.innerError.code).toBe('resyncRequired')
  })
})

describe('throttling', () => {
  it('a 5th concurrent request for one mailbox gets 429 ApplicationThrottled MailboxConcurrency with Retry-After', async () => {
    fake.setLatency(300, ME)
    const answers = await Promise.all(Array.from({ length: 5 }, () => call('GET', '/me/mailFolders/inbox')))
    const throttled = answers.filter((a) => a.status === 429)
    expect(throttled).toHaveLength(1)
    expect(throttled[0]?.body.error).toMatchObject({ code: 'ApplicationThrottled', message: 'Application is over its MailboxConcurrency limit.' })
    expect(throttled[0]?.headers.get('retry-after')).toBe('1')
    expect(answers.filter((a) => a.status === 200)).toHaveLength(4)
  })

  it('injected 429 and 503 faults carry Retry-After and a Graph error body', async () => {
    fake.injectFault({ endpoint: 'messages.list', status: 429, headers: { 'Retry-After': '7' } })
    fake.injectFault({ endpoint: 'me.get', status: 503 })
    const limited = await call('GET', '/me/mailFolders/inbox/messages')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('7')
    expect(limited.body.error.code).toBe('ApplicationThrottled')
    const down = await call('GET', '/me')
    expect(down.status).toBe(503)
    expect(down.body.error.code).toBe('ServiceNotAvailable')
    expect((await call('GET', '/me')).status).toBe(200)
  })
})

describe('mail-destroying calls (B4)', () => {
  it('are answered 403, recorded as violations and never carried out', async () => {
    const { id } = await fake.deliver(ME, mail('Keep me'))
    const deletedItems = await call('GET', '/me/mailFolders/deleteditems')
    const path = `/me/messages/${encodeURIComponent(id)}`
    const attempts = [
      await call('DELETE', path),
      await call('POST', `${path}/permanentDelete`),
      await call('POST', `${path}/move`, { body: { destinationId: 'deleteditems' } }),
      await call('POST', `${path}/move`, { body: { destinationId: deletedItems.body.id } }),
      await call('POST', `${path}/move`, { body: { destinationId: 'JunkEmail' } }),
      await call('POST', `${path}/move`, { body: { destinationId: 'recoverableitemsdeletions' } }),
      await call('DELETE', `/me/mailFolders/inbox/messages/${encodeURIComponent(id)}`),
      await call('DELETE', '/me/mailFolders/inbox'),
      await call('POST', '/me/mailFolders/inbox/permanentDelete'),
      await call('DELETE', '/me/mailFolders/inbox/messages'),
      await call('DELETE', `/users/${ME}/messages/${encodeURIComponent(id)}`),
    ]
    expect(attempts.map((a) => a.status)).toEqual(Array(attempts.length).fill(403))
    expect(attempts.every((a) => a.body.error.code === 'ErrorAccessDenied')).toBe(true)
    expect(fake.violations).toHaveLength(attempts.length)
    expect(fake.violations[0]).toMatchObject({ method: 'DELETE', address: ME, endpoint: 'messages.delete' })
    expect(fake.violations.map((v) => v.reason)).toContain('move to deleteditems')
    expect(fake.mailbox(ME).messages.find((m) => m.id === id)?.folder).toBe('Inbox')
    fake.violations.length = 0
  })

  it('unknown calls that destroy nothing are a plain 400, not a violation', async () => {
    const res = await call('POST', '/me/messages/x/copy', { body: { destinationId: 'archive' } })
    expect(res.status).toBe(400)
    expect(fake.violations).toHaveLength(0)
  })
})

describe('hooks over HTTP and the journal', () => {
  it('/__admin routes deliver, inspect and list violations', async () => {
    const box = 'admin@contoso.example'
    const delivered = await fetch(`${fake.origin}/__admin/mailboxes/${encodeURIComponent(box)}/deliver`, {
      method: 'POST',
      body: JSON.stringify({ raw: rawMessage({ from: 'a@b.example', to: box, subject: 'via admin' }) }),
    })
    const { id } = (await delivered.json()) as { id: string }
    const snapshot = (await (await fetch(`${fake.origin}/__admin/mailboxes/${encodeURIComponent(box)}`)).json()) as { byFolder: Record<string, string[]> }
    expect(snapshot.byFolder.Inbox).toEqual([id])
    expect(await (await fetch(`${fake.origin}/__admin/violations`)).json()).toEqual([])
  })

  it('journals every call by endpoint name, with the id type, never tokens or content', async () => {
    fake.clearJournal()
    const { id } = await fake.deliver(ME, mail('Secret subject line', { body: 'secret body text' }))
    await call('GET', `/me/messages/${encodeURIComponent(id)}?$select=subject`, { headers: IMMUTABLE })
    await call('GET', `/me/messages/${encodeURIComponent(id)}/$value`)
    const entries = fake.journal.filter((e) => e.endpoint.startsWith('messages.'))
    expect(entries.map((e) => [e.endpoint, e.status, e.idType])).toEqual([
      ['messages.get', 200, 'immutable'],
      ['messages.value', 200, 'rest'],
    ])
    const text = JSON.stringify(fake.journal)
    expect(text).not.toContain(token)
    expect(text).not.toContain('Secret subject line')
    expect(text).not.toContain('secret body text')
  })
})
