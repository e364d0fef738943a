import { invalidArgument } from './errors.ts'
import { addressesIn, decodeWords, headerValue, type Header } from './rfc822.ts'

/**
 * A subset of Gmail's search syntax (`q`), enough for what an app asks and what tests need
 * (providers.md A2, D2): `in:` (inbox, sent, spam, trash, anywhere, …), `is:` (unread, read, starred,
 * important), `label:`, `from:`, `to:` (To, Cc and Bcc), `cc:`, `subject:`, `after:`/`before:` (epoch
 * seconds or YYYY/MM/DD, read as UTC midnight where Gmail uses Pacific time), `newer_than:`/
 * `older_than:` (Nh, Nd, Nm, Ny), a leading `-` to negate, and free words (matched in the headers and
 * text, case-insensitive). Not supported: `OR`, `{…}`, parentheses, `has:`, `filename:`, `larger:`.
 */

export interface SearchableMessage {
  headers: readonly Header[]
  labelIds: ReadonlySet<string>
  internalDate: number
  /** Decoded text of the message (computed only for free-word searches). */
  text(): string
}

export interface SearchContext {
  now: number
  /** User label id for a name as written in `label:` (case-insensitive, "-" may stand for "/" or " "). */
  labelIdByName(name: string): string | undefined
}

type Predicate = (m: SearchableMessage) => boolean

export interface ParsedQuery {
  matches: Predicate
  /** Whether the query itself asks for spam/trash (`in:spam`, `in:trash`, `in:anywhere`). */
  includesSpamTrash: boolean
}

function tokenize(q: string): string[] {
  const tokens: string[] = []
  const re = /(-?[a-z_]+:"[^"]*"|-?"[^"]*"|\S+)/gi
  for (const match of q.matchAll(re)) tokens.push(match[0])
  return tokens
}

const unquote = (v: string) => v.replace(/^"(.*)"$/, '$1')

function parseDate(value: string): number {
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const m = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(value)
  if (!m) throw invalidArgument(`Invalid date in query: ${value}`)
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
}

function parseAge(value: string): number {
  const m = /^(\d+)([hdmy])$/i.exec(value)
  if (!m) throw invalidArgument(`Invalid relative date in query: ${value}`)
  const n = Number(m[1])
  const unit = { h: 3600_000, d: 86_400_000, m: 30 * 86_400_000, y: 365 * 86_400_000 }[m[2]!.toLowerCase() as 'h' | 'd' | 'm' | 'y']
  return n * unit
}

/** `to:a@x.com` matches that address; `to:@x.com` / `to:x.com` any address at x.com (or a subdomain); else a substring. */
function addressMatcher(value: string): (addresses: string[], raw: string) => boolean {
  const v = value.toLowerCase()
  if (v.startsWith('@') || (!v.includes('@') && v.includes('.'))) {
    const domain = v.replace(/^@/, '')
    return (addresses) => addresses.some((a) => a.endsWith(`@${domain}`) || a.endsWith(`.${domain}`))
  }
  if (v.includes('@')) return (addresses) => addresses.includes(v)
  return (addresses, raw) => addresses.some((a) => a.includes(v)) || raw.toLowerCase().includes(v)
}

const SYSTEM_IN: Record<string, string> = {
  inbox: 'INBOX',
  sent: 'SENT',
  spam: 'SPAM',
  trash: 'TRASH',
  drafts: 'DRAFT',
  draft: 'DRAFT',
  starred: 'STARRED',
  important: 'IMPORTANT',
  chats: 'CHAT',
}

export function parseQuery(q: string | undefined, ctx: SearchContext): ParsedQuery {
  const predicates: Predicate[] = []
  let includesSpamTrash = false
  for (const token of tokenize(q ?? '')) {
    const negate = token.startsWith('-') && token.length > 1
    const body = negate ? token.slice(1) : token
    const colon = body.indexOf(':')
    const key = colon > 0 && !body.startsWith('"') ? body.slice(0, colon).toLowerCase() : ''
    const value = unquote(key ? body.slice(colon + 1) : body)
    let p: Predicate
    switch (key) {
      case 'in': {
        const v = value.toLowerCase()
        if (v === 'anywhere') {
          includesSpamTrash = true
          p = () => true
          break
        }
        if (v === 'spam' || v === 'trash') includesSpamTrash = true
        const label = SYSTEM_IN[v] ?? ctx.labelIdByName(value)
        p = (m) => label !== undefined && m.labelIds.has(label)
        break
      }
      case 'is': {
        const v = value.toLowerCase()
        if (v === 'read') p = (m) => !m.labelIds.has('UNREAD')
        else {
          const label = { unread: 'UNREAD', starred: 'STARRED', important: 'IMPORTANT' }[v]
          if (!label) throw invalidArgument(`Unsupported search operator is:${value}`)
          p = (m) => m.labelIds.has(label)
        }
        break
      }
      case 'label': {
        const v = value.toLowerCase()
        const label = SYSTEM_IN[v] ?? (v.startsWith('category_') ? v.toUpperCase() : undefined) ?? ctx.labelIdByName(value)
        p = (m) => label !== undefined && m.labelIds.has(label)
        break
      }
      case 'from': {
        const match = addressMatcher(value)
        p = (m) => {
          const raw = headerValue(m.headers, 'From') ?? ''
          return match(addressesIn(raw), decodeWords(raw))
        }
        break
      }
      case 'to':
      case 'cc':
      case 'bcc': {
        const match = addressMatcher(value)
        const names = key === 'to' ? ['To', 'Cc', 'Bcc'] : [key === 'cc' ? 'Cc' : 'Bcc']
        p = (m) => {
          const raw = names.map((n) => headerValue(m.headers, n) ?? '').join(', ')
          return match(addressesIn(raw), decodeWords(raw))
        }
        break
      }
      case 'subject': {
        const v = value.toLowerCase()
        p = (m) => decodeWords(headerValue(m.headers, 'Subject') ?? '').toLowerCase().includes(v)
        break
      }
      case 'after': {
        const t = parseDate(value)
        p = (m) => m.internalDate >= t
        break
      }
      case 'before': {
        const t = parseDate(value)
        p = (m) => m.internalDate < t
        break
      }
      case 'newer_than': {
        const age = parseAge(value)
        p = (m) => m.internalDate >= ctx.now - age
        break
      }
      case 'older_than': {
        const age = parseAge(value)
        p = (m) => m.internalDate < ctx.now - age
        break
      }
      default: {
        const v = (key ? body : value).toLowerCase()
        p = (m) =>
          m.headers.some((h) => ['from', 'to', 'cc', 'subject'].includes(h.name.toLowerCase()) && decodeWords(h.value).toLowerCase().includes(v)) ||
          m.text().toLowerCase().includes(v)
      }
    }
    predicates.push(negate ? (m) => !p(m) : p)
  }
  return { matches: (m) => predicates.every((p) => p(m)), includesSpamTrash }
}
