import { randomInt } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { IdentityFakes } from '../identity/server.ts'
import { FakeHttpError, json, parseJson, startFakeServer, type FakeRequest, type FakeResponse, type FakeRoute, type FakeServer } from '../http/fake-server.ts'
import { gmailError, gmailErrorBody, gmailFaultBody, insufficientPermissions, invalidArgument, unauthenticated } from './errors.ts'
import { Mailbox, SYSTEM_LABEL_IDS, type AddMessageOptions, type HistoryRecord, type HistoryRetention, type StoredMessage, type Watch } from './mailbox.ts'
import { createPushEmulator, type PubSubOptions, type PushEmulator } from './push.ts'
import { headerValue } from './rfc822.ts'

/**
 * A stateful local fake of the Gmail API v1 and of the Pub/Sub push that `users.watch` sets up, on the
 * shared fake HTTP helper (docs/decisions/004-local-fakes.md, 010-gmail-adapter-and-fake.md). It speaks
 * the real wire protocol under the real paths (`/gmail/v1/users/me/...`), so the app's googleapis client
 * runs unchanged with `rootUrl` pointed at `origin`. Behaviour follows providers.md A2-A5 and D2.
 *
 * Mailboxes are keyed by the address of the Google account whose access token calls (checked with the
 * identity fakes), spring into existence empty on first use and can be seeded. Every call that would
 * destroy mail (A5) is answered 403 and recorded in `violations`, so tests can assert it stays empty.
 */

export const GMAIL_SCOPES = {
  full: 'https://mail.google.com/',
  modify: 'https://www.googleapis.com/auth/gmail.modify',
  readonly: 'https://www.googleapis.com/auth/gmail.readonly',
  metadata: 'https://www.googleapis.com/auth/gmail.metadata',
  labels: 'https://www.googleapis.com/auth/gmail.labels',
} as const

export interface GmailFakeOptions {
  identity: IdentityFakes
  host?: string
  port?: number
  /** Where Pub/Sub pushes notifications; can be set later with setPushEndpoint. */
  pushEndpoint?: string
  pubsub?: PubSubOptions
  /** History retention horizon (default: 7 days, unlimited records). */
  historyRetention?: Partial<HistoryRetention>
  /** Watch lifetime (Gmail: 7 days). */
  watchTtlMs?: number
  /** Parallel requests per mailbox above this answer 429 "Too many concurrent requests for user" (default: no limit). */
  concurrencyLimitPerUser?: number
  /** Time every API call takes while holding its concurrency slot (default 0). */
  latencyMs?: number
  /** Quota units per mailbox per minute (A4 costs); above it calls answer 429 userRateLimitExceeded (default: no limit). */
  userQuotaPerMinute?: number
}

export interface Violation {
  at: string
  endpoint: string
  method: string
  path: string
  /** The caller's mailbox when its token was valid. */
  address?: string
  detail: string
}

export interface SeedMessage extends AddMessageOptions {
  raw: string
}

export interface MailboxSnapshot {
  address: string
  historyId: string
  /** The oldest startHistoryId history.list still accepts. */
  historyFloor: string
  messages: Array<{ id: string; threadId: string; labelIds: string[]; internalDate: string; historyId: string; subject: string; from: string }>
  labels: Array<{ id: string; name: string; type: 'user' | 'system'; color?: { textColor: string; backgroundColor: string } }>
  watch?: { topicName: string; labelIds: string[]; labelFilterBehavior: string; expiration: string }
}

export interface GmailFake {
  origin: string
  /** What the adapter takes as `apiUrl` (the googleapis client's rootUrl). */
  apiUrl: string
  pubsub: {
    topicName: string
    subscription: string
    issuer: string
    serviceAccountEmail: string
    jwksUrl: string
    /** The `aud` of push tokens right now (the push endpoint unless configured). */
    audience(): string
  }
  journal: FakeServer['journal']
  clearJournal(): void
  injectFault: FakeServer['injectFault']
  clearFaults(): void
  violations: Violation[]
  clearViolations(): void
  /** New mail arriving: INBOX+UNREAD (SENT when it is from the mailbox's own address); writes history; pushes. */
  deliver(address: string, raw: string, options?: AddMessageOptions): { id: string; threadId: string; historyId: string }
  /** Mail that was already there: no push. */
  seed(address: string, messages: SeedMessage[]): string[]
  mailbox(address: string): MailboxSnapshot
  /** Invalidates every history id the mailbox handed out so far (history.list then answers 404). */
  expireHistory(address: string): void
  /** The person deletes a message in Gmail itself (messages.get then answers 404). */
  userDeletes(address: string, messageId: string): void
  /** The person deletes a user label in Gmail itself. */
  userDeletesLabel(address: string, labelId: string): void
  advanceClock(ms: number): void
  now(): Date
  setPushEndpoint(url: string | undefined): void
  /**
   * The lifetime of watches created from now on (not of the current ones), for one mailbox or, without
   * an address, for every mailbox (clearing per-mailbox values). Gmail's is 7 days; a short one makes
   * watches lapse within a test (the soak's "watch expiry"), with the expiration the watch call reports.
   */
  setWatchTtl(ms: number, address?: string): void
  push: Pick<PushEmulator, 'log' | 'duplicateNext' | 'dropNext' | 'hold' | 'release' | 'idle'>
  close(): Promise<void>
}

type Access = 'read' | 'readMetadata' | 'modify' | 'labels' | 'labelsWrite' | 'watch'

const GMAIL_SCOPE_SET: readonly string[] = Object.values(GMAIL_SCOPES)
const ACCESS: Record<Access, readonly string[]> = {
  read: [GMAIL_SCOPES.full, GMAIL_SCOPES.modify, GMAIL_SCOPES.readonly],
  readMetadata: [GMAIL_SCOPES.full, GMAIL_SCOPES.modify, GMAIL_SCOPES.readonly, GMAIL_SCOPES.metadata],
  modify: [GMAIL_SCOPES.full, GMAIL_SCOPES.modify],
  labels: [GMAIL_SCOPES.full, GMAIL_SCOPES.modify, GMAIL_SCOPES.readonly, GMAIL_SCOPES.metadata, GMAIL_SCOPES.labels],
  labelsWrite: [GMAIL_SCOPES.full, GMAIL_SCOPES.modify, GMAIL_SCOPES.labels],
  watch: [GMAIL_SCOPES.full, GMAIL_SCOPES.modify, GMAIL_SCOPES.readonly, GMAIL_SCOPES.metadata],
}

/** Quota units per call (A4). */
const COST: Record<string, number> = {
  getProfile: 1,
  'labels.list': 1,
  'labels.get': 1,
  'labels.create': 5,
  'messages.list': 5,
  'messages.get': 5,
  'messages.modify': 5,
  'messages.batchModify': 50,
  'threads.modify': 10,
  'history.list': 2,
  watch: 100,
  stop: 50,
}

const DAY = 86_400_000
const BASE = '/gmail/v1/users/:userId'
const FORBIDDEN_ADD_LABELS = ['TRASH', 'SPAM']
/** System labels the API does not let anyone add or remove. */
const IMMUTABLE_LABELS = ['SENT', 'DRAFT', 'CHAT']

const normalize = (address: string) => address.trim().toLowerCase()

function stringArray(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw invalidArgument(`Invalid value for ${field}: expected a list of strings`)
  return value as string[]
}

function parseMaxResults(value: string | null, fallback: number): number {
  if (value === null) return fallback
  if (!/^\d+$/.test(value)) throw invalidArgument(`Invalid value '${value}' for maxResults`)
  // Gmail caps rather than refuses larger values.
  return Math.min(Math.max(Number(value), 1), 500)
}

export async function startGmailFake(options: GmailFakeOptions): Promise<GmailFake> {
  const { identity } = options
  let clockOffset = 0
  const now = () => Date.now() + clockOffset
  const retention: HistoryRetention = { maxAgeMs: options.historyRetention?.maxAgeMs ?? 7 * DAY, maxRecords: options.historyRetention?.maxRecords ?? Number.POSITIVE_INFINITY }
  const watchTtl = { all: options.watchTtlMs ?? 7 * DAY, byMailbox: new Map<string, number>() }
  const mailboxes = new Map<string, Mailbox>()
  const violations: Violation[] = []
  const inFlight = new Map<string, number>()
  const quotaUse = new Map<string, Array<{ at: number; units: number }>>()
  // One fake-wide counter with random gaps: ids increase, but not by one (A2).
  let historyCounter = 1_000_000 + randomInt(1_000_000)
  let messageCounter = randomInt(4096)
  let pushSuppressed = false

  const push = await createPushEmulator(options.pubsub ?? {}, now)
  push.setEndpoint(options.pushEndpoint)

  function watchMatches(watch: Watch, record: HistoryRecord): boolean {
    if (watch.labelIds.length === 0) return true
    const involved = new Set([...record.labelIds, ...(record.labelsRemoved ?? [])])
    const hit = watch.labelIds.some((l) => involved.has(l))
    return watch.behavior === 'include' ? hit : !hit
  }

  function onChange(mailbox: Mailbox, record: HistoryRecord) {
    const watch = mailbox.watch
    if (pushSuppressed || !watch) return
    // An expired watch stops pushing silently (A3): the app has to renew it.
    if (watch.expiration <= now()) return
    if (watchMatches(watch, record)) push.publish(mailbox.address, mailbox.historyId)
  }

  function mailboxOf(address: string): Mailbox {
    const key = normalize(address)
    let mailbox = mailboxes.get(key)
    if (!mailbox) {
      mailbox = new Mailbox(key, {
        now,
        nextHistoryId: () => (historyCounter += 1 + randomInt(37)),
        nextMessageId: () => {
          messageCounter += 1 + randomInt(8)
          return ((BigInt(now()) << 20n) | BigInt(messageCounter & 0xfffff)).toString(16)
        },
        retention,
        onChange,
      })
      mailboxes.set(key, mailbox)
    }
    return mailbox
  }

  function bearer(request: FakeRequest): string | undefined {
    const match = /^Bearer\s+(\S+)$/i.exec((request.headers.authorization ?? '').trim())
    return match?.[1]
  }

  function callerAddress(request: FakeRequest): string | undefined {
    const token = bearer(request)
    return token ? identity.introspect('google', token)?.email : undefined
  }

  function authenticate(request: FakeRequest, access: Access): Mailbox {
    const token = bearer(request)
    const info = token ? identity.introspect('google', token) : null
    if (!info) throw unauthenticated()
    if (!info.scopes.some((s) => ACCESS[access].includes(s))) {
      request.note('scope', info.scopes.some((s) => GMAIL_SCOPE_SET.includes(s)) ? 'insufficient' : 'none')
      throw insufficientPermissions()
    }
    const userId = request.params.userId ?? ''
    if (userId !== 'me' && normalize(userId) !== normalize(info.email)) {
      throw gmailError(403, 'forbidden', `Delegation denied for ${info.email}`)
    }
    return mailboxOf(info.email)
  }

  function chargeQuota(address: string, endpoint: string) {
    const limit = options.userQuotaPerMinute
    if (!limit) return
    const window = (quotaUse.get(address) ?? []).filter((u) => u.at > now() - 60_000)
    const used = window.reduce((sum, u) => sum + u.units, 0)
    const units = COST[endpoint] ?? 5
    if (used + units > limit) {
      quotaUse.set(address, window)
      const retryAt = new Date((window[0]?.at ?? now()) + 60_000)
      throw gmailError(429, 'userRateLimitExceeded', `User-rate limit exceeded.  Retry after ${retryAt.toISOString()}`, {
        domain: 'usageLimits',
        headers: { 'Retry-After': String(Math.max(1, Math.ceil((retryAt.getTime() - now()) / 1000))) },
      })
    }
    window.push({ at: now(), units })
    quotaUse.set(address, window)
  }

  /** Authentication, quota and the per-user concurrency cap around an API handler. */
  function api(method: string, path: string, endpoint: string, access: Access | ((r: FakeRequest) => Access), handle: (r: FakeRequest, m: Mailbox) => FakeResponse | Promise<FakeResponse>): FakeRoute {
    return {
      method,
      pattern: `${BASE}${path}`,
      endpoint,
      handle: async (request) => {
        const mailbox = authenticate(request, typeof access === 'function' ? access(request) : access)
        const key = mailbox.address
        const limit = options.concurrencyLimitPerUser
        if (limit !== undefined && (inFlight.get(key) ?? 0) >= limit) {
          throw gmailError(429, 'rateLimitExceeded', 'Too many concurrent requests for user.', { domain: 'usageLimits' })
        }
        chargeQuota(key, endpoint)
        inFlight.set(key, (inFlight.get(key) ?? 0) + 1)
        try {
          if (options.latencyMs) await sleep(options.latencyMs)
          return await handle(request, mailbox)
        } finally {
          inFlight.set(key, (inFlight.get(key) ?? 1) - 1)
        }
      },
    }
  }

  /** A5: the call is implemented only to be refused and remembered. */
  function tripwire(method: string, path: string, endpoint: string, detail: string): FakeRoute {
    return {
      method,
      pattern: `${BASE}${path}`,
      endpoint,
      handle: (request) => refuse(request, endpoint, detail),
    }
  }

  function refuse(request: FakeRequest, endpoint: string, detail: string): never {
    const address = callerAddress(request)
    violations.push({ at: new Date(now()).toISOString(), endpoint, method: request.method, path: request.path, ...(address ? { address } : {}), detail })
    request.note('violation', true)
    throw gmailError(403, 'forbidden', `${detail} The Gmail fake refuses every call that destroys mail (providers.md A5).`)
  }

  function body(request: FakeRequest): Record<string, unknown> {
    const parsed = parseJson<unknown>(request, gmailErrorBody(400, 'parseError', 'Invalid JSON payload received.'))
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalidArgument('Invalid JSON payload received. Expected an object.')
    return parsed as Record<string, unknown>
  }

  function labelChange(request: FakeRequest, mailbox: Mailbox, endpoint: string, payload: Record<string, unknown>) {
    const add = stringArray(payload.addLabelIds, 'addLabelIds')
    const remove = stringArray(payload.removeLabelIds, 'removeLabelIds')
    const destructive = add.filter((l) => FORBIDDEN_ADD_LABELS.includes(l.toUpperCase()))
    if (destructive.length > 0) refuse(request, endpoint, `Adding ${destructive.join(', ')} puts mail in the bin or spam, where Gmail purges it.`)
    for (const label of [...add, ...remove]) {
      if (!mailbox.labelExists(label)) throw invalidArgument(`Invalid label: ${label}`)
      if (IMMUTABLE_LABELS.includes(label)) throw invalidArgument(`Invalid label: ${label} cannot be added or removed`)
    }
    request.note('labelsAdded', add.length)
    request.note('labelsRemoved', remove.length)
    return { add, remove }
  }

  const labelResource = (mailbox: Mailbox, id: string, withCounts: boolean) => {
    const user = mailbox.labels.get(id)
    const counts = withCounts ? mailbox.labelCounts(id) : {}
    if (user) return { ...user, ...counts }
    return { id, name: id, type: 'system', ...(['INBOX', 'SENT', 'DRAFT'].includes(id) ? {} : { messageListVisibility: 'hide', labelListVisibility: 'labelHide' }), ...counts }
  }

  const routes: FakeRoute[] = [
    api('GET', '/profile', 'getProfile', 'labels', (_r, m) =>
      json(200, { emailAddress: m.address, messagesTotal: m.messages.size, threadsTotal: m.threadCount(), historyId: String(m.historyId) }),
    ),
    api('GET', '/labels', 'labels.list', 'labels', (_r, m) =>
      json(200, { labels: [...SYSTEM_LABEL_IDS.map((id) => labelResource(m, id, false)), ...[...m.labels.keys()].map((id) => labelResource(m, id, false))] }),
    ),
    api('POST', '/labels', 'labels.create', 'labelsWrite', (r, m) => json(200, m.createLabel(body(r)))),
    api('GET', '/labels/:id', 'labels.get', 'labels', (r, m) => {
      const id = r.params.id ?? ''
      if (!m.labelExists(id)) throw gmailError(404, 'notFound', 'Requested entity was not found.')
      return json(200, labelResource(m, id, true))
    }),
    api(
      'GET',
      '/messages',
      'messages.list',
      (r) => (r.url.searchParams.get('q') ? 'read' : 'readMetadata'),
      (r, m) => {
        const params = r.url.searchParams
        const maxResults = parseMaxResults(params.get('maxResults'), 100)
        const pageToken = params.get('pageToken')
        let offset = 0
        if (pageToken) {
          offset = Number(Buffer.from(pageToken, 'base64url').toString('utf8'))
          if (!Number.isInteger(offset) || offset < 0) throw invalidArgument('Invalid pageToken')
        }
        const all = m.list({ q: params.get('q') ?? undefined, labelIds: params.getAll('labelIds'), includeSpamTrash: params.get('includeSpamTrash') === 'true' })
        const page = all.slice(offset, offset + maxResults)
        r.note('results', page.length)
        return json(200, {
          ...(page.length > 0 ? { messages: page.map((x) => ({ id: x.id, threadId: x.threadId })) } : {}),
          ...(offset + page.length < all.length ? { nextPageToken: Buffer.from(String(offset + page.length)).toString('base64url') } : {}),
          resultSizeEstimate: all.length,
        })
      },
    ),
    api('POST', '/messages/batchModify', 'messages.batchModify', 'modify', (r, m) => {
      const payload = body(r)
      const ids = stringArray(payload.ids, 'ids')
      if (ids.length === 0) throw invalidArgument('ids must not be empty')
      if (ids.length > 1000) throw invalidArgument('Number of ids cannot exceed 1000')
      const { add, remove } = labelChange(r, m, 'messages.batchModify', payload)
      r.note('ids', ids.length)
      // Ids that do not exist (any more) are skipped, not an error: a simplification.
      for (const id of ids) if (m.messages.has(id)) m.modify(id, add, remove)
      return { status: 204 }
    }),
    tripwire('POST', '/messages/batchDelete', 'messages.batchDelete', 'messages.batchDelete deletes messages permanently.'),
    api(
      'GET',
      '/messages/:id',
      'messages.get',
      (r) => (['minimal', 'metadata'].includes(r.url.searchParams.get('format') ?? 'full') ? 'readMetadata' : 'read'),
      (r, m) => {
        const format = r.url.searchParams.get('format') ?? 'full'
        r.note('format', format)
        return json(200, m.messageResource(m.get(r.params.id ?? ''), format, r.url.searchParams.getAll('metadataHeaders')))
      },
    ),
    tripwire('DELETE', '/messages/:id', 'messages.delete', 'messages.delete deletes a message permanently.'),
    api('POST', '/messages/:id/modify', 'messages.modify', 'modify', (r, m) => {
      const { add, remove } = labelChange(r, m, 'messages.modify', body(r))
      const updated = m.modify(r.params.id ?? '', add, remove)
      return json(200, { id: updated.id, threadId: updated.threadId, labelIds: [...updated.labelIds] })
    }),
    tripwire('POST', '/messages/:id/trash', 'messages.trash', 'messages.trash moves a message to the bin, which Gmail empties after 30 days.'),
    tripwire('POST', '/messages/:id/untrash', 'messages.untrash', 'messages.untrash only exists for mail someone put in the bin.'),
    api('POST', '/threads/:id/modify', 'threads.modify', 'modify', (r, m) => {
      const threadId = r.params.id ?? ''
      const { add, remove } = labelChange(r, m, 'threads.modify', body(r))
      const messages = [...m.messages.values()].filter((x: StoredMessage) => x.threadId === threadId)
      if (messages.length === 0) throw gmailError(404, 'notFound', 'Requested entity was not found.')
      for (const x of messages) m.modify(x.id, add, remove)
      return json(200, { id: threadId, messages: messages.map((x) => ({ id: x.id, threadId, labelIds: [...x.labelIds] })) })
    }),
    tripwire('POST', '/threads/:id/trash', 'threads.trash', 'threads.trash moves a conversation to the bin.'),
    tripwire('POST', '/threads/:id/untrash', 'threads.untrash', 'threads.untrash only exists for mail someone put in the bin.'),
    tripwire('DELETE', '/threads/:id', 'threads.delete', 'threads.delete deletes a conversation permanently.'),
    api('GET', '/history', 'history.list', 'readMetadata', (r, m) => {
      const params = r.url.searchParams
      const result = m.listHistory({
        startHistoryId: params.get('startHistoryId'),
        historyTypes: params.getAll('historyTypes'),
        labelId: params.get('labelId') ?? undefined,
        maxResults: parseMaxResults(params.get('maxResults'), 100),
        pageToken: params.get('pageToken') ?? undefined,
      })
      r.note('records', result.history?.length ?? 0)
      return json(200, result)
    }),
    api('POST', '/watch', 'watch', 'watch', (r, m) => {
      const payload = body(r)
      const topicName = typeof payload.topicName === 'string' ? payload.topicName : ''
      if (!/^projects\/[^/]+\/topics\/[^/]+$/.test(topicName)) {
        throw invalidArgument(`Invalid topicName does not match projects/SOME-PROJECT/topics/SOME-TOPIC`)
      }
      if (topicName !== push.topicName) {
        // What Google answers when the topic does not exist or gmail-api-push@system.gserviceaccount.com
        // may not publish to it (A3).
        throw gmailError(403, 'forbidden', `Error sending test message to Cloud PubSub ${topicName} : User not authorized to perform this action.`)
      }
      const labelIds = stringArray(payload.labelIds, 'labelIds')
      for (const label of labelIds) if (!m.labelExists(label)) throw invalidArgument(`Invalid label: ${label}`)
      const rawBehavior = payload.labelFilterBehavior ?? payload.labelFilterAction ?? 'include'
      const behavior = typeof rawBehavior === 'string' ? rawBehavior.toLowerCase() : ''
      if (behavior !== 'include' && behavior !== 'exclude') throw invalidArgument(`Invalid value for labelFilterBehavior: ${String(rawBehavior)}`)
      m.watch = { topicName, labelIds, behavior, expiration: now() + (watchTtl.byMailbox.get(m.address) ?? watchTtl.all), historyId: m.historyId }
      // A successful watch publishes one notification straight away (A3).
      push.publish(m.address, m.historyId, { bypassRateLimit: true })
      return json(200, { historyId: String(m.historyId), expiration: String(m.watch.expiration) })
    }),
    api('POST', '/stop', 'stop', 'watch', (_r, m) => {
      m.watch = undefined
      return { status: 204 }
    }),
    { method: 'GET', pattern: '/pubsub/oauth2/v3/certs', endpoint: 'pubsub.jwks', handle: () => json(200, push.jwks, { 'Cache-Control': 'public, max-age=3600' }) },
  ]

  const adminBody = (request: FakeRequest) => parseJson<Record<string, unknown>>(request, { error: 'invalid_json' })
  const adminError = (error: unknown): never => {
    if (error instanceof FakeHttpError) throw error
    throw new FakeHttpError(400, { error: error instanceof Error ? error.message : String(error) }, {}, 'invalid_request')
  }
  const wrap = (fn: (r: FakeRequest) => unknown) => (r: FakeRequest) => {
    try {
      return json(200, fn(r) ?? {})
    } catch (error) {
      return adminError(error)
    }
  }
  const adminRoutes: FakeRoute[] = [
    {
      method: 'POST',
      pattern: '/__admin/mailboxes/:address/deliver',
      endpoint: 'admin',
      handle: wrap((r) => {
        const b = adminBody(r)
        return fake.deliver(r.params.address ?? '', String(b.raw ?? ''), b as AddMessageOptions)
      }),
    },
    {
      method: 'POST',
      pattern: '/__admin/mailboxes/:address/seed',
      endpoint: 'admin',
      handle: wrap((r) => ({ ids: fake.seed(r.params.address ?? '', (adminBody(r).messages ?? []) as SeedMessage[]) })),
    },
    { method: 'GET', pattern: '/__admin/mailboxes/:address', endpoint: 'admin', handle: wrap((r) => fake.mailbox(r.params.address ?? '')) },
    { method: 'POST', pattern: '/__admin/mailboxes/:address/expire-history', endpoint: 'admin', handle: wrap((r) => fake.expireHistory(r.params.address ?? '')) },
    {
      method: 'POST',
      pattern: '/__admin/mailboxes/:address/user-delete',
      endpoint: 'admin',
      handle: wrap((r) => fake.userDeletes(r.params.address ?? '', String(adminBody(r).id ?? ''))),
    },
    {
      method: 'POST',
      pattern: '/__admin/mailboxes/:address/user-delete-label',
      endpoint: 'admin',
      handle: wrap((r) => fake.userDeletesLabel(r.params.address ?? '', String(adminBody(r).id ?? ''))),
    },
    { method: 'GET', pattern: '/__admin/violations', endpoint: 'admin', handle: () => json(200, violations) },
    { method: 'DELETE', pattern: '/__admin/violations', endpoint: 'admin', handle: wrap(() => fake.clearViolations()) },
    { method: 'POST', pattern: '/__admin/clock/advance', endpoint: 'admin', handle: wrap((r) => fake.advanceClock(Number(adminBody(r).ms))) },
    {
      method: 'POST',
      pattern: '/__admin/watch-ttl',
      endpoint: 'admin',
      handle: wrap((r) => {
        const b = adminBody(r)
        fake.setWatchTtl(Number(b.ms), typeof b.address === 'string' ? b.address : undefined)
      }),
    },
    { method: 'GET', pattern: '/__admin/push/log', endpoint: 'admin', handle: () => json(200, push.log) },
    {
      method: 'POST',
      pattern: '/__admin/push/endpoint',
      endpoint: 'admin',
      handle: wrap((r) => {
        const url = adminBody(r).url
        fake.setPushEndpoint(typeof url === 'string' ? url : undefined)
      }),
    },
    { method: 'POST', pattern: '/__admin/push/duplicate', endpoint: 'admin', handle: wrap((r) => push.duplicateNext(Number(adminBody(r).count ?? 1))) },
    { method: 'POST', pattern: '/__admin/push/drop', endpoint: 'admin', handle: wrap((r) => push.dropNext(Number(adminBody(r).count ?? 1))) },
    { method: 'POST', pattern: '/__admin/push/hold', endpoint: 'admin', handle: wrap(() => push.hold()) },
    { method: 'POST', pattern: '/__admin/push/release', endpoint: 'admin', handle: wrap((r) => push.release(adminBody(r).order === 'fifo' ? 'fifo' : 'reverse')) },
  ]

  const server = await startFakeServer({
    host: options.host,
    port: options.port,
    routes,
    adminRoutes,
    now,
    faultBody: (status) => gmailFaultBody(status),
    notFoundBody: () => gmailErrorBody(404, 'notFound', 'Not Found'),
  })

  const fake: GmailFake = {
    origin: server.origin,
    apiUrl: server.origin,
    pubsub: {
      topicName: push.topicName,
      subscription: push.subscription,
      issuer: push.issuer,
      serviceAccountEmail: push.serviceAccountEmail,
      jwksUrl: `${server.origin}/pubsub/oauth2/v3/certs`,
      audience: push.audience,
    },
    journal: server.journal,
    clearJournal: server.clearJournal,
    injectFault: (fault) => server.injectFault(fault),
    clearFaults: server.clearFaults,
    violations,
    clearViolations: () => {
      violations.length = 0
    },
    deliver(address, raw, deliverOptions = {}) {
      if (!raw) throw new Error('deliver needs the raw RFC 822 message')
      const message = mailboxOf(address).addMessage(raw, deliverOptions)
      return { id: message.id, threadId: message.threadId, historyId: String(message.historyId) }
    },
    seed(address, messages) {
      const mailbox = mailboxOf(address)
      pushSuppressed = true
      try {
        return messages.map((m) => mailbox.addMessage(m.raw, m).id)
      } finally {
        pushSuppressed = false
      }
    },
    mailbox(address) {
      const m = mailboxOf(address)
      return {
        address: m.address,
        historyId: String(m.historyId),
        historyFloor: String(m.floor),
        messages: [...m.messages.values()].map((x) => ({
          id: x.id,
          threadId: x.threadId,
          labelIds: [...x.labelIds],
          internalDate: String(x.internalDate),
          historyId: String(x.historyId),
          subject: headerValue(x.headers, 'Subject') ?? '',
          from: headerValue(x.headers, 'From') ?? '',
        })),
        labels: [
          ...SYSTEM_LABEL_IDS.map((id) => ({ id, name: id, type: 'system' as const })),
          ...[...m.labels.values()].map((l) => ({ id: l.id, name: l.name, type: l.type, ...(l.color ? { color: l.color } : {}) })),
        ],
        ...(m.watch
          ? { watch: { topicName: m.watch.topicName, labelIds: m.watch.labelIds, labelFilterBehavior: m.watch.behavior, expiration: String(m.watch.expiration) } }
          : {}),
      }
    },
    expireHistory: (address) => mailboxOf(address).expireHistory(),
    userDeletes: (address, messageId) => mailboxOf(address).removeByUser(messageId),
    userDeletesLabel: (address, labelId) => mailboxOf(address).removeLabelByUser(labelId),
    advanceClock(ms) {
      if (!Number.isFinite(ms)) throw new Error('ms must be a number')
      clockOffset += ms
    },
    now: () => new Date(now()),
    setPushEndpoint: (url) => push.setEndpoint(url),
    setWatchTtl(ms, address) {
      if (!Number.isFinite(ms) || ms <= 0) throw new Error('A watch lifetime must be a positive number of milliseconds')
      if (address) watchTtl.byMailbox.set(normalize(address), ms)
      else {
        watchTtl.all = ms
        watchTtl.byMailbox.clear()
      }
    },
    push: {
      log: push.log,
      duplicateNext: push.duplicateNext,
      dropNext: push.dropNext,
      hold: push.hold,
      release: push.release,
      idle: push.idle,
    },
    async close() {
      push.close()
      await server.close()
    },
  }
  return fake
}
