import { gmailError, invalidArgument, notFound } from './errors.ts'
import { addressesIn, headerValue, parsePayload, snippetOf, splitMessage, textOf, type GmailMessagePart, type Header } from './rfc822.ts'
import { parseQuery } from './search.ts'

/**
 * One Gmail mailbox's state (providers.md A2, D2): messages with label sets, system and user labels,
 * and a history log whose ids come from one fake-wide counter that jumps by random gaps. The log has a
 * retention horizon: a `startHistoryId` older than the oldest retained record answers 404, as Gmail
 * does when an id has expired (usually after a week, sometimes hours).
 */

export const SYSTEM_LABEL_IDS = [
  'INBOX',
  'SENT',
  'UNREAD',
  'STARRED',
  'IMPORTANT',
  'DRAFT',
  'CHAT',
  'SPAM',
  'TRASH',
  'CATEGORY_PERSONAL',
  'CATEGORY_SOCIAL',
  'CATEGORY_PROMOTIONS',
  'CATEGORY_UPDATES',
  'CATEGORY_FORUMS',
] as const

/** Label names a user label may not take (Gmail answers 400 "Invalid label name"). */
const RESERVED_NAMES = new Set([...SYSTEM_LABEL_IDS.map((l) => l.toLowerCase()), 'drafts', 'chats', 'all mail', 'muted', 'snoozed', 'scheduled'])

/** Gmail's fixed label colour palette (Label.color.backgroundColor / textColor reference). */
export const LABEL_PALETTE = new Set(
  (
    '#000000 #434343 #666666 #999999 #cccccc #efefef #f3f3f3 #ffffff #fb4c2f #ffad47 #fad165 #16a766 #43d692 #4a86e8 ' +
    '#a479e2 #f691b3 #f6c5be #ffe6c7 #fef1d1 #b9e4d0 #c6f3de #c9daf8 #e4d7f5 #fcdee8 #efa093 #ffd6a2 #fce8b3 #89d3b2 ' +
    '#a0eac9 #a4c2f4 #d0bcf1 #fbc8d9 #e66550 #ffbc6b #fcda83 #44b984 #68dfa9 #6d9eeb #b694e8 #f7a7c0 #cc3a21 #eaa041 ' +
    '#f2c960 #149e60 #3dc789 #3c78d8 #8e63ce #e07798 #ac2b16 #cf8933 #d5ae49 #0b804b #2a9c68 #285bac #653e9b #b65775 ' +
    '#822111 #a46a21 #aa8831 #076239 #1a764d #1c4587 #41236d #83334c #464646 #e7e7e7 #0d3472 #b6cff5 #0d3b44 #98d7e4 ' +
    '#3d188e #e3d7ff #711a36 #fbd3e0 #8a1c0a #f2b2a8 #7a2e0b #ffc8af #7a4706 #ffdeb5 #594c05 #fbe983 #684e07 #fdedc1 ' +
    '#0b4f30 #b3efd3 #04502e #a2dcc1 #c2c2c2 #4986e7 #2da2bb #b99aff #994a64 #f691b2 #ff7537 #ffad46 #662e37 #ebdbde ' +
    '#cca6ac #094228 #42d692 #16a765'
  ).split(' '),
)

export interface UserLabel {
  id: string
  name: string
  type: 'user'
  labelListVisibility: string
  messageListVisibility: string
  color?: { textColor: string; backgroundColor: string }
}

export interface StoredMessage {
  id: string
  threadId: string
  labelIds: Set<string>
  internalDate: number
  historyId: number
  raw: string
  headers: Header[]
  sizeEstimate: number
}

export type HistoryType = 'messageAdded' | 'messageDeleted' | 'labelAdded' | 'labelRemoved'
export const HISTORY_TYPES: readonly HistoryType[] = ['messageAdded', 'messageDeleted', 'labelAdded', 'labelRemoved']

export interface HistoryRecord {
  id: number
  /** On the fake's clock, for age-based retention. */
  at: number
  messageId: string
  threadId: string
  /** The message's labels right after the change. */
  labelIds: string[]
  added?: boolean
  deleted?: boolean
  labelsAdded?: string[]
  labelsRemoved?: string[]
}

export interface Watch {
  topicName: string
  labelIds: string[]
  behavior: 'include' | 'exclude'
  expiration: number
  historyId: number
}

export interface HistoryRetention {
  /** Records older than this are dropped (default 7 days). */
  maxAgeMs: number
  /** At most this many records are kept (default unlimited). */
  maxRecords: number
}

export interface MailboxDeps {
  now(): number
  nextHistoryId(): number
  nextMessageId(): string
  retention: HistoryRetention
  onChange(mailbox: Mailbox, record: HistoryRecord): void
}

export interface AddMessageOptions {
  labelIds?: string[]
  receivedAt?: Date | string | number
}

interface HistoryQuery {
  startHistoryId: string | null
  historyTypes: string[]
  labelId?: string
  maxResults: number
  pageToken?: string
}

const encodeToken = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
function decodeToken<T>(token: string): T {
  try {
    return JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as T
  } catch {
    throw invalidArgument('Invalid pageToken')
  }
}

export class Mailbox {
  readonly messages = new Map<string, StoredMessage>()
  readonly labels = new Map<string, UserLabel>()
  readonly history: HistoryRecord[] = []
  /** Message-ID header → threadId, for threading replies. */
  private readonly threadsByMessageId = new Map<string, string>()
  private labelCounter = 0
  historyId: number
  /** The oldest startHistoryId history.list still accepts. */
  floor: number
  watch: Watch | undefined
  /** Last time a push notification was published for this mailbox (fake clock), for the 1/s limit. */
  lastPushAt = Number.NEGATIVE_INFINITY

  constructor(
    readonly address: string,
    private readonly deps: MailboxDeps,
  ) {
    this.historyId = deps.nextHistoryId()
    this.floor = this.historyId
  }

  // ---------- labels ----------

  labelExists(id: string): boolean {
    return (SYSTEM_LABEL_IDS as readonly string[]).includes(id) || this.labels.has(id)
  }

  labelIdByName(name: string): string | undefined {
    const wanted = name.toLowerCase()
    const normalize = (n: string) => n.toLowerCase().replace(/[\s/]/g, '-')
    for (const label of this.labels.values()) {
      if (label.name.toLowerCase() === wanted || normalize(label.name) === normalize(name)) return label.id
    }
    return undefined
  }

  createLabel(input: { name?: unknown; labelListVisibility?: unknown; messageListVisibility?: unknown; color?: unknown }): UserLabel {
    const name = typeof input.name === 'string' ? input.name.trim() : ''
    if (!name || name.length > 225 || RESERVED_NAMES.has(name.toLowerCase()) || name.startsWith('/') || name.endsWith('/')) {
      throw invalidArgument('Invalid label name')
    }
    for (const label of this.labels.values()) {
      if (label.name.toLowerCase() === name.toLowerCase()) {
        throw gmailError(409, 'duplicate', 'Label name exists or conflicts', { status: 'ALREADY_EXISTS' })
      }
    }
    const labelListVisibility = input.labelListVisibility ?? 'labelShow'
    const messageListVisibility = input.messageListVisibility ?? 'show'
    if (typeof labelListVisibility !== 'string' || !['labelShow', 'labelShowIfUnread', 'labelHide'].includes(labelListVisibility)) {
      throw invalidArgument(`Invalid labelListVisibility: ${String(labelListVisibility)}`)
    }
    if (typeof messageListVisibility !== 'string' || !['show', 'hide'].includes(messageListVisibility)) {
      throw invalidArgument(`Invalid messageListVisibility: ${String(messageListVisibility)}`)
    }
    let color: UserLabel['color']
    if (input.color !== undefined && input.color !== null) {
      const c = input.color as { textColor?: unknown; backgroundColor?: unknown }
      for (const value of [c.textColor, c.backgroundColor]) {
        if (typeof value !== 'string' || !LABEL_PALETTE.has(value.toLowerCase())) {
          throw invalidArgument(`Label color ${String(value)} is not on the allowed color palette`)
        }
      }
      color = { textColor: String(c.textColor).toLowerCase(), backgroundColor: String(c.backgroundColor).toLowerCase() }
    }
    this.labelCounter += 1
    const label: UserLabel = { id: `Label_${this.labelCounter}`, name, type: 'user', labelListVisibility, messageListVisibility, ...(color ? { color } : {}) }
    this.labels.set(label.id, label)
    return label
  }

  labelCounts(id: string) {
    let messagesTotal = 0
    let messagesUnread = 0
    const threads = new Set<string>()
    const unreadThreads = new Set<string>()
    for (const m of this.messages.values()) {
      if (!m.labelIds.has(id)) continue
      messagesTotal += 1
      threads.add(m.threadId)
      if (m.labelIds.has('UNREAD')) {
        messagesUnread += 1
        unreadThreads.add(m.threadId)
      }
    }
    return { messagesTotal, messagesUnread, threadsTotal: threads.size, threadsUnread: unreadThreads.size }
  }

  // ---------- messages ----------

  addMessage(raw: string, options: AddMessageOptions = {}): StoredMessage {
    const { headers } = splitMessage(raw)
    const from = addressesIn(headerValue(headers, 'From'))[0]
    const recipients = addressesIn(['To', 'Cc', 'Bcc'].map((n) => headerValue(headers, n) ?? '').join(', '))
    let labelIds = options.labelIds
    if (!labelIds) {
      const own = this.address.toLowerCase()
      // Mail the person sent is filed under SENT; a message to themselves is also in the inbox.
      if (from === own) labelIds = recipients.includes(own) ? ['SENT', 'INBOX', 'UNREAD'] : ['SENT']
      else labelIds = ['INBOX', 'UNREAD']
    }
    for (const label of labelIds) if (!this.labelExists(label)) throw invalidArgument(`Invalid label: ${label}`)
    const receivedAt = options.receivedAt === undefined ? this.deps.now() : new Date(options.receivedAt).getTime()
    if (!Number.isFinite(receivedAt)) throw invalidArgument('Invalid receivedAt')
    const id = this.deps.nextMessageId()
    const references = [headerValue(headers, 'In-Reply-To'), headerValue(headers, 'References')].join(' ').match(/<[^>]+>/g) ?? []
    const threadId = references.map((r) => this.threadsByMessageId.get(r)).find((t) => t !== undefined) ?? id
    const ownMessageId = headerValue(headers, 'Message-ID')
    if (ownMessageId) this.threadsByMessageId.set(ownMessageId.trim(), threadId)
    const message: StoredMessage = {
      id,
      threadId,
      labelIds: new Set(labelIds),
      internalDate: receivedAt,
      historyId: 0,
      raw,
      headers,
      sizeEstimate: Buffer.byteLength(raw, 'utf8'),
    }
    this.messages.set(id, message)
    this.record(message, { added: true })
    return message
  }

  get(id: string): StoredMessage {
    const message = this.messages.get(id)
    if (!message) throw notFound()
    return message
  }

  /** Applies a label change; writes one history record when something changed. */
  modify(id: string, add: readonly string[], remove: readonly string[]): StoredMessage {
    const message = this.get(id)
    const added = [...new Set(add)].filter((l) => !message.labelIds.has(l))
    const removed = [...new Set(remove)].filter((l) => message.labelIds.has(l) && !add.includes(l))
    for (const l of added) message.labelIds.add(l)
    for (const l of removed) message.labelIds.delete(l)
    if (added.length || removed.length) {
      this.record(message, { ...(added.length ? { labelsAdded: added } : {}), ...(removed.length ? { labelsRemoved: removed } : {}) })
    }
    return message
  }

  /** The person deleting a message in Gmail's own UI (not an API call): history gets messageDeleted. */
  removeByUser(id: string): void {
    const message = this.get(id)
    this.messages.delete(id)
    this.record(message, { deleted: true })
  }

  /** The person deleting a user label in Gmail: it disappears from every message, as in Gmail. */
  removeLabelByUser(id: string): void {
    if (!this.labels.delete(id)) throw notFound()
    for (const m of this.messages.values()) if (m.labelIds.has(id)) this.modify(m.id, [], [id])
  }

  list(options: { q?: string; labelIds: string[]; includeSpamTrash: boolean }): StoredMessage[] {
    const query = parseQuery(options.q, { now: this.deps.now(), labelIdByName: (n) => this.labelIdByName(n) })
    const withSpamTrash = options.includeSpamTrash || query.includesSpamTrash || options.labelIds.some((l) => l === 'SPAM' || l === 'TRASH')
    const out: StoredMessage[] = []
    for (const m of this.messages.values()) {
      if (!withSpamTrash && (m.labelIds.has('SPAM') || m.labelIds.has('TRASH'))) continue
      if (!options.labelIds.every((l) => m.labelIds.has(l))) continue
      if (options.q && !query.matches({ headers: m.headers, labelIds: m.labelIds, internalDate: m.internalDate, text: () => textOf(parsePayload(m.raw)) })) continue
      out.push(m)
    }
    // Newest first, as Gmail lists.
    return out.sort((a, b) => b.internalDate - a.internalDate || b.historyId - a.historyId)
  }

  threadCount(): number {
    return new Set([...this.messages.values()].map((m) => m.threadId)).size
  }

  // ---------- history ----------

  private record(message: StoredMessage, change: Pick<HistoryRecord, 'added' | 'deleted' | 'labelsAdded' | 'labelsRemoved'>): void {
    const id = this.deps.nextHistoryId()
    this.historyId = id
    message.historyId = id
    const record: HistoryRecord = { id, at: this.deps.now(), messageId: message.id, threadId: message.threadId, labelIds: [...message.labelIds], ...change }
    this.history.push(record)
    this.prune()
    this.deps.onChange(this, record)
  }

  prune(): void {
    const { maxAgeMs, maxRecords } = this.deps.retention
    const oldest = this.deps.now() - maxAgeMs
    while (this.history.length > 0 && (this.history.length > maxRecords || this.history[0]!.at < oldest)) {
      this.floor = this.history.shift()!.id
    }
  }

  /** Makes every history id older than the current one invalid, as when Google expires them early. */
  expireHistory(): void {
    this.history.length = 0
    this.floor = this.historyId
  }

  listHistory(query: HistoryQuery) {
    if (!query.startHistoryId) throw invalidArgument('Missing required parameter: startHistoryId')
    if (!/^\d+$/.test(query.startHistoryId)) throw invalidArgument(`Invalid value '${query.startHistoryId}' for startHistoryId`)
    const types = query.historyTypes
    for (const t of types) if (!(HISTORY_TYPES as readonly string[]).includes(t)) throw invalidArgument(`Invalid value '${t}' for historyTypes`)
    this.prune()
    const start = Number(query.startHistoryId)
    if (start < this.floor) throw notFound()
    const after = query.pageToken ? decodeToken<{ after: number }>(query.pageToken).after : start
    const wanted = (r: HistoryRecord) => {
      const has: Record<HistoryType, boolean> = {
        messageAdded: !!r.added,
        messageDeleted: !!r.deleted,
        labelAdded: !!r.labelsAdded,
        labelRemoved: !!r.labelsRemoved,
      }
      if (types.length > 0 && !types.some((t) => has[t as HistoryType])) return false
      if (query.labelId && !r.labelIds.includes(query.labelId) && !r.labelsAdded?.includes(query.labelId) && !r.labelsRemoved?.includes(query.labelId)) {
        return false
      }
      return true
    }
    const matching = this.history.filter((r) => r.id > after && wanted(r))
    const page = matching.slice(0, query.maxResults)
    const include = (t: HistoryType) => types.length === 0 || types.includes(t)
    const history = page.map((r) => {
      const message = { id: r.messageId, threadId: r.threadId, labelIds: r.labelIds }
      return {
        id: String(r.id),
        messages: [{ id: r.messageId, threadId: r.threadId }],
        ...(r.added && include('messageAdded') ? { messagesAdded: [{ message }] } : {}),
        ...(r.deleted && include('messageDeleted') ? { messagesDeleted: [{ message }] } : {}),
        ...(r.labelsAdded && include('labelAdded') ? { labelsAdded: [{ message, labelIds: r.labelsAdded }] } : {}),
        ...(r.labelsRemoved && include('labelRemoved') ? { labelsRemoved: [{ message, labelIds: r.labelsRemoved }] } : {}),
      }
    })
    const more = matching.length > page.length
    return {
      // Gmail leaves `history` out when there is nothing to report.
      ...(history.length > 0 ? { history } : {}),
      ...(more ? { nextPageToken: encodeToken({ after: page[page.length - 1]!.id }) } : {}),
      historyId: String(this.historyId),
    }
  }

  // ---------- resources ----------

  messageResource(message: StoredMessage, format: string, metadataHeaders: string[]) {
    const base = {
      id: message.id,
      threadId: message.threadId,
      labelIds: [...message.labelIds],
      snippet: '',
      sizeEstimate: message.sizeEstimate,
      historyId: String(message.historyId),
      internalDate: String(message.internalDate),
    }
    const payload: GmailMessagePart = parsePayload(message.raw)
    base.snippet = snippetOf(payload)
    switch (format) {
      case 'minimal':
        return base
      case 'raw':
        return { ...base, raw: Buffer.from(message.raw, 'utf8').toString('base64url') }
      case 'metadata': {
        const wanted = metadataHeaders.map((h) => h.toLowerCase())
        const headers = wanted.length ? payload.headers.filter((h) => wanted.includes(h.name.toLowerCase())) : payload.headers
        return { ...base, payload: { partId: '', mimeType: payload.mimeType, filename: '', headers, body: { size: 0 } } }
      }
      case 'full':
        return { ...base, payload }
      default:
        throw invalidArgument(`Invalid value '${format}' for format`)
    }
  }
}
