import { randomBytes } from 'node:crypto'

/**
 * Just enough RFC 822 / MIME for the Gmail fake: header parsing (with unfolding and RFC 2047 words, for
 * search), the `payload` tree Gmail returns for `format=full|metadata`, a snippet, and a builder for test
 * and demo messages. Simplifications: attachments keep their data inline (Gmail would give an
 * `attachmentId` for large ones), and charsets other than UTF-8/ASCII are read as Latin-1.
 */

export interface Header {
  name: string
  value: string
}

export interface GmailMessagePart {
  partId: string
  mimeType: string
  filename: string
  headers: Header[]
  body: { size: number; data?: string }
  parts?: GmailMessagePart[]
}

function splitHeadAndBody(raw: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(raw)
  if (!match) return { head: raw, body: '' }
  return { head: raw.slice(0, match.index), body: raw.slice(match.index + match[0].length) }
}

export function parseHeaders(head: string): Header[] {
  const headers: Header[] = []
  for (const line of head.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && headers.length > 0) {
      // Folded continuation line (RFC 5322 §2.2.3).
      headers[headers.length - 1]!.value += ` ${line.trim()}`
      continue
    }
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    headers.push({ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() })
  }
  return headers
}

export function headerValue(headers: readonly Header[], name: string): string | undefined {
  const lower = name.toLowerCase()
  return headers.find((h) => h.name.toLowerCase() === lower)?.value
}

function decodeCharset(bytes: Buffer, charset: string | undefined): string {
  const cs = (charset ?? 'utf-8').toLowerCase()
  return cs === 'utf-8' || cs === 'utf8' || cs === 'us-ascii' ? bytes.toString('utf8') : bytes.toString('latin1')
}

/** Decodes RFC 2047 encoded words (`=?utf-8?B?…?=`, `=?utf-8?Q?…?=`) so search sees the real text. */
export function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=(\s+(?==\?))?/g, (_all, charset: string, encoding: string, text: string) => {
    const bytes =
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1')
    return decodeCharset(bytes, charset)
  })
}

function decodeQuotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\r?\n/g, '')
  const bytes: number[] = []
  for (let i = 0; i < joined.length; i++) {
    const ch = joined[i]!
    const hex = joined.slice(i + 1, i + 3)
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16))
      i += 2
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'))
    }
  }
  return Buffer.from(bytes)
}

function decodeBody(body: string, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64')
    case 'quoted-printable':
      return decodeQuotedPrintable(body)
    default:
      return Buffer.from(body, 'utf8')
  }
}

/** `text/plain; charset="utf-8"` → { type: 'text/plain', params: { charset: 'utf-8' } } */
function parseContentType(value: string | undefined): { type: string; params: Record<string, string> } {
  const [type = '', ...rest] = (value ?? 'text/plain').split(';')
  const params: Record<string, string> = {}
  for (const part of rest) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    params[part.slice(0, eq).trim().toLowerCase()] = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
  }
  return { type: type.trim().toLowerCase() || 'text/plain', params }
}

function filenameOf(headers: Header[], params: Record<string, string>): string {
  const disposition = headerValue(headers, 'Content-Disposition')
  const fromDisposition = disposition ? parseContentType(disposition).params.filename : undefined
  return decodeWords(fromDisposition ?? params.name ?? '')
}

function parsePart(raw: string, partId: string, depth: number): GmailMessagePart {
  const { head, body } = splitHeadAndBody(raw)
  const headers = parseHeaders(head)
  const { type, params } = parseContentType(headerValue(headers, 'Content-Type'))
  const part: GmailMessagePart = { partId, mimeType: type, filename: filenameOf(headers, params), headers, body: { size: 0 } }
  if (type.startsWith('multipart/') && params.boundary && depth < 10) {
    const delimiter = `--${params.boundary}`
    const sections = body.split(new RegExp(`\\r?\\n?${delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))
    // sections[0] is the preamble; a section starting with "--" is the closing delimiter's epilogue.
    const children = sections.slice(1).filter((s) => !s.startsWith('--'))
    part.parts = children.map((section, i) => parsePart(section.replace(/^[ \t]*\r?\n/, ''), partId === '' ? String(i) : `${partId}.${i}`, depth + 1))
    return part
  }
  const bytes = decodeBody(body, headerValue(headers, 'Content-Transfer-Encoding'))
  part.body = { size: bytes.length, data: bytes.toString('base64url') }
  return part
}

/** The `payload` of a Gmail message resource (`format=full`). */
export function parsePayload(raw: string): GmailMessagePart {
  return parsePart(raw, '', 0)
}

function firstText(part: GmailMessagePart, type: string): GmailMessagePart | undefined {
  if (part.mimeType === type && part.body.data !== undefined && !part.filename) return part
  for (const child of part.parts ?? []) {
    const found = firstText(child, type)
    if (found) return found
  }
  return undefined
}

/** Gmail's `snippet`: the start of the text, whitespace collapsed (about 200 characters). */
export function snippetOf(payload: GmailMessagePart): string {
  const plain = firstText(payload, 'text/plain')
  const html = plain ? undefined : firstText(payload, 'text/html')
  const part = plain ?? html
  if (!part?.body.data) return ''
  let text = decodeCharset(Buffer.from(part.body.data, 'base64url'), parseContentType(headerValue(part.headers, 'Content-Type')).params.charset)
  if (html) text = text.replace(/<style[\s\S]*?<\/style>/gi, ' ').replace(/<[^>]+>/g, ' ')
  text = text.replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'").replace(/&quot;/g, '"')
  return text.replace(/\s+/g, ' ').trim().slice(0, 200)
}

/** The decoded text of every text part, for full-text search. */
export function textOf(payload: GmailMessagePart): string {
  const out: string[] = []
  const walk = (part: GmailMessagePart) => {
    if (part.mimeType.startsWith('text/') && part.body.data) out.push(Buffer.from(part.body.data, 'base64url').toString('utf8'))
    for (const child of part.parts ?? []) walk(child)
  }
  walk(payload)
  return out.join('\n')
}

/** Addresses in an address-list header value, lower-cased (`"A" <a@x.com>, b@y.org` → both). */
export function addressesIn(value: string | undefined): string[] {
  if (!value) return []
  return [...decodeWords(value).matchAll(/[^\s<>,;:"()[\]]+@[^\s<>,;:"()[\]]+/g)].map((m) => m[0].toLowerCase().replace(/\.$/, ''))
}

export function splitMessage(raw: string): { headers: Header[]; body: string } {
  const { head, body } = splitHeadAndBody(raw)
  return { headers: parseHeaders(head), body }
}

export interface RawMessageInput {
  from: string
  to: string | string[]
  cc?: string | string[]
  subject: string
  /** Plain text body. */
  text?: string
  html?: string
  date?: Date
  messageId?: string
  inReplyTo?: string
  /** Extra headers, e.g. List-Unsubscribe. */
  headers?: Record<string, string>
}

/** Builds an RFC 822 message (CRLF line ends) for tests and the demo mailbox. */
export function buildRawMessage(input: RawMessageInput): string {
  const list = (v: string | string[]) => (Array.isArray(v) ? v.join(', ') : v)
  const domain = addressesIn(input.from)[0]?.split('@')[1] ?? 'example.com'
  const lines = [
    `From: ${input.from}`,
    `To: ${list(input.to)}`,
    ...(input.cc ? [`Cc: ${list(input.cc)}`] : []),
    `Subject: ${input.subject}`,
    `Date: ${(input.date ?? new Date()).toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: ${input.messageId ?? `<${randomBytes(8).toString('hex')}@${domain}>`}`,
    ...(input.inReplyTo ? [`In-Reply-To: ${input.inReplyTo}`, `References: ${input.inReplyTo}`] : []),
    'MIME-Version: 1.0',
    ...Object.entries(input.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
  ]
  const text = input.text ?? ''
  if (input.html === undefined) {
    lines.push('Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit', '', text)
    return lines.join('\r\n')
  }
  const boundary = `b_${randomBytes(6).toString('hex')}`
  lines.push(
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    text,
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    '',
    input.html,
    `--${boundary}--`,
    '',
  )
  return lines.join('\r\n')
}
