import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { IdentityFakes, TokenIntrospection } from '../identity/server.ts'
import { FakeHttpError, json, parseJson, startFakeServer, type FakeRequest, type FakeResponse, type FakeRoute, type FaultSpec, type JournalEntry } from '../http/fake-server.ts'
import { DESTROYING_FOLDERS, Mailbox, type ChangeKind, type DeltaOptions, type Folder, type StoredMessage } from './mailbox.ts'
import { parseMail } from './mime.ts'
import {
  displayNameFilter,
  faultBody,
  graphError,
  graphErrorBody,
  intParam,
  matchesDate,
  orderByReceived,
  preferences,
  receivedDateFilter,
  recipientSearch,
  selectFields,
  type Preferences,
} from './odata.ts'
import { Notifier, type LifecycleEvent, type NotificationFaults, type PushRecord, type Subscription } from './subscriptions.ts'

/**
 * A stateful local fake of Microsoft Graph mail (providers.md B2-B4, D1, D3; docs/decisions/004 and 011),
 * on the shared fake HTTP helper. Mailboxes are keyed by the address of the Microsoft account whose
 * bearer token calls it (checked with the identity fake), spring into existence on first use with the
 * well-known folders, and never lose mail: every destroying call is answered 403 and recorded in
 * `violations`, so tests can assert it stays empty.
 *
 * Simplified, on purpose: only `/me/...` paths (not `/users/{id}/...`); folders as `/me/mailFolders/{id}`
 * (the key form `mailfolders('{id}')` only on the delta links the fake hands out, as Graph writes them);
 * OData beyond what odata.ts lists answers 400; no `$batch`, attachments, drafts or sending; one delta
 * change log per mailbox kept forever (tokens only expire when a test says so).
 */

export interface GraphMailFakeOptions {
  identity: IdentityFakes
  host?: string
  port?: number
  /** Longest subscription lifetime for messages, in minutes (default 4,230: B3). */
  maxSubscriptionMinutes?: number
  /** How long the validation handshake may take (default 10 s, as Graph). */
  validationTimeoutMs?: number
  /** A notification answered later than this is retried (default 3 s, as Graph). */
  notificationTimeoutMs?: number
  /** Retries of an unanswered or non-2xx notification (default 2) and the first delay (default 200 ms, doubling). */
  notificationRetries?: number
  notificationRetryDelayMs?: number
  /** Concurrent requests per mailbox before 429 MailboxConcurrency (default 4: B2 throttling). */
  concurrencyLimit?: number
  /** Requests per mailbox per 10 minutes before 429 (default 10,000). */
  requestsPerTenMinutes?: number
  /** Retry-After (seconds) on the fake's own throttling answers (default 1). */
  throttleRetryAfterSeconds?: number
  /** Status of ErrorFolderExists: Graph has been seen answering 400 and 409 (B2). Default 409. */
  folderExistsStatus?: 400 | 409
}

export interface DeliverOptions {
  /** Folder id or well-known name; default Inbox, or Sent Items when From is the mailbox's own address. */
  folder?: string
  receivedAt?: Date | string | number
  isRead?: boolean
  categories?: string[]
}

export interface SeedMessage extends DeliverOptions {
  raw: string
}

export interface DeliveredMessage {
  /** Immutable id. */
  id: string
  /** Regular id (changes on every move). */
  restId: string
  /** Folder path, e.g. "Inbox" or "Inbox Guard/Unwanted". */
  folder: string
}

export interface MailboxSnapshot {
  address: string
  userId: string
  mailEnabled: boolean
  folders: Array<{ id: string; path: string; wellKnownName?: string; parentFolderId: string | null }>
  messages: Array<{ id: string; restId: string; folder: string; subject: string; from: string | null; receivedAt: string; isRead: boolean; categories: string[] }>
  /** Immutable message ids by folder path. */
  byFolder: Record<string, string[]>
}

export interface Violation {
  at: string
  endpoint: string
  method: string
  path: string
  /** The caller's mailbox when its token was valid. */
  address: string | null
  reason: string
}

export interface SubscriptionSnapshot {
  id: string
  address: string
  resource: string
  changeType: string
  notificationUrl: string
  lifecycleNotificationUrl: string | null
  expirationDateTime: string
  hasClientState: boolean
}

export interface GraphMailFake {
  origin: string
  /** Graph base URL: `${origin}/v1.0`. */
  url: string
  journal: JournalEntry[]
  clearJournal(): void
  /** Helper faults by endpoint name (`messages.get`, `messages.delta`, `subscriptions.create`, … or '*'). */
  injectFault(fault: FaultSpec): void
  clearFaults(): void
  /** Every mail-destroying call the fake refused. Tests assert it stays empty. */
  violations: Violation[]
  /** Every validation, change and lifecycle push, oldest first. */
  pushes: PushRecord[]
  deliver(address: string, raw: string, options?: DeliverOptions): Promise<DeliveredMessage>
  /** Puts messages in place without change notifications (mail that was there before, or whose notification was lost). */
  seed(address: string, messages: SeedMessage[]): Promise<DeliveredMessage[]>
  mailbox(address: string): MailboxSnapshot
  /** Evicts the mailbox's sync state: outstanding delta and skip tokens answer 410 SyncStateNotFound. */
  expireDeltaTokens(address: string): void
  /** false: the account has no Exchange Online mailbox (mail calls answer 404 MailboxNotEnabledForRESTAPI, /me has mail null). */
  setMailboxEnabled(address: string, enabled: boolean): void
  /** Time every request of that mailbox spends inside the fake, holding its concurrency slot; without an address, of every mailbox (clearing per-mailbox values). */
  setLatency(ms: number, address?: string): void
  setNotificationFaults(faults: NotificationFaults): void
  /** Sends the notifications the reorder fault held back, newest first. */
  flushNotifications(): void
  /** Resolves when every push under way has been answered or given up. */
  notificationsSettled(): Promise<void>
  sendLifecycleNotification(subscriptionId: string, event: LifecycleEvent): Promise<PushRecord>
  subscriptions(address?: string): SubscriptionSnapshot[]
  /** Moves the fake's clock (subscription expiry, default receive times). */
  advanceClock(ms: number): void
  now(): Date
  close(): Promise<void>
}

type Access = 'user' | 'read' | 'write' | 'subscription'

interface Ctx {
  request: FakeRequest
  mailbox: Mailbox
  prefs: Preferences
  caller: TokenIntrospection
}

const GRAPH_RESOURCE = 'https://graph.microsoft.com/'
const READ_SCOPES = ['mail.read', 'mail.readwrite']
const WRITE_SCOPES = ['mail.readwrite']
const USER_SCOPES = ['user.read', 'user.readwrite', 'user.readbasic.all', 'user.read.all', 'directory.read.all']
const CHANGE_TYPES: readonly ChangeKind[] = ['created', 'updated', 'deleted']
const MIN_SUBSCRIPTION_MINUTES = 45
const TEN_MINUTES = 10 * 60 * 1000
const DEFAULT_PAGE = 10
const MAX_PAGE = 1000
const RESOURCE_PATTERN = /^\/?(?:me|users\/([^/]+))\/(?:messages|mailFolders\('([^']+)'\)\/messages|mailFolders\/([^/]+)\/messages)$/i

/** Scopes as short lower-case names (Microsoft reports Graph scopes as full URIs: B1). */
function shortScopes(scopes: string[]): Set<string> {
  return new Set(scopes.map((s) => (s.toLowerCase().startsWith(GRAPH_RESOURCE) ? s.slice(GRAPH_RESOURCE.length) : s).toLowerCase()))
}

function bearer(request: FakeRequest): string | undefined {
  const header = request.headers.authorization
  if (!header) return undefined
  return /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] ?? ''
}

function isLoopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(url.hostname)
}

function parseTime(value: Date | string | number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  const t = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value)
  if (Number.isNaN(t)) throw new Error(`Invalid receivedAt: ${String(value)}`)
  return t
}

export async function startGraphMailFake(options: GraphMailFakeOptions): Promise<GraphMailFake> {
  const identity = options.identity
  const maxSubscriptionMinutes = options.maxSubscriptionMinutes ?? 4230
  const concurrencyLimit = options.concurrencyLimit ?? 4
  const requestLimit = options.requestsPerTenMinutes ?? 10_000
  const throttleRetryAfter = String(options.throttleRetryAfterSeconds ?? 1)
  const folderExistsStatus = options.folderExistsStatus ?? 409
  let clockOffset = 0
  const now = () => Date.now() + clockOffset
  const mailboxes = new Map<string, Mailbox>()
  const violations: Violation[] = []
  const latency = { all: 0, byMailbox: new Map<string, number>() }
  let base = ''

  const notifier = new Notifier({
    now,
    validationTimeoutMs: options.validationTimeoutMs ?? 10_000,
    notificationTimeoutMs: options.notificationTimeoutMs ?? 3_000,
    notificationRetries: options.notificationRetries ?? 2,
    notificationRetryDelayMs: options.notificationRetryDelayMs ?? 200,
  })

  const events = {
    added: (mailbox: Mailbox, message: StoredMessage, folderId: string, notify: boolean) => {
      if (notify) notifier.changed(mailbox, message, folderId, 'created')
    },
    changed: (mailbox: Mailbox, message: StoredMessage, folderId: string, kind: 'updated' | 'deleted') => notifier.changed(mailbox, message, folderId, kind),
  }

  function mailboxFor(address: string, displayName?: string): Mailbox {
    const key = address.trim().toLowerCase()
    let mailbox = mailboxes.get(key)
    if (!mailbox) {
      mailbox = new Mailbox(key, displayName ?? key.split('@')[0] ?? key, now, events)
      mailboxes.set(key, mailbox)
    }
    return mailbox
  }

  function tryCaller(request: FakeRequest): TokenIntrospection | null {
    const token = bearer(request)
    return token ? identity.introspect('microsoft', token) : null
  }

  function recordViolation(request: FakeRequest, endpoint: string, reason: string): never {
    const caller = tryCaller(request)
    violations.push({ at: new Date(now()).toISOString(), endpoint, method: request.method, path: request.path, address: caller?.email.toLowerCase() ?? null, reason })
    request.note('violation', true)
    throw graphError(403, 'ErrorAccessDenied', `The Inbox Guard Graph fake refused a mail-destroying call (${reason}); it is recorded as a violation. Inbox Guard never deletes mail.`)
  }

  /** Wraps a handler with Graph's checks: bearer token, scopes, mailbox existence, throttling, latency. */
  function route(method: string, pattern: string, endpoint: string, access: Access, handle: (ctx: Ctx) => FakeResponse | Promise<FakeResponse>): FakeRoute {
    return {
      method,
      pattern: `/v1.0${pattern}`,
      endpoint,
      handle: async (request) => {
        const token = bearer(request)
        const wwwAuth = { 'WWW-Authenticate': `Bearer realm="", authorization_uri="${identity.microsoft.authorizeUrl}", client_id="00000003-0000-0000-c000-000000000000"` }
        if (!token) throw graphError(401, 'InvalidAuthenticationToken', 'Access token is empty.', wwwAuth)
        const caller = identity.introspect('microsoft', token)
        if (!caller) throw graphError(401, 'InvalidAuthenticationToken', 'Access token has expired or is not yet valid.', wwwAuth)
        const scopes = shortScopes(caller.scopes)
        const needed = access === 'user' ? USER_SCOPES : access === 'write' ? WRITE_SCOPES : READ_SCOPES
        if (!needed.some((s) => scopes.has(s))) throw graphError(403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.')
        const mailbox = mailboxFor(caller.email, caller.name)
        const prefs = preferences(request)
        request.note('mailbox', mailbox.address)
        request.note('idType', prefs.immutableIds ? 'immutable' : 'rest')
        if (access !== 'user' && !mailbox.mailEnabled) {
          throw graphError(404, 'MailboxNotEnabledForRESTAPI', 'The mailbox is either inactive, soft-deleted, or is hosted on-premise.')
        }
        const t = now()
        while (mailbox.recentRequests.length > 0 && (mailbox.recentRequests[0] ?? 0) <= t - TEN_MINUTES) mailbox.recentRequests.shift()
        if (mailbox.recentRequests.length >= requestLimit) {
          throw graphError(429, 'ApplicationThrottled', 'Application is over its MailboxRequests limit.', { 'Retry-After': throttleRetryAfter })
        }
        mailbox.recentRequests.push(t)
        if (mailbox.inFlight >= concurrencyLimit) {
          throw graphError(429, 'ApplicationThrottled', 'Application is over its MailboxConcurrency limit.', { 'Retry-After': throttleRetryAfter })
        }
        mailbox.inFlight += 1
        try {
          const delay = latency.byMailbox.get(mailbox.address) ?? latency.all
          if (delay > 0) await sleep(delay)
          return await handle({ request, mailbox, prefs, caller })
        } finally {
          mailbox.inFlight -= 1
        }
      },
    }
  }

  function destroying(endpoint: string, method: string, pattern: string, reason: string): FakeRoute {
    return { method, pattern: `/v1.0${pattern}`, endpoint, handle: (request) => recordViolation(request, endpoint, reason) }
  }

  // ---------- rendering helpers ----------

  const context = (what: string) => `${base}/$metadata#${what}`

  function page<T>(request: FakeRequest, items: T[], render: (item: T) => unknown, what: string): FakeResponse {
    const top = intParam(request.url, '$top', DEFAULT_PAGE, MAX_PAGE)
    const skip = intParam(request.url, '$skip', 0, Number.MAX_SAFE_INTEGER)
    const slice = items.slice(skip, skip + top)
    const body: Record<string, unknown> = { '@odata.context': context(what), value: slice.map(render) }
    if (skip + top < items.length) {
      const next = new URL(`${base}${request.path.slice('/v1.0'.length)}`)
      for (const [k, v] of request.url.searchParams) if (k !== '$skip') next.searchParams.set(k, v)
      next.searchParams.set('$skip', String(skip + top))
      body['@odata.nextLink'] = next.toString()
    }
    return json(200, body)
  }

  function folderList(ctx: Ctx, folders: Folder[]): FakeResponse {
    const name = displayNameFilter(ctx.request.url.searchParams.get('$filter'))
    const hidden = ctx.request.url.searchParams.get('includeHiddenFolders') === 'true'
    const matching = folders.filter((f) => (hidden || !f.isHidden) && (name === undefined || f.displayName.toLowerCase() === name.toLowerCase()))
    return page(ctx.request, matching, (f) => ctx.mailbox.renderFolder(f), 'users/mailFolders')
  }

  function createFolder(ctx: Ctx, parent: Folder): FakeResponse {
    const body = parseJson<{ displayName?: unknown; isHidden?: unknown }>(ctx.request, graphErrorBody('BadRequest', 'Unable to read JSON request payload.'))
    if (typeof body.displayName !== 'string') throw graphError(400, 'ErrorInvalidRequest', "The property 'displayName' is required.")
    const folder = ctx.mailbox.createFolder(parent.id, body.displayName, body.isHidden === true, folderExistsStatus)
    return json(201, { '@odata.context': context('users/mailFolders/$entity'), ...ctx.mailbox.renderFolder(folder) })
  }

  function renderMessages(ctx: Ctx, messages: StoredMessage[]): FakeResponse {
    const url = ctx.request.url
    const search = recipientSearch(url)
    const filters = receivedDateFilter(url.searchParams.get('$filter'))
    const order = orderByReceived(url)
    if (search !== undefined && (filters.length > 0 || order)) {
      throw graphError(400, 'ErrorInvalidUrlQuery', 'The query parameter $search cannot be combined with $filter or $orderby.')
    }
    const select = selectFields(url)
    const matching = messages
      .filter((m) => matchesDate(filters, m.receivedAt))
      .filter((m) => search === undefined || m.mail.to.some((r) => (search.includes('@') ? r.address.toLowerCase() === search : r.address.toLowerCase().endsWith(`@${search}`))))
      .sort((a, b) => (order === 'asc' ? a.receivedAt - b.receivedAt : b.receivedAt - a.receivedAt))
    return page(ctx.request, matching, (m) => ctx.mailbox.renderMessage(m, select, ctx.prefs.immutableIds), 'users/messages')
  }

  async function moveMessage(ctx: Ctx, endpoint: string): Promise<FakeResponse> {
    const body = parseJson<{ destinationId?: unknown }>(ctx.request, graphErrorBody('BadRequest', 'Unable to read JSON request payload.'))
    if (typeof body.destinationId !== 'string' || !body.destinationId) throw graphError(400, 'ErrorInvalidParameter', "The parameter 'destinationId' is required.")
    const destination = ctx.mailbox.folder(body.destinationId)
    if (DESTROYING_FOLDERS.has(body.destinationId.toLowerCase()) || (destination?.wellKnownName && DESTROYING_FOLDERS.has(destination.wellKnownName))) {
      recordViolation(ctx.request, endpoint, `move to ${destination?.wellKnownName ?? body.destinationId}`)
    }
    const message = ctx.mailbox.requireMessage(ctx.request.params.id ?? '')
    if (!destination) throw graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.')
    ctx.mailbox.move(message, destination)
    return json(201, { '@odata.context': context('users/messages/$entity'), ...ctx.mailbox.renderMessage(message, undefined, ctx.prefs.immutableIds) })
  }

  function delta(ctx: Ctx, folderRef: string): FakeResponse {
    const { request, mailbox, prefs } = ctx
    const folder = mailbox.requireFolder(folderRef)
    const deltaToken = request.url.searchParams.get('$deltatoken') ?? undefined
    const skipToken = request.url.searchParams.get('$skiptoken') ?? undefined
    let state
    if (skipToken !== undefined) {
      state = mailbox.continueDeltaRound(skipToken)
    } else if (deltaToken !== undefined) {
      state = mailbox.startDeltaRound(undefined, deltaToken)
    } else {
      const filters = receivedDateFilter(request.url.searchParams.get('$filter'))
      if (filters.some((f) => f.op !== 'ge' && f.op !== 'gt')) throw graphError(400, 'ErrorInvalidUrlQueryFilter', 'Delta supports only receivedDateTime ge|gt in $filter.')
      const changeType = request.url.searchParams.get('changeType')
      const changeTypes = changeType === null ? undefined : changeType.split(',').map((c) => c.trim().toLowerCase())
      if (changeTypes?.some((c) => !CHANGE_TYPES.includes(c as ChangeKind))) throw graphError(400, 'ErrorInvalidParameter', `Invalid changeType '${changeType}'.`)
      const opts: DeltaOptions = { folderId: folder.id, select: selectFields(request.url), changeTypes: changeTypes as ChangeKind[] | undefined, dateFilters: filters }
      state = mailbox.startDeltaRound(opts, undefined)
    }
    if (!state || state.options.folderId !== folder.id) {
      request.note('syncState', 'not_found')
      throw new FakeHttpError(410, graphErrorBody('SyncStateNotFound', 'The sync state is not found or has expired. A full resync is required.', 'resyncRequired'), {}, 'SyncStateNotFound')
    }
    const pageSize = Math.min(prefs.maxPageSize ?? DEFAULT_PAGE, MAX_PAGE)
    const result = mailbox.deltaPage(state, pageSize, prefs.immutableIds)
    // Graph writes its links with the folder as a key segment, lower-case, by id: mailfolders('AQMk…').
    const link = `${base}/me/mailfolders('${folder.id}')/messages/delta`
    const body: Record<string, unknown> = { '@odata.context': context('Collection(message)'), value: result.value }
    if (result.skipToken) body['@odata.nextLink'] = `${link}?$skiptoken=${result.skipToken}`
    else body['@odata.deltaLink'] = `${link}?$deltatoken=${result.deltaToken}`
    request.note('items', result.value.length)
    return json(200, body, prefs.maxPageSize ? { 'Preference-Applied': `odata.maxpagesize=${pageSize}` } : undefined)
  }

  // ---------- subscriptions (B3) ----------

  function renderSubscription(sub: Subscription): Record<string, unknown> {
    return {
      '@odata.context': context('subscriptions/$entity'),
      id: sub.id,
      resource: sub.resource,
      applicationId: sub.applicationId,
      changeType: sub.changeTypes.join(','),
      clientState: sub.clientState,
      notificationUrl: sub.notificationUrl,
      notificationQueryOptions: null,
      lifecycleNotificationUrl: sub.lifecycleNotificationUrl,
      expirationDateTime: new Date(sub.expiresAt).toISOString(),
      creatorId: sub.creatorId,
      includeResourceData: false,
      latestSupportedTlsVersion: sub.latestSupportedTlsVersion,
      encryptionCertificate: null,
      encryptionCertificateId: null,
      notificationUrlAppId: null,
    }
  }

  function checkNotificationUrl(value: unknown, name: string): string {
    let url: URL
    try {
      url = new URL(String(value))
    } catch {
      throw graphError(400, 'InvalidRequest', `${name} must be an absolute URL.`)
    }
    // Graph requires public HTTPS; the fake also accepts plain HTTP on loopback, where tests and demo mode listen.
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url))) throw graphError(400, 'InvalidRequest', `${name} must use the HTTPS protocol.`)
    return url.toString()
  }

  /** Expiration rules (B3): in the future, at most the cap (ExtensionError), at least 45 minutes. */
  function expiration(value: unknown, overCapCode: string): number {
    const t = typeof value === 'string' ? Date.parse(value) : NaN
    if (Number.isNaN(t)) throw graphError(400, 'InvalidRequest', 'expirationDateTime is required and must be a date.')
    const current = now()
    if (t <= current) throw graphError(400, 'InvalidRequest', 'Subscription expiration must be in the future.')
    if (t > current + maxSubscriptionMinutes * 60_000) throw graphError(400, overCapCode, `Subscription expiration can only be ${maxSubscriptionMinutes} minutes in the future.`)
    return Math.max(t, current + MIN_SUBSCRIPTION_MINUTES * 60_000)
  }

  function ownSubscription(ctx: Ctx): Subscription {
    const sub = notifier.get(ctx.request.params.id ?? '')
    if (!sub || sub.address !== ctx.mailbox.address || sub.applicationId !== ctx.caller.clientId) {
      throw graphError(404, 'ResourceNotFound', 'The object was not found.')
    }
    return sub
  }

  async function createSubscription(ctx: Ctx): Promise<FakeResponse> {
    const body = parseJson<Record<string, unknown>>(ctx.request, graphErrorBody('BadRequest', 'Unable to read JSON request payload.'))
    const changeTypes = String(body.changeType ?? '')
      .split(',')
      .map((c) => c.trim().toLowerCase())
      .filter(Boolean)
    if (changeTypes.length === 0 || changeTypes.some((c) => !CHANGE_TYPES.includes(c as ChangeKind))) {
      throw graphError(400, 'InvalidRequest', "changeType must be one or more of 'created', 'updated', 'deleted'.")
    }
    const resource = String(body.resource ?? '')
    const match = RESOURCE_PATTERN.exec(resource)
    if (!match) throw graphError(400, 'InvalidRequest', `The fake supports message resources only (me/messages, me/mailFolders('{id}')/messages), got '${resource}'.`)
    const user = match[1]
    if (user && user.toLowerCase() !== ctx.mailbox.userId && user.toLowerCase() !== ctx.mailbox.address) throw graphError(403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.')
    const folderRef = match[2] ?? match[3]
    const folderId = folderRef ? ctx.mailbox.requireFolder(folderRef).id : null
    const notificationUrl = checkNotificationUrl(body.notificationUrl, 'notificationUrl')
    const lifecycleNotificationUrl = body.lifecycleNotificationUrl == null ? null : checkNotificationUrl(body.lifecycleNotificationUrl, 'lifecycleNotificationUrl')
    const expiresAt = expiration(body.expirationDateTime, 'ExtensionError')
    const clientState = body.clientState == null ? null : String(body.clientState)
    if (clientState !== null && clientState.length > 128) throw graphError(400, 'InvalidRequest', 'clientState must be at most 128 characters.')
    const id = randomUUID()
    for (const url of [notificationUrl, lifecycleNotificationUrl]) {
      if (!url) continue
      const failure = await notifier.validate(url, [id])
      if (failure) throw graphError(400, 'ValidationError', failure)
    }
    const sub: Subscription = {
      id,
      address: ctx.mailbox.address,
      applicationId: ctx.caller.clientId,
      creatorId: ctx.mailbox.userId,
      changeTypes: changeTypes as ChangeKind[],
      resource,
      folderId,
      notificationUrl,
      lifecycleNotificationUrl,
      expiresAt,
      clientState,
      latestSupportedTlsVersion: typeof body.latestSupportedTlsVersion === 'string' ? body.latestSupportedTlsVersion : 'v1_2',
      immutableIds: ctx.prefs.immutableIds,
    }
    notifier.subscriptions.set(id, sub)
    return json(201, renderSubscription(sub))
  }

  // ---------- routes ----------

  const routes: FakeRoute[] = [
    route('GET', '/me', 'me.get', 'user', ({ mailbox }) => {
      const [given, ...rest] = mailbox.displayName.split(/\s+/)
      return json(200, {
        '@odata.context': context('users/$entity'),
        businessPhones: [],
        displayName: mailbox.displayName,
        givenName: given ?? null,
        jobTitle: null,
        mail: mailbox.mailEnabled ? mailbox.address : null,
        mobilePhone: null,
        officeLocation: null,
        preferredLanguage: null,
        surname: rest.join(' ') || null,
        userPrincipalName: mailbox.address,
        id: mailbox.userId,
      })
    }),

    route('GET', '/me/mailFolders', 'mailFolders.list', 'read', (ctx) => folderList(ctx, ctx.mailbox.children(ctx.mailbox.root.id, true))),
    route('POST', '/me/mailFolders', 'mailFolders.create', 'write', (ctx) => createFolder(ctx, ctx.mailbox.root)),
    route('GET', '/me/mailFolders/:folderId', 'mailFolders.get', 'read', (ctx) => {
      const folder = ctx.mailbox.requireFolder(ctx.request.params.folderId ?? '')
      return json(200, { '@odata.context': context('users/mailFolders/$entity'), ...ctx.mailbox.renderFolder(folder) })
    }),
    route('GET', '/me/mailFolders/:folderId/childFolders', 'childFolders.list', 'read', (ctx) =>
      folderList(ctx, ctx.mailbox.children(ctx.mailbox.requireFolder(ctx.request.params.folderId ?? '').id, true)),
    ),
    route('POST', '/me/mailFolders/:folderId/childFolders', 'childFolders.create', 'write', (ctx) => createFolder(ctx, ctx.mailbox.requireFolder(ctx.request.params.folderId ?? ''))),

    route('GET', '/me/mailFolders/:folderId/messages/delta', 'messages.delta', 'read', (ctx) => delta(ctx, ctx.request.params.folderId ?? '')),
    // The key-segment form Graph itself uses in nextLink/deltaLink: /me/mailfolders('{id}')/messages/delta.
    route('GET', '/me/:folderRef/messages/delta', 'messages.delta', 'read', (ctx) => {
      const ref = ctx.request.params.folderRef ?? ''
      const key = /^mailfolders\('([^']+)'\)$/i.exec(ref)
      if (!key) throw graphError(400, 'BadRequest', `Resource not found for the segment '${ref}'.`)
      return delta(ctx, key[1] ?? '')
    }),
    route('GET', '/me/mailFolders/:folderId/messages', 'messages.list', 'read', (ctx) => {
      const folder = ctx.mailbox.requireFolder(ctx.request.params.folderId ?? '')
      return renderMessages(ctx, [...ctx.mailbox.messages.values()].filter((m) => m.folderId === folder.id))
    }),
    route('GET', '/me/messages', 'messages.list', 'read', (ctx) => renderMessages(ctx, [...ctx.mailbox.messages.values()])),
    route('GET', '/me/messages/:id', 'messages.get', 'read', (ctx) => {
      const message = ctx.mailbox.requireMessage(ctx.request.params.id ?? '')
      return json(200, { '@odata.context': context('users/messages/$entity'), ...ctx.mailbox.renderMessage(message, selectFields(ctx.request.url), ctx.prefs.immutableIds) })
    }),
    route('GET', '/me/mailFolders/:folderId/messages/:id', 'messages.get', 'read', (ctx) => {
      const message = ctx.mailbox.requireMessage(ctx.request.params.id ?? '')
      return json(200, { '@odata.context': context('users/messages/$entity'), ...ctx.mailbox.renderMessage(message, selectFields(ctx.request.url), ctx.prefs.immutableIds) })
    }),
    route('GET', '/me/messages/:id/$value', 'messages.value', 'read', (ctx) => {
      const message = ctx.mailbox.requireMessage(ctx.request.params.id ?? '')
      return { status: 200, headers: { 'Content-Type': 'text/plain' }, body: message.raw }
    }),
    route('POST', '/me/messages/:id/move', 'messages.move', 'write', (ctx) => moveMessage(ctx, 'messages.move')),
    route('POST', '/me/mailFolders/:folderId/messages/:id/move', 'messages.move', 'write', (ctx) => moveMessage(ctx, 'messages.move')),
    route('PATCH', '/me/messages/:id', 'messages.update', 'write', (ctx) => {
      const message = ctx.mailbox.requireMessage(ctx.request.params.id ?? '')
      const body = parseJson<Record<string, unknown>>(ctx.request, graphErrorBody('BadRequest', 'Unable to read JSON request payload.'))
      const patch: { isRead?: boolean; categories?: string[] } = {}
      for (const [key, value] of Object.entries(body)) {
        if (key === 'isRead' && typeof value === 'boolean') patch.isRead = value
        else if (key === 'categories' && Array.isArray(value) && value.every((c) => typeof c === 'string')) patch.categories = value as string[]
        else throw graphError(400, 'ErrorInvalidPropertyRequest', `The fake accepts only isRead and categories in a message PATCH, got '${key}'.`)
      }
      // categories replaces the whole array (B2): read-modify-write is the caller's job.
      ctx.mailbox.update(message, patch)
      return json(200, { '@odata.context': context('users/messages/$entity'), ...ctx.mailbox.renderMessage(message, undefined, ctx.prefs.immutableIds) })
    }),

    // Mail-destroying calls (B4): answered 403 and recorded, never carried out.
    destroying('messages.delete', 'DELETE', '/me/messages/:id', 'DELETE message (moves it to Deleted Items)'),
    destroying('messages.permanentDelete', 'POST', '/me/messages/:id/permanentDelete', 'permanentDelete message'),
    destroying('messages.delete', 'DELETE', '/me/mailFolders/:folderId/messages/:id', 'DELETE message (moves it to Deleted Items)'),
    destroying('messages.permanentDelete', 'POST', '/me/mailFolders/:folderId/messages/:id/permanentDelete', 'permanentDelete message'),
    destroying('mailFolders.delete', 'DELETE', '/me/mailFolders/:folderId', 'DELETE folder (deletes the folder and its contents)'),
    destroying('mailFolders.permanentDelete', 'POST', '/me/mailFolders/:folderId/permanentDelete', 'permanentDelete folder'),

    route('POST', '/subscriptions', 'subscriptions.create', 'subscription', createSubscription),
    route('GET', '/subscriptions', 'subscriptions.list', 'subscription', (ctx) =>
      json(200, {
        '@odata.context': context('subscriptions'),
        value: notifier.live(ctx.mailbox.address).filter((s) => s.applicationId === ctx.caller.clientId).map(renderSubscription),
      }),
    ),
    route('GET', '/subscriptions/:id', 'subscriptions.get', 'subscription', (ctx) => json(200, renderSubscription(ownSubscription(ctx)))),
    route('PATCH', '/subscriptions/:id', 'subscriptions.update', 'subscription', (ctx) => {
      const sub = ownSubscription(ctx)
      const body = parseJson<Record<string, unknown>>(ctx.request, graphErrorBody('BadRequest', 'Unable to read JSON request payload.'))
      // Renewals past the cap fail with ErrorInvalidParameter (B3).
      sub.expiresAt = expiration(body.expirationDateTime, 'ErrorInvalidParameter')
      return json(200, renderSubscription(sub))
    }),
    route('DELETE', '/subscriptions/:id', 'subscriptions.delete', 'subscription', (ctx) => {
      notifier.subscriptions.delete(ownSubscription(ctx).id)
      return { status: 204 }
    }),
    route('POST', '/subscriptions/:id/reauthorize', 'subscriptions.reauthorize', 'subscription', (ctx) => {
      ownSubscription(ctx)
      return { status: 204 }
    }),

    // Anything else that would destroy mail, on any path (a DELETE under /me or /users, a permanentDelete,
    // a move to Deleted Items / Junk), is refused and recorded too; other unknown calls are Graph's 400.
    {
      method: '*',
      pattern: '/v1.0/*rest',
      endpoint: 'unknown',
      handle: (request) => {
        const rest = request.params.rest ?? ''
        const isMailPath = /^(me|users)(\/|$)/i.test(rest)
        if (request.method === 'DELETE' && isMailPath) recordViolation(request, 'unknown.delete', `DELETE ${rest}`)
        if (request.method === 'POST' && /\/permanentDelete$/i.test(rest)) recordViolation(request, 'unknown.permanentDelete', `permanentDelete ${rest}`)
        if (request.method === 'POST' && /\/move$/i.test(rest)) {
          let destination = ''
          try {
            destination = String((JSON.parse(request.body || '{}') as { destinationId?: unknown }).destinationId ?? '')
          } catch {
            // not JSON: not a move the fake understands either
          }
          const caller = tryCaller(request)
          const folder = caller ? mailboxFor(caller.email).folder(destination) : undefined
          if (DESTROYING_FOLDERS.has(destination.toLowerCase()) || (folder?.wellKnownName && DESTROYING_FOLDERS.has(folder.wellKnownName))) {
            recordViolation(request, 'unknown.move', `move to ${folder?.wellKnownName ?? destination}`)
          }
        }
        const segment = rest.split('/').pop() ?? rest
        throw graphError(400, 'BadRequest', `Resource not found for the segment '${segment}'.`)
      },
    },
  ]

  // ---------- hooks ----------

  async function put(address: string, message: SeedMessage, notify: boolean): Promise<DeliveredMessage> {
    const mailbox = mailboxFor(address)
    const mail = await parseMail(message.raw)
    const own = mail.from?.address.toLowerCase() === mailbox.address
    const folder = mailbox.folder(message.folder ?? (own ? 'sentitems' : 'inbox'))
    if (!folder) throw new Error(`No folder ${message.folder ?? ''} in ${mailbox.address}`)
    const stored = mailbox.addMessage(message.raw, mail, folder.id, parseTime(message.receivedAt, now()), notify, {
      isRead: message.isRead ?? folder.wellKnownName === 'sentitems',
      categories: message.categories,
    })
    return { id: stored.immutableId, restId: stored.restId, folder: mailbox.folderPath(folder.id) }
  }

  function snapshot(address: string): MailboxSnapshot {
    const mailbox = mailboxFor(address)
    const messages = [...mailbox.messages.values()].sort((a, b) => a.receivedAt - b.receivedAt)
    const byFolder: Record<string, string[]> = {}
    for (const m of messages) (byFolder[mailbox.folderPath(m.folderId)] ??= []).push(m.immutableId)
    return {
      address: mailbox.address,
      userId: mailbox.userId,
      mailEnabled: mailbox.mailEnabled,
      folders: [...mailbox.folders.values()].map((f) => ({ id: f.id, path: mailbox.folderPath(f.id), wellKnownName: f.wellKnownName, parentFolderId: f.parentFolderId })),
      messages: messages.map((m) => ({
        id: m.immutableId,
        restId: m.restId,
        folder: mailbox.folderPath(m.folderId),
        subject: m.mail.subject,
        from: m.mail.from?.address ?? null,
        receivedAt: new Date(m.receivedAt).toISOString(),
        isRead: m.isRead,
        categories: [...m.categories],
      })),
      byFolder,
    }
  }

  function subscriptionSnapshots(address?: string): SubscriptionSnapshot[] {
    return notifier.live(address?.toLowerCase()).map((s) => ({
      id: s.id,
      address: s.address,
      resource: s.resource,
      changeType: s.changeTypes.join(','),
      notificationUrl: s.notificationUrl,
      lifecycleNotificationUrl: s.lifecycleNotificationUrl,
      expirationDateTime: new Date(s.expiresAt).toISOString(),
      hasClientState: s.clientState !== null,
    }))
  }

  async function sendLifecycle(subscriptionId: string, event: LifecycleEvent): Promise<PushRecord> {
    const sub = notifier.get(subscriptionId)
    if (!sub) throw new Error(`No live subscription ${subscriptionId}`)
    return notifier.lifecycle(sub, event, mailboxFor(sub.address).tenantId)
  }

  const admin = (method: string, pattern: string, handle: (request: FakeRequest) => FakeResponse | Promise<FakeResponse>): FakeRoute => ({
    method,
    pattern: `/__admin${pattern}`,
    endpoint: 'admin',
    handle,
  })
  const adminBody = (request: FakeRequest) => parseJson<Record<string, unknown>>(request, { error: 'invalid_json' })
  const address = (request: FakeRequest) => request.params.address ?? ''

  const adminRoutes: FakeRoute[] = [
    admin('POST', '/mailboxes/:address/deliver', async (request) => {
      const body = adminBody(request) as unknown as SeedMessage
      if (typeof body.raw !== 'string') throw new FakeHttpError(400, { error: 'raw (the RFC 822 message) is required' })
      return json(200, await put(address(request), body, true))
    }),
    admin('POST', '/mailboxes/:address/seed', async (request) => {
      const body = adminBody(request) as { messages?: SeedMessage[] }
      const delivered: DeliveredMessage[] = []
      for (const m of body.messages ?? []) delivered.push(await put(address(request), m, false))
      return json(200, delivered)
    }),
    admin('GET', '/mailboxes/:address', (request) => json(200, snapshot(address(request)))),
    admin('POST', '/mailboxes/:address/expire-delta-tokens', (request) => {
      mailboxFor(address(request)).expireDeltaTokens()
      return json(200, {})
    }),
    admin('POST', '/mailboxes/:address/enabled', (request) => {
      mailboxFor(address(request)).mailEnabled = adminBody(request).enabled !== false
      return json(200, {})
    }),
    admin('GET', '/violations', () => json(200, violations)),
    admin('GET', '/pushes', () => json(200, notifier.pushes)),
    admin('GET', '/subscriptions', () => json(200, subscriptionSnapshots())),
    admin('POST', '/subscriptions/:id/lifecycle', async (request) => {
      const event = adminBody(request).event as LifecycleEvent
      if (!['reauthorizationRequired', 'missed', 'subscriptionRemoved'].includes(event)) throw new FakeHttpError(400, { error: 'event must be reauthorizationRequired, missed or subscriptionRemoved' })
      if (!notifier.get(request.params.id ?? '')) throw new FakeHttpError(404, { error: 'no such subscription' })
      return json(200, await sendLifecycle(request.params.id ?? '', event))
    }),
    admin('POST', '/notification-faults', (request) => {
      notifier.setFaults(adminBody(request) as NotificationFaults)
      return json(200, {})
    }),
    admin('POST', '/notifications/flush', () => {
      notifier.flush()
      return json(200, {})
    }),
    admin('POST', '/latency', (request) => {
      const body = adminBody(request)
      api.setLatency(Number(body.ms), typeof body.address === 'string' ? body.address : undefined)
      return json(200, {})
    }),
    admin('POST', '/clock/advance', (request) => {
      const ms = Number(adminBody(request).ms)
      if (!Number.isFinite(ms)) throw new FakeHttpError(400, { error: 'ms must be a number' })
      clockOffset += ms
      return json(200, { now: new Date(now()).toISOString() })
    }),
  ]

  const server = await startFakeServer({
    host: options.host,
    port: options.port,
    routes,
    adminRoutes,
    now,
    faultBody: (status) => faultBody(status),
    notFoundBody: (path) => graphErrorBody('BadRequest', `Resource not found for the segment '${path.split('/').pop() ?? path}'.`),
    // Raw messages come in through the admin routes; 4 MB covers every test message with room to spare.
    maxBodyBytes: 4 * 1024 * 1024,
  })
  base = `${server.origin}/v1.0`

  const api: GraphMailFake = {
    origin: server.origin,
    url: base,
    journal: server.journal,
    clearJournal: () => server.clearJournal(),
    injectFault: (fault) => server.injectFault(fault),
    clearFaults: () => server.clearFaults(),
    violations,
    pushes: notifier.pushes,
    deliver: (addr, raw, opts = {}) => put(addr, { ...opts, raw }, true),
    async seed(addr, messages) {
      const delivered: DeliveredMessage[] = []
      for (const m of messages) delivered.push(await put(addr, m, false))
      return delivered
    },
    mailbox: snapshot,
    expireDeltaTokens: (addr) => mailboxFor(addr).expireDeltaTokens(),
    setMailboxEnabled(addr, enabled) {
      mailboxFor(addr).mailEnabled = enabled
    },
    setLatency(ms, addr) {
      if (!Number.isFinite(ms) || ms < 0) throw new Error('Latency must be a non-negative number of milliseconds')
      if (addr) latency.byMailbox.set(addr.trim().toLowerCase(), ms)
      else {
        latency.all = ms
        latency.byMailbox.clear()
      }
    },
    setNotificationFaults: (faults) => notifier.setFaults(faults),
    flushNotifications: () => notifier.flush(),
    notificationsSettled: () => notifier.settled(),
    sendLifecycleNotification: sendLifecycle,
    subscriptions: subscriptionSnapshots,
    advanceClock(ms) {
      clockOffset += ms
    },
    now: () => new Date(now()),
    close: async () => {
      await notifier.settled()
      await server.close()
    },
  }
  return api
}
