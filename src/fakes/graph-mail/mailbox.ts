import { createHash, createHmac, randomBytes } from 'node:crypto'
import { graphError, matchesDate, type DateFilter } from './odata.ts'
import type { ParsedMail, Recipient } from './mime.ts'

/**
 * One fake Exchange mailbox: folders (well-known ones plus user folders), messages with both their
 * regular REST id (which changes on every move, as Graph's does) and their immutable id (which does
 * not: providers.md B2), and a change log per folder that delta queries are computed from (B2 delta).
 * Mail is never removed from the store: the fake refuses every destroying call (server.ts).
 */

export type ChangeKind = 'created' | 'updated' | 'deleted'

export interface Folder {
  id: string
  displayName: string
  /** null for the root and for folders outside it (Recoverable Items). */
  parentFolderId: string | null
  wellKnownName?: string
  isHidden: boolean
}

export interface StoredMessage {
  immutableId: string
  /** The regular id: replaced on every move (Graph without `Prefer: IdType="ImmutableId"`). */
  restId: string
  folderId: string
  raw: string
  mail: ParsedMail
  receivedAt: number
  createdAt: number
  modifiedAt: number
  changeKey: string
  isRead: boolean
  categories: string[]
  conversationId: string
}

interface ChangeEntry {
  seq: number
  folderId: string
  kind: 'added' | 'updated' | 'removed'
  key: string
}

export interface DeltaOptions {
  folderId: string
  select?: string[]
  changeTypes?: ChangeKind[]
  dateFilters: DateFilter[]
}

interface DeltaItem {
  key: string
  kind: ChangeKind
}

interface SkipState {
  options: DeltaOptions
  items: DeltaItem[]
  offset: number
  watermark: number
}

export interface MailboxEvents {
  /** A message entered a folder (delivered, seeded or moved in). */
  added(mailbox: Mailbox, message: StoredMessage, folderId: string, notify: boolean): void
  /** A message left a folder (moved out) or changed (PATCH). */
  changed(mailbox: Mailbox, message: StoredMessage, folderId: string, kind: 'updated' | 'deleted'): void
}

/** Well-known folders every mailbox starts with (B2). `recoverableitemsdeletions` lives outside the root. */
const WELL_KNOWN: Array<{ name: string; displayName: string; root?: boolean; hidden?: boolean; outside?: boolean }> = [
  { name: 'msgfolderroot', displayName: 'Top of Information Store', root: true },
  { name: 'inbox', displayName: 'Inbox' },
  { name: 'drafts', displayName: 'Drafts' },
  { name: 'sentitems', displayName: 'Sent Items' },
  { name: 'deleteditems', displayName: 'Deleted Items' },
  { name: 'junkemail', displayName: 'Junk Email' },
  { name: 'archive', displayName: 'Archive' },
  { name: 'recoverableitemsdeletions', displayName: 'Deletions', hidden: true, outside: true },
]

/** Folders a message must never be moved to (B4): moving there deletes or hides it as junk. */
export const DESTROYING_FOLDERS = new Set(['deleteditems', 'junkemail', 'recoverableitemsdeletions', 'recoverableitemspurges'])

// Not a secret: it only makes the derived user and tenant ids stable across restarts.
const ID_KEY = 'inbox-guard-graph-mail-fake-v1'

function stableGuid(...parts: string[]): string {
  const hex = createHmac('sha256', ID_KEY).update(parts.join('\u0000')).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/** Ids shaped like Exchange's base64 entry ids (they contain '-', '_' and '=' padding, so clients must encode them). */
const newId = (prefix: string) => `${prefix}${randomBytes(30).toString('base64url')}AAA=`
const newChangeKey = () => randomBytes(12).toString('base64')

/** Graph writes times without fractions: 2024-05-01T10:00:00Z. */
export const graphTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

const emailAddress = (r: Recipient | null) => (r ? { emailAddress: { name: r.name, address: r.address } } : null)

export class Mailbox {
  readonly userId: string
  readonly tenantId: string
  readonly folders = new Map<string, Folder>()
  readonly messages = new Map<string, StoredMessage>()
  /** Current regular id → immutable id. Old regular ids are forgotten on a move, so they answer 404. */
  private readonly restIndex = new Map<string, string>()
  private readonly log: ChangeEntry[] = []
  private seq = 0
  private readonly deltaTokens = new Map<string, { options: DeltaOptions; watermark: number }>()
  private readonly skipTokens = new Map<string, SkipState>()
  /** Requests being answered right now (Graph allows 4 per app per mailbox). */
  inFlight = 0
  /** Start times of recent requests, for the 10,000-per-10-minutes limit. */
  readonly recentRequests: number[] = []
  /** false: the account has no Exchange Online mailbox (MailboxNotEnabledForRESTAPI). */
  mailEnabled = true

  constructor(
    readonly address: string,
    readonly displayName: string,
    private readonly now: () => number,
    private readonly events: MailboxEvents,
  ) {
    this.userId = stableGuid('oid', address)
    this.tenantId = stableGuid('tid', address.split('@')[1] ?? '')
    const root = WELL_KNOWN.find((f) => f.root)
    const rootId = newId('AQMkAD')
    this.folders.set(rootId, { id: rootId, displayName: root?.displayName ?? '', parentFolderId: null, wellKnownName: 'msgfolderroot', isHidden: false })
    for (const f of WELL_KNOWN) {
      if (f.root) continue
      const id = newId('AQMkAD')
      this.folders.set(id, { id, displayName: f.displayName, parentFolderId: f.outside ? null : rootId, wellKnownName: f.name, isHidden: f.hidden ?? false })
    }
  }

  // ---------- folders ----------

  /** A folder by id or well-known name (case-insensitive, as Graph accepts `Inbox` and `inbox`). */
  folder(idOrName: string): Folder | undefined {
    const direct = this.folders.get(idOrName)
    if (direct) return direct
    const name = idOrName.toLowerCase()
    for (const f of this.folders.values()) if (f.wellKnownName === name) return f
    return undefined
  }

  requireFolder(idOrName: string): Folder {
    const folder = this.folder(idOrName)
    if (!folder) throw graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.')
    return folder
  }

  get root(): Folder {
    return this.requireFolder('msgfolderroot')
  }

  children(parentId: string, includeHidden = false): Folder[] {
    return [...this.folders.values()].filter((f) => f.parentFolderId === parentId && (includeHidden || !f.isHidden))
  }

  /** Creates a child folder; a sibling with the same name (case-insensitive) → ErrorFolderExists (B2: key on the code). */
  createFolder(parentId: string, displayName: string, isHidden: boolean, existsStatus: number): Folder {
    const name = displayName.trim()
    if (!name) throw graphError(400, 'ErrorInvalidRequest', 'The folder name cannot be empty.')
    if (this.children(parentId, true).some((f) => f.displayName.toLowerCase() === name.toLowerCase())) {
      throw graphError(existsStatus, 'ErrorFolderExists', 'A folder with the specified name already exists.')
    }
    const id = newId('AAMkAD')
    const folder: Folder = { id, displayName: name, parentFolderId: parentId, isHidden }
    this.folders.set(id, folder)
    return folder
  }

  /** "Inbox Guard/Unwanted" style path of a folder, for inspection. */
  folderPath(folderId: string): string {
    const parts: string[] = []
    let folder = this.folders.get(folderId)
    while (folder && folder.wellKnownName !== 'msgfolderroot') {
      parts.unshift(folder.displayName)
      folder = folder.parentFolderId ? this.folders.get(folder.parentFolderId) : undefined
    }
    return parts.join('/')
  }

  renderFolder(folder: Folder): Record<string, unknown> {
    const inFolder = [...this.messages.values()].filter((m) => m.folderId === folder.id)
    return {
      id: folder.id,
      displayName: folder.displayName,
      parentFolderId: folder.parentFolderId,
      childFolderCount: this.children(folder.id, true).length,
      unreadItemCount: inFolder.filter((m) => !m.isRead).length,
      totalItemCount: inFolder.length,
      sizeInBytes: inFolder.reduce((sum, m) => sum + Buffer.byteLength(m.raw), 0),
      isHidden: folder.isHidden,
    }
  }

  // ---------- messages ----------

  addMessage(raw: string, mail: ParsedMail, folderId: string, receivedAt: number, notify: boolean, extra: { isRead?: boolean; categories?: string[] } = {}): StoredMessage {
    const root = mail.threadRoot ?? mail.internetMessageId ?? mail.subject.replace(/^((re|fwd?|aw|wg):\s*)+/i, '')
    const message: StoredMessage = {
      immutableId: newId('AAkALg'),
      restId: newId('AAMkAG'),
      folderId,
      raw,
      mail,
      receivedAt,
      createdAt: this.now(),
      modifiedAt: this.now(),
      changeKey: newChangeKey(),
      isRead: extra.isRead ?? false,
      categories: extra.categories ?? [],
      conversationId: `AAQkAD${createHash('sha256').update(`${this.address}\u0000${root}`).digest('base64url').slice(0, 40)}=`,
    }
    this.messages.set(message.immutableId, message)
    this.restIndex.set(message.restId, message.immutableId)
    this.record(folderId, 'added', message.immutableId)
    this.events.added(this, message, folderId, notify)
    return message
  }

  /** By immutable id or by current regular id; a regular id from before a move is gone (404). */
  findMessage(id: string): StoredMessage | undefined {
    return this.messages.get(id) ?? this.messages.get(this.restIndex.get(id) ?? '')
  }

  requireMessage(id: string): StoredMessage {
    const message = this.findMessage(id)
    if (!message) throw graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.')
    return message
  }

  move(message: StoredMessage, destination: Folder): StoredMessage {
    const from = message.folderId
    message.changeKey = newChangeKey()
    message.modifiedAt = this.now()
    if (from !== destination.id) {
      // Exchange copies the item into the destination folder: it gets a new entry id, and the old
      // regular id stops working. Only the immutable id survives (B2).
      this.restIndex.delete(message.restId)
      message.restId = newId('AAMkAG')
      this.restIndex.set(message.restId, message.immutableId)
      message.folderId = destination.id
      this.record(from, 'removed', message.immutableId)
      this.events.changed(this, message, from, 'deleted')
      this.record(destination.id, 'added', message.immutableId)
      this.events.added(this, message, destination.id, true)
    }
    return message
  }

  update(message: StoredMessage, patch: { isRead?: boolean; categories?: string[] }): StoredMessage {
    if (patch.isRead !== undefined) message.isRead = patch.isRead
    if (patch.categories !== undefined) message.categories = patch.categories
    message.changeKey = newChangeKey()
    message.modifiedAt = this.now()
    this.record(message.folderId, 'updated', message.immutableId)
    this.events.changed(this, message, message.folderId, 'updated')
    return message
  }

  messageId(message: StoredMessage, immutable: boolean): string {
    return immutable ? message.immutableId : message.restId
  }

  /** The message resource (B2); `internetMessageHeaders` only when selected, as Graph does. */
  renderMessage(message: StoredMessage, select: string[] | undefined, immutable: boolean): Record<string, unknown> {
    const m = message.mail
    const text = m.text || ''
    const full: Record<string, unknown> = {
      createdDateTime: graphTime(message.createdAt),
      lastModifiedDateTime: graphTime(message.modifiedAt),
      changeKey: message.changeKey,
      categories: message.categories,
      receivedDateTime: graphTime(message.receivedAt),
      sentDateTime: graphTime(m.sentAt?.getTime() ?? message.receivedAt),
      hasAttachments: m.hasAttachments,
      internetMessageId: m.internetMessageId,
      subject: m.subject,
      bodyPreview: text.replace(/\s+/g, ' ').trim().slice(0, 255),
      importance: 'normal',
      parentFolderId: message.folderId,
      conversationId: message.conversationId,
      isDeliveryReceiptRequested: false,
      isReadReceiptRequested: false,
      isRead: message.isRead,
      isDraft: this.folders.get(message.folderId)?.wellKnownName === 'drafts',
      webLink: `https://outlook.office365.com/owa/?ItemID=${encodeURIComponent(message.immutableId)}&exvsurl=1&viewmodel=ReadMessageItem`,
      inferenceClassification: 'focused',
      body: m.html ? { contentType: 'html', content: m.html } : { contentType: 'text', content: text },
      sender: emailAddress(m.sender),
      from: emailAddress(m.from),
      toRecipients: m.to.map(emailAddress),
      ccRecipients: m.cc.map(emailAddress),
      bccRecipients: [],
      replyTo: m.replyTo.map(emailAddress),
      flag: { flagStatus: 'notFlagged' },
    }
    const head = { '@odata.etag': `W/"${message.changeKey}"`, id: this.messageId(message, immutable) }
    if (!select) return { ...head, ...full }
    const picked: Record<string, unknown> = { ...head }
    const byLower = new Map(Object.keys(full).map((k) => [k.toLowerCase(), k]))
    for (const field of select) {
      const lower = field.toLowerCase()
      if (lower === 'id') continue
      if (lower === 'internetmessageheaders') {
        picked.internetMessageHeaders = m.headers
        continue
      }
      const key = byLower.get(lower)
      if (!key) throw graphError(400, 'RequestBroker--ParseUri', `Could not find a property named '${field}' on type 'microsoft.graph.message'.`)
      picked[key] = full[key]
    }
    return picked
  }

  // ---------- delta (B2) ----------

  private record(folderId: string, kind: ChangeEntry['kind'], key: string) {
    this.seq += 1
    this.log.push({ seq: this.seq, folderId, kind, key })
  }

  /** Starts a round: the initial sync (no token) or the changes since a delta token. Null: the token is gone (410). */
  startDeltaRound(options: DeltaOptions | undefined, deltaToken: string | undefined): SkipState | null {
    if (deltaToken !== undefined) {
      const token = this.deltaTokens.get(deltaToken)
      if (!token) return null
      return { options: token.options, items: this.changesSince(token.options, token.watermark), offset: 0, watermark: this.seq }
    }
    if (!options) return null
    const items = [...this.messages.values()]
      .filter((m) => m.folderId === options.folderId && matchesDate(options.dateFilters, m.receivedAt))
      .sort((a, b) => b.receivedAt - a.receivedAt)
      .map((m): DeltaItem => ({ key: m.immutableId, kind: 'created' }))
    return { options, items, offset: 0, watermark: this.seq }
  }

  continueDeltaRound(skipToken: string): SkipState | null {
    return this.skipTokens.get(skipToken) ?? null
  }

  private changesSince(options: DeltaOptions, watermark: number): DeltaItem[] {
    const touched = new Map<string, ChangeEntry[]>()
    for (const entry of this.log) {
      if (entry.seq <= watermark || entry.folderId !== options.folderId) continue
      const list = touched.get(entry.key) ?? []
      list.push(entry)
      touched.set(entry.key, list)
    }
    const items: DeltaItem[] = []
    for (const [key, entries] of touched) {
      const message = this.messages.get(key)
      if (!message || !matchesDate(options.dateFilters, message.receivedAt)) continue
      const kind: ChangeKind = message.folderId !== options.folderId ? 'deleted' : entries.some((e) => e.kind === 'added') ? 'created' : 'updated'
      if (options.changeTypes && !options.changeTypes.includes(kind)) continue
      items.push({ key, kind })
    }
    return items
  }

  /** One page of a round: its items and either a skip token (more pages) or the round's delta token. */
  deltaPage(state: SkipState, pageSize: number, immutable: boolean): { value: unknown[]; skipToken?: string; deltaToken?: string } {
    const slice = state.items.slice(state.offset, state.offset + pageSize)
    const value = slice.map((item) => {
      const message = this.messages.get(item.key)
      if (!message || item.kind === 'deleted' || message.folderId !== state.options.folderId) {
        return { '@odata.type': '#microsoft.graph.message', id: message ? this.messageId(message, immutable) : item.key, '@removed': { reason: 'deleted' } }
      }
      return { '@odata.type': '#microsoft.graph.message', ...this.renderMessage(message, state.options.select, immutable) }
    })
    const offset = state.offset + slice.length
    if (offset < state.items.length) {
      const skipToken = randomBytes(24).toString('base64url')
      this.skipTokens.set(skipToken, { ...state, offset })
      return { value, skipToken }
    }
    const deltaToken = randomBytes(24).toString('base64url')
    this.deltaTokens.set(deltaToken, { options: state.options, watermark: state.watermark })
    return { value, deltaToken }
  }

  /** What Exchange does when it evicts sync state: every outstanding delta and skip token answers 410. */
  expireDeltaTokens(): void {
    this.deltaTokens.clear()
    this.skipTokens.clear()
  }
}
