import { gmail, type gmail_v1 } from '@googleapis/gmail'
import {
  CATEGORY_FOLDER_NAMES,
  CATEGORY_FOLDER_ROOT,
  MailAuthRevokedError,
  MailProviderError,
  type FetchedMessage,
  type MailCategory,
  type MailCredentials,
  type MailProvider,
  type NewMessagesResult,
  type PushSubscription,
  type PushTarget,
} from '../mail-provider.ts'
import { ForbiddenMailCallError } from '../mail-safety.ts'
import { createGuardedFetch, gmailErrorReason, type RetryPolicy } from './gmail-transport.ts'

/**
 * The Gmail adapter of the MailProvider interface, on the official `@googleapis/gmail` client whose every
 * request goes through the guarded fetch (gmail-transport.ts: allowlist, token, refresh, retries).
 * Calls and their semantics: providers.md A2-A4; choices: docs/decisions/010-gmail-adapter-and-fake.md.
 */

export interface GmailProviderOptions {
  /** Origin (and optional path prefix) of the Gmail API: https://gmail.googleapis.com, or a fake's origin. */
  apiUrl: string
  credentials: MailCredentials
  fetchImpl?: typeof fetch
  retry?: Partial<RetryPolicy>
}

/** history.list pages read per listNewMessageIds call; past it the cursor stops at the last record read. */
const MAX_HISTORY_PAGES = 40
const PAGE_SIZE = 500
/** listRecentInboxIds never returns more than this, whatever `max` says. */
const MAX_RECENT = 5000

/** The googleapis client with the guarded transport; exported so tests can prove what it refuses. */
export function createGmailClient(options: GmailProviderOptions): gmail_v1.Gmail {
  return gmail({
    version: 'v1',
    rootUrl: `${options.apiUrl.replace(/\/+$/, '')}/`,
    fetchImplementation: createGuardedFetch(options),
    // Retries are ours (gmail-transport.ts), with Gmail's reasons and a time budget; gaxios must not add its own.
    retry: false,
  })
}

/** Maps whatever the SDK threw to the interface's errors; never passes on SDK errors (their config holds request data). */
export function toMailError(error: unknown, operation: string): Error {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof MailAuthRevokedError || e instanceof ForbiddenMailCallError || e instanceof MailProviderError) return e
  }
  const response = (error as { response?: { status?: number; data?: unknown } } | undefined)?.response
  if (response?.status) {
    const reason = gmailErrorReason(response.data)
    return new MailProviderError(`Gmail ${operation} failed with ${response.status}${reason ? ` ${reason}` : ''}`, response.status, reason)
  }
  const code = (error as { code?: unknown } | undefined)?.code
  return new MailProviderError(`Gmail ${operation} failed: ${error instanceof Error ? error.name : 'error'}`, 0, typeof code === 'string' ? code : undefined)
}

const labelName = (category: MailCategory) => `${CATEGORY_FOLDER_ROOT}/${CATEGORY_FOLDER_NAMES[category]}`

/** History ids are uint64 decimal strings; compare without losing precision. */
const laterOf = (a: string, b: string) => (BigInt(a) >= BigInt(b) ? a : b)

/** An address (`ann@acme.com`) or a domain (`acme.com`, `@acme.com`), strict enough that nothing else can enter the query. */
const ADDRESS = /^[A-Za-z0-9._%+'-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}$/
const DOMAIN = /^@?([A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,63}$/

export function createGmailProvider(options: GmailProviderOptions): MailProvider {
  const client = createGmailClient(options)
  const users = client.users
  /** Label ids by category for this instance; a pending creation is shared by concurrent callers. */
  const labelIds = new Map<MailCategory, Promise<string>>()

  async function call<T>(operation: string, run: () => Promise<{ data: T }>): Promise<T> {
    try {
      return (await run()).data
    } catch (error) {
      throw toMailError(error, operation)
    }
  }

  async function profile() {
    return call('getProfile', () => users.getProfile({ userId: 'me' }))
  }

  async function findLabel(name: string): Promise<string | undefined> {
    const { labels } = await call('labels.list', () => users.labels.list({ userId: 'me' }))
    return labels?.find((l) => l.name?.toLowerCase() === name.toLowerCase())?.id ?? undefined
  }

  async function createOrFindLabel(category: MailCategory): Promise<string> {
    const name = labelName(category)
    try {
      const label = await call('labels.create', () =>
        users.labels.create({ userId: 'me', requestBody: { name, labelListVisibility: 'labelShow', messageListVisibility: 'show' } }),
      )
      if (label.id) return label.id
    } catch (error) {
      // 409 ALREADY_EXISTS: the label is there from an earlier run or another process (A2).
      if (!(error instanceof MailProviderError && error.status === 409)) throw error
    }
    const id = await findLabel(name)
    if (!id) throw new MailProviderError(`Gmail label "${name}" conflicts with an existing label and cannot be found`, 409, 'duplicate')
    return id
  }

  function ensureLabel(category: MailCategory): Promise<string> {
    let pending = labelIds.get(category)
    if (!pending) {
      pending = createOrFindLabel(category)
      labelIds.set(category, pending)
      // A failure must not stay cached.
      pending.catch(() => labelIds.delete(category))
    }
    return pending
  }

  async function modify(id: string, addLabelIds: string[], removeLabelIds: string[]) {
    return call('messages.modify', () => users.messages.modify({ userId: 'me', id, requestBody: { addLabelIds, removeLabelIds } }))
  }

  async function watch(target: PushTarget): Promise<PushSubscription> {
    if (!target.gmailTopic) throw new MailProviderError('Gmail push needs a Pub/Sub topic (projects/{p}/topics/{t})', 400, 'missing_topic')
    const topicName = target.gmailTopic
    const res = await call('watch', () =>
      users.watch({ userId: 'me', requestBody: { topicName, labelIds: ['INBOX'], labelFilterBehavior: 'include' } }),
    )
    return { id: null, expiresAt: new Date(Number(res.expiration)), ...(res.historyId ? { historyId: res.historyId } : {}) }
  }

  return {
    name: 'gmail',

    async getAddress() {
      const { emailAddress } = await profile()
      if (!emailAddress) throw new MailProviderError('Gmail profile has no address', 502, 'invalid_response')
      return emailAddress
    },

    async currentCursor() {
      const { historyId } = await profile()
      if (!historyId) throw new MailProviderError('Gmail profile has no historyId', 502, 'invalid_response')
      return historyId
    },

    async listNewMessageIds(cursor): Promise<NewMessagesResult> {
      const ids: string[] = []
      const seen = new Set<string>()
      let next = cursor
      let pageToken: string | undefined
      for (let page = 0; page < MAX_HISTORY_PAGES; page++) {
        let res: gmail_v1.Schema$ListHistoryResponse
        try {
          res = await call('history.list', () =>
            // labelAdded too: a message the person moves back to the Inbox (out of our label) re-enters it.
            users.history.list({ userId: 'me', startHistoryId: cursor, historyTypes: ['messageAdded', 'labelAdded'], labelId: 'INBOX', maxResults: PAGE_SIZE, pageToken }),
          )
        } catch (error) {
          // The id is older than Gmail keeps (A2): the caller recovers with listRecentInboxIds.
          if (error instanceof MailProviderError && error.status === 404) return { kind: 'cursor_expired' }
          throw error
        }
        let lastRecord: string | undefined
        for (const record of res.history ?? []) {
          if (record.id) lastRecord = record.id
          for (const added of record.messagesAdded ?? []) {
            const id = added.message?.id
            const labels = added.message?.labelIds
            if (!id || seen.has(id) || (labels && !labels.includes('INBOX'))) continue
            seen.add(id)
            ids.push(id)
          }
          for (const added of record.labelsAdded ?? []) {
            const id = added.message?.id
            if (!id || seen.has(id) || !(added.labelIds ?? []).includes('INBOX')) continue
            seen.add(id)
            ids.push(id)
          }
        }
        pageToken = res.nextPageToken ?? undefined
        if (!pageToken) {
          // The response's historyId is the mailbox's head; every record up to it has been read.
          if (res.historyId) next = laterOf(next, res.historyId)
          return { kind: 'ok', ids, nextCursor: next }
        }
        if (lastRecord) next = laterOf(next, lastRecord)
      }
      // Too much at once: stop at the last record read; the next call continues from there.
      return { kind: 'ok', ids, nextCursor: next }
    },

    async listRecentInboxIds(since, max) {
      const limit = Math.max(0, Math.min(Math.floor(max), MAX_RECENT))
      const ids: string[] = []
      let pageToken: string | undefined
      const q = `in:inbox after:${Math.floor(since.getTime() / 1000)}`
      while (ids.length < limit) {
        const res = await call('messages.list', () => users.messages.list({ userId: 'me', q, maxResults: Math.min(PAGE_SIZE, limit - ids.length), pageToken }))
        for (const m of res.messages ?? []) if (m.id && ids.length < limit) ids.push(m.id)
        pageToken = res.nextPageToken ?? undefined
        if (!pageToken) break
      }
      // Gmail lists newest first: these are the newest `limit`; hand them over oldest first.
      return ids.reverse()
    },

    async fetchMessage(id): Promise<FetchedMessage | null> {
      try {
        const message = await call('messages.get', () => users.messages.get({ userId: 'me', id, format: 'raw' }))
        if (!message.raw) throw new MailProviderError('Gmail returned a message without raw content', 502, 'invalid_response')
        return {
          id: message.id ?? id,
          raw: Buffer.from(message.raw, 'base64url').toString('utf8'),
          receivedAt: new Date(Number(message.internalDate ?? Date.now())),
          threadId: message.threadId ?? null,
        }
      } catch (error) {
        // Deleted by the person since it was listed (A3): nothing to do.
        if (error instanceof MailProviderError && error.status === 404) return null
        throw error
      }
    },

    async isInInbox(id) {
      try {
        const message = await call('messages.get', () => users.messages.get({ userId: 'me', id, format: 'minimal' }))
        return (message.labelIds ?? []).includes('INBOX')
      } catch (error) {
        if (error instanceof MailProviderError && error.status === 404) return null
        throw error
      }
    },

    async fileAway(id, category) {
      const labelId = await ensureLabel(category)
      try {
        await modify(id, [labelId], ['INBOX'])
      } catch (error) {
        // The person deleted our label since we cached its id: Gmail answers 400 for an unknown label.
        if (!(error instanceof MailProviderError && error.status === 400)) throw error
        labelIds.delete(category)
        await modify(id, [await ensureLabel(category)], ['INBOX'])
      }
      return { id }
    },

    async restore(id, category) {
      const labelId = (await labelIds.get(category)?.catch(() => undefined)) ?? (await findLabel(labelName(category)))
      // Without our label (the person deleted it) the message still goes back to the inbox.
      await modify(id, ['INBOX'], labelId ? [labelId] : [])
      return { id }
    },

    async hasWrittenTo(addressOrDomain) {
      const value = addressOrDomain.trim()
      let term: string
      if (ADDRESS.test(value)) term = value
      else if (DOMAIN.test(value)) term = value.replace(/^@/, '')
      // Anything else could smuggle search operators into the query: it is no address we wrote to.
      else return false
      const res = await call('messages.list', () => users.messages.list({ userId: 'me', q: `in:sent to:${term}`, maxResults: 1 }))
      return (res.messages?.length ?? 0) > 0
    },

    startPush: (target) => watch(target),
    // Calling watch again renews it (A2, A3); Google recommends once a day.
    renewPush: (_subscription, target) => watch(target),

    async stopPush() {
      await call('stop', () => users.stop({ userId: 'me' }))
    },
  }
}
