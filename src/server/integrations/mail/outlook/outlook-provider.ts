import {
  CATEGORY_FOLDER_NAMES,
  CATEGORY_FOLDER_ROOT,
  MailProviderError,
  type FetchedMessage,
  type MailCategory,
  type MailCredentials,
  type MailProvider,
  type NewMessagesResult,
  type PushSubscription,
  type PushTarget,
} from '../mail-provider.ts'
import { GraphClient, type RetryPolicy } from './graph-client.ts'
import {
  DeltaPageSchema,
  MailFolderListSchema,
  MailFolderSchema,
  MeSchema,
  MessageRefListSchema,
  MessageFolderSchema,
  MessageRefSchema,
  MovedMessageSchema,
  SentMessageListSchema,
  SubscriptionSchema,
} from './graph-schemas.ts'
import { DELTA_LINK_PATH, outlookAllowedCalls } from './outlook-allowed-calls.ts'

/**
 * The Outlook adapter of the MailProvider interface, on Microsoft Graph (providers.md B2, B3;
 * docs/decisions/011-outlook-adapter-and-fake.md). Ids are immutable ids throughout; the cursor is the
 * Inbox's delta link; our mail goes to folders "Inbox Guard/<Category>"; nothing is ever deleted.
 */

export interface OutlookProviderOptions {
  /** Graph base URL (config MICROSOFT_GRAPH_URL). */
  graphUrl: string
  credentials: MailCredentials
  fetchImpl?: typeof fetch
  retry?: Partial<RetryPolicy>
  /** Delta page size asked for with `Prefer: odata.maxpagesize` (default 100). */
  deltaPageSize?: number
  now?: () => Date
}

/**
 * Graph's cap for message subscriptions: 4,230 minutes by the enforced `ExtensionError`, while newer
 * docs say 10,080 (providers.md B3 recommends staying under both). We ask for the cap minus a margin
 * for clock skew between us and Graph, so the request is never refused as over the cap.
 */
export const OUTLOOK_SUBSCRIPTION_MAX_MINUTES = 4230
const SUBSCRIPTION_SKEW_MARGIN_MINUTES = 10
/** Our subscription: new messages in the Inbox only. */
export const OUTLOOK_SUBSCRIPTION_RESOURCE = "me/mailFolders('inbox')/messages"
/**
 * The cursor's delta query only covers mail received after the cursor was made, less this margin for
 * clock skew: the first round is then short, and old mail moved into the Inbox later is not "new".
 */
const CURSOR_LOOKBACK_MS = 10 * 60 * 1000
/** Bounds one delta round (at 100 per page, 50,000 changes) so a misbehaving server cannot loop us forever. */
const MAX_DELTA_PAGES = 500
const DELTA_PATH = '/me/mailFolders/inbox/messages/delta'
const SYNC_STATE_CODES = new Set(['SyncStateNotFound', 'SyncStateInvalid', 'resyncRequired'])
const ADDRESS = /^[a-z0-9._%+'-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/
const DOMAIN = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z')

/** A message or folder id as one path segment; dot segments would change the path the guard checks. */
function segment(id: string): string {
  if (!id || id === '.' || id === '..') throw new MailProviderError(`Invalid Graph id ${JSON.stringify(id)}`, 400, 'ErrorInvalidIdMalformed')
  return encodeURIComponent(id)
}

const isGraphError = (error: unknown, status: number, codes?: readonly string[]): error is MailProviderError =>
  error instanceof MailProviderError && error.status === status && (!codes || (error.code !== undefined && codes.includes(error.code)))

export function createOutlookProvider(options: OutlookProviderOptions): MailProvider {
  const now = options.now ?? (() => new Date())
  const pageSize = options.deltaPageSize ?? 100
  /** Folder ids the adapter resolved or created under "Inbox Guard": the only move destinations besides the Inbox. */
  const ownFolderIds = new Set<string>()
  /** parent id + lower-case name → folder id, shared by concurrent callers. */
  const folderCache = new Map<string, Promise<string>>()
  const allowed = outlookAllowedCalls((id) => ownFolderIds.has(id))
  const graph = new GraphClient({
    graphUrl: options.graphUrl,
    credentials: options.credentials,
    fetchImpl: options.fetchImpl,
    retry: options.retry,
    allowedCalls: () => allowed,
  })
  const basePath = new URL(options.graphUrl).pathname.replace(/\/+$/, '')

  /** Follows one delta round from `first` to its deltaLink. */
  async function deltaRound(first: { target: string; query?: Record<string, string> }) {
    const items: Array<{ id: string; receivedDateTime?: string; removed: boolean }> = []
    let request: { target: string; query?: Record<string, string> } = first
    for (let pages = 0; pages < MAX_DELTA_PAGES; pages++) {
      const page = await graph.json('GET', { ...request, prefer: [`odata.maxpagesize=${pageSize}`] }, DeltaPageSchema)
      for (const item of page.value) items.push({ id: item.id, receivedDateTime: item.receivedDateTime, removed: item['@removed'] !== undefined })
      if (page['@odata.deltaLink']) return { items, deltaLink: page['@odata.deltaLink'] }
      if (!page['@odata.nextLink']) throw new MailProviderError('Graph delta page had neither a nextLink nor a deltaLink', 200, 'InvalidResponse')
      request = { target: page['@odata.nextLink'] }
    }
    throw new MailProviderError(`Graph delta round did not end within ${MAX_DELTA_PAGES} pages`, 200, 'DeltaTooLong')
  }

  /** A stored cursor we are willing to follow: an Inbox delta link under our Graph base URL. */
  function isOurDeltaLink(cursor: string): boolean {
    try {
      const { relativePath, url } = graph.resolve(cursor)
      return DELTA_LINK_PATH.test(relativePath) && url.searchParams.has('$deltatoken') && url.pathname.startsWith(basePath)
    } catch {
      return false
    }
  }

  async function findFolder(parentId: string | null, name: string): Promise<string | undefined> {
    const target = parentId === null ? '/me/mailFolders' : `/me/mailFolders/${segment(parentId)}/childFolders`
    const list = await graph.json('GET', { target, query: { $filter: `displayName eq '${name.replace(/'/g, "''")}'`, $select: 'id,displayName,parentFolderId' } }, MailFolderListSchema)
    return list.value.find((f) => f.displayName.toLowerCase() === name.toLowerCase())?.id
  }

  /** Finds or creates a folder; creating is idempotent (ErrorFolderExists → look it up again: B2, key on the code). */
  function ensureFolder(parentId: string | null, name: string): Promise<string> {
    const key = `${parentId ?? ''}\u0000${name.toLowerCase()}`
    const cached = folderCache.get(key)
    if (cached) return cached
    const resolving = (async () => {
      const found = await findFolder(parentId, name)
      if (found) return found
      const target = parentId === null ? '/me/mailFolders' : `/me/mailFolders/${segment(parentId)}/childFolders`
      try {
        const created = await graph.json('POST', { target, body: { displayName: name, isHidden: false } }, MailFolderSchema)
        return created.id
      } catch (error) {
        if (!(error instanceof MailProviderError && error.code === 'ErrorFolderExists')) throw error
        const existing = await findFolder(parentId, name)
        if (!existing) throw error
        return existing
      }
    })().then((id) => {
      ownFolderIds.add(id)
      return id
    })
    folderCache.set(key, resolving)
    resolving.catch(() => folderCache.delete(key))
    return resolving
  }

  async function categoryFolder(category: MailCategory): Promise<string> {
    const root = await ensureFolder(null, CATEGORY_FOLDER_ROOT)
    return ensureFolder(root, CATEGORY_FOLDER_NAMES[category])
  }

  let inboxId: Promise<string> | undefined
  /** The Inbox's folder id (messages name their folder by id, not by well-known name). */
  function inboxFolderId(): Promise<string> {
    inboxId ??= graph.json('GET', { target: '/me/mailFolders/inbox' }, MailFolderSchema).then((folder) => folder.id)
    inboxId.catch(() => (inboxId = undefined))
    return inboxId
  }

  /** Forgets resolved folder ids (they stay allowed as destinations: they were ours). */
  function forgetFolders(): void {
    folderCache.clear()
  }

  async function move(id: string, destinationId: string): Promise<{ id: string }> {
    const moved = await graph.json('POST', { target: `/me/messages/${segment(id)}/move`, body: { destinationId } }, MovedMessageSchema)
    return { id: moved.id }
  }

  async function createSubscription(target: PushTarget): Promise<PushSubscription> {
    if (!target.notificationUrl || !target.clientState) throw new Error('An Outlook subscription needs a notificationUrl and a clientState')
    const expires = new Date(now().getTime() + (OUTLOOK_SUBSCRIPTION_MAX_MINUTES - SUBSCRIPTION_SKEW_MARGIN_MINUTES) * 60_000)
    const sub = await graph.json(
      'POST',
      {
        target: '/subscriptions',
        body: {
          changeType: 'created',
          notificationUrl: target.notificationUrl,
          ...(target.lifecycleNotificationUrl ? { lifecycleNotificationUrl: target.lifecycleNotificationUrl } : {}),
          resource: OUTLOOK_SUBSCRIPTION_RESOURCE,
          expirationDateTime: expires.toISOString(),
          clientState: target.clientState,
          latestSupportedTlsVersion: 'v1_2',
        },
        // A retried create after a lost answer could leave a second subscription behind.
        idempotent: false,
      },
      SubscriptionSchema,
    )
    return { id: sub.id, expiresAt: new Date(sub.expirationDateTime) }
  }

  async function deleteSubscription(id: string): Promise<void> {
    try {
      await graph.empty('DELETE', { target: `/subscriptions/${segment(id)}` })
    } catch (error) {
      if (!isGraphError(error, 404)) throw error
    }
  }

  return {
    name: 'outlook',

    async getAddress() {
      const me = await graph.json('GET', { target: '/me', query: { $select: 'id,mail,userPrincipalName' } }, MeSchema)
      const address = me.mail ?? me.userPrincipalName
      if (!address) throw new MailProviderError('Graph /me has neither mail nor userPrincipalName', 404, 'MailboxNotEnabledForRESTAPI')
      return address
    },

    async currentCursor() {
      const since = new Date(now().getTime() - CURSOR_LOOKBACK_MS)
      const { deltaLink } = await deltaRound({
        target: DELTA_PATH,
        // changeType and $filter go on the first call only; the delta token carries them (B2).
        query: { changeType: 'created', $select: 'id,receivedDateTime', $filter: `receivedDateTime ge ${iso(since)}` },
      })
      return deltaLink
    },

    async listNewMessageIds(cursor): Promise<NewMessagesResult> {
      if (!isOurDeltaLink(cursor)) return { kind: 'cursor_expired' }
      try {
        const { items, deltaLink } = await deltaRound({ target: cursor })
        // Created items only (the token asks changeType=created); a removal marker is never new mail, and
        // an id seen twice in one round is one message. Messages moved into the Inbox (a restore) come
        // back as created with their old immutable id: the caller is idempotent on (mailbox, id).
        const seen = new Map<string, number>()
        for (const item of items) {
          if (item.removed || seen.has(item.id)) continue
          const t = item.receivedDateTime ? Date.parse(item.receivedDateTime) : NaN
          seen.set(item.id, Number.isNaN(t) ? Number.MAX_SAFE_INTEGER : t)
        }
        const ids = [...seen.entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id)
        return { kind: 'ok', ids, nextCursor: deltaLink }
      } catch (error) {
        if (error instanceof MailProviderError && (error.status === 410 || (error.code !== undefined && SYNC_STATE_CODES.has(error.code)))) {
          return { kind: 'cursor_expired' }
        }
        throw error
      }
    },

    async listRecentInboxIds(since, max) {
      const limit = Math.max(0, Math.floor(max))
      if (limit === 0) return []
      const ids: string[] = []
      let request: { target: string; query?: Record<string, string | number> } = {
        target: '/me/mailFolders/inbox/messages',
        // Graph wants the $orderby property in $filter too, first: both are receivedDateTime.
        query: { $select: 'id,receivedDateTime', $filter: `receivedDateTime ge ${iso(since)}`, $orderby: 'receivedDateTime desc', $top: Math.min(limit, 100) },
      }
      for (;;) {
        const page = await graph.json('GET', request, MessageRefListSchema)
        ids.push(...page.value.map((m) => m.id))
        const next = page['@odata.nextLink']
        if (ids.length >= limit || !next) break
        request = { target: next }
      }
      return ids.slice(0, limit).reverse()
    },

    async fetchMessage(id): Promise<FetchedMessage | null> {
      try {
        const meta = await graph.json('GET', { target: `/me/messages/${segment(id)}`, query: { $select: 'id,receivedDateTime,conversationId' } }, MessageRefSchema)
        const raw = await graph.text('GET', { target: `/me/messages/${segment(id)}/$value` })
        return { id: meta.id, raw, receivedAt: new Date(meta.receivedDateTime), threadId: meta.conversationId ?? null }
      } catch (error) {
        // Gone meanwhile (deleted or moved by the user or a rule). Only this code: a 404 can also mean
        // MailboxNotEnabledForRESTAPI or ResourceNotFound, which are not "the message is gone".
        if (isGraphError(error, 404, ['ErrorItemNotFound'])) return null
        throw error
      }
    },

    async isInInbox(id) {
      try {
        const [message, inbox] = await Promise.all([
          graph.json('GET', { target: `/me/messages/${segment(id)}`, query: { $select: 'id,parentFolderId' } }, MessageFolderSchema),
          inboxFolderId(),
        ])
        return message.parentFolderId === inbox
      } catch (error) {
        if (isGraphError(error, 404, ['ErrorItemNotFound'])) return null
        throw error
      }
    },

    async fileAway(id, category) {
      const folderId = await categoryFolder(category)
      try {
        return await move(id, folderId)
      } catch (error) {
        // Our cached folder may have been deleted by the person: resolve the folders again, once.
        if (!isGraphError(error, 404, ['ErrorItemNotFound'])) throw error
        forgetFolders()
        return move(id, await categoryFolder(category))
      }
    },

    async restore(id) {
      return move(id, 'inbox')
    },

    async hasWrittenTo(addressOrDomain) {
      const term = addressOrDomain.trim().toLowerCase()
      const isAddress = ADDRESS.test(term)
      if (!isAddress && !DOMAIN.test(term)) return false
      const sent = await graph.json(
        'GET',
        { target: '/me/mailFolders/sentitems/messages', query: { $search: `"to:${term}"`, $select: 'id,toRecipients,ccRecipients', $top: 25 } },
        SentMessageListSchema,
      )
      // KQL matching is fuzzy (tokens, prefixes): confirm the recipient ourselves.
      return sent.value.some((m) =>
        [...(m.toRecipients ?? []), ...(m.ccRecipients ?? [])].some((r) => {
          const address = r.emailAddress?.address?.toLowerCase() ?? ''
          return isAddress ? address === term : address.endsWith(`@${term}`)
        }),
      )
    },

    startPush: createSubscription,

    async renewPush(subscription, target) {
      if (!subscription.id) return createSubscription(target)
      const expires = new Date(now().getTime() + (OUTLOOK_SUBSCRIPTION_MAX_MINUTES - SUBSCRIPTION_SKEW_MARGIN_MINUTES) * 60_000)
      try {
        const sub = await graph.json('PATCH', { target: `/subscriptions/${segment(subscription.id)}`, body: { expirationDateTime: expires.toISOString() } }, SubscriptionSchema)
        return { id: sub.id, expiresAt: new Date(sub.expirationDateTime) }
      } catch (error) {
        // Gone (expired or removed): create a new one. A renewal Graph refuses (400, e.g. over a lowered
        // cap) is replaced too, after removing the old one (B3, D5).
        if (isGraphError(error, 404)) return createSubscription(target)
        if (isGraphError(error, 400)) {
          await deleteSubscription(subscription.id)
          return createSubscription(target)
        }
        throw error
      }
    },

    async stopPush(subscription) {
      if (subscription.id) await deleteSubscription(subscription.id)
    },
  }
}
