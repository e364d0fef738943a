import { buildRawMessage } from '#fakes/gmail/rfc822.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MailCredentials } from '../mail-provider.ts'
import { ForbiddenMailCallError } from '../mail-safety.ts'
import { createGmailClient, toMailError } from './gmail-provider.ts'
import { createGuardedFetch } from './gmail-transport.ts'
import { startGmailTestbed, type GmailTestbed } from './gmail-test-kit.ts'

// The adapter's Gmail client refuses every call that is not on its allowlist before anything leaves
// the process: mail-destroying calls (providers.md A5) and anything the adapter has no use for.

let bed: GmailTestbed
let credentials: MailCredentials
let tokenRequests = 0
const EMAIL = 'guarded@example.com'
let messageId = ''

beforeAll(async () => {
  bed = await startGmailTestbed()
  const box = await bed.connect(EMAIL)
  credentials = {
    accessToken: () => {
      tokenRequests += 1
      return box.credentials.accessToken()
    },
    refresh: () => box.credentials.refresh(),
  }
  messageId = bed.fake.deliver(EMAIL, buildRawMessage({ from: 'x@elsewhere.example', to: EMAIL, subject: 'Keep me' })).id
})
afterAll(async () => {
  await bed.close()
})

async function refusal(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run()
  } catch (error) {
    return toMailError(error, 'test')
  }
  return undefined
}

describe('the Gmail client refuses forbidden calls before they reach Gmail', () => {
  it('refuses trash, delete, batch delete, TRASH/SPAM labels and unknown endpoints, with nothing sent', async () => {
    const gmail = createGmailClient({ apiUrl: bed.fake.apiUrl, credentials })
    const users = gmail.users
    const id = messageId
    bed.fake.clearJournal()
    tokenRequests = 0
    const attempts: Array<[string, () => Promise<unknown>]> = [
      ['messages.trash', () => users.messages.trash({ userId: 'me', id })],
      ['messages.untrash', () => users.messages.untrash({ userId: 'me', id })],
      ['messages.delete', () => users.messages.delete({ userId: 'me', id })],
      ['messages.batchDelete', () => users.messages.batchDelete({ userId: 'me', requestBody: { ids: [id] } })],
      ['threads.trash', () => users.threads.trash({ userId: 'me', id })],
      ['threads.delete', () => users.threads.delete({ userId: 'me', id })],
      ['modify +TRASH', () => users.messages.modify({ userId: 'me', id, requestBody: { addLabelIds: ['TRASH'] } })],
      ['modify +spam', () => users.messages.modify({ userId: 'me', id, requestBody: { addLabelIds: ['INBOX', 'spam'] } })],
      ['batchModify', () => users.messages.batchModify({ userId: 'me', requestBody: { ids: [id], removeLabelIds: ['INBOX'] } })],
      ['threads.modify', () => users.threads.modify({ userId: 'me', id, requestBody: { removeLabelIds: ['INBOX'] } })],
      ['filters.create', () => users.settings.filters.create({ userId: 'me', requestBody: { action: { addLabelIds: ['TRASH'] } } })],
      ['labels.delete', () => users.labels.delete({ userId: 'me', id: 'Label_1' })],
      ['labels.create (not ours)', () => users.labels.create({ userId: 'me', requestBody: { name: 'Anything' } })],
      ['drafts.list', () => users.drafts.list({ userId: 'me' })],
      ['messages.send', () => users.messages.send({ userId: 'me', requestBody: { raw: 'eA' } })],
      ['another user', () => users.getProfile({ userId: 'someone@example.com' })],
      ['id with a path in it', () => users.messages.get({ userId: 'me', id: `${id}/../../labels` })],
    ]
    for (const [name, run] of attempts) {
      const error = await refusal(run)
      expect(error, name).toBeInstanceOf(ForbiddenMailCallError)
    }
    expect(bed.fake.journal).toEqual([])
    expect(bed.fake.violations).toEqual([])
    // Refused before even asking for a token.
    expect(tokenRequests).toBe(0)
    expect(bed.fake.mailbox(EMAIL).messages[0]?.labelIds).toEqual(['INBOX', 'UNREAD'])
  })

  it('allows the calls on its list', async () => {
    const gmail = createGmailClient({ apiUrl: bed.fake.apiUrl, credentials })
    bed.fake.clearJournal()
    await gmail.users.getProfile({ userId: 'me' })
    await gmail.users.messages.get({ userId: 'me', id: messageId, format: 'raw' })
    await gmail.users.messages.modify({ userId: 'me', id: messageId, requestBody: { addLabelIds: ['STARRED'], removeLabelIds: ['UNREAD'] } })
    expect(bed.fake.journal.map((e) => [e.endpoint, e.status])).toEqual([
      ['getProfile', 200],
      ['messages.get', 200],
      ['messages.modify', 200],
    ])
  })

  it('refuses requests to another host than the configured API', async () => {
    const guarded = createGuardedFetch({ apiUrl: bed.fake.apiUrl, credentials })
    await expect(guarded('https://gmail.googleapis.com/gmail/v1/users/me/profile')).rejects.toBeInstanceOf(ForbiddenMailCallError)
    await expect(guarded(`${bed.fake.origin}/__admin/violations`)).rejects.toBeInstanceOf(ForbiddenMailCallError)
  })
})
