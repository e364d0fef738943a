// The normalised message the classifier works on, and a fast parser from raw RFC 822 text.
// The parser is deliberately small and forgiving: it only extracts what classification needs
// (headers, addresses, subject, a plain-text body) and caps the body so one huge message cannot
// stall a mailbox. See docs/classifier.md ("Message").

import { htmlToText } from './html.ts'

export interface Address {
  address: string
  name: string
}

export interface NormalisedMessage {
  messageId: string
  from: Address | null
  replyTo: Address[]
  to: Address[]
  cc: Address[]
  subject: string
  /** ISO 8601, or '' when the Date header is missing or unreadable. */
  date: string
  /** Every header, names lower-cased, values unfolded and decoded, in message order. */
  headers: Record<string, string[]>
  /** Text body, HTML reduced to text, at most MAX_TEXT characters. */
  text: string
  /** True when the body had an HTML part. */
  hasHtml: boolean
  /** Number of links seen in the HTML/text body. */
  linkCount: number
  /** Number of attachments (parts with a file name or attachment disposition). */
  attachmentCount: number
  /** True when the message carries a calendar invitation or update (text/calendar part). */
  calendar?: boolean
}

export class MalformedMessageError extends Error {
  override name = 'MalformedMessageError'
}

/** Only the start of a body matters for classification; the rest costs time and memory. */
export const MAX_TEXT = 12_000
const MAX_PART_BYTES = 200_000
const MAX_DEPTH = 6
/** A plain alternative shorter than this beside an HTML part is a stub ("view in your browser"). */
const STUB_PLAIN_CHARS = 400

/** /^[!-9;-~]+$/ (printable ASCII except ':'), as a loop: it runs for every header line. */
function isHeaderName(s: string): boolean {
  if (s.length === 0) return false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 33 || c > 126 || c === 58) return false
  }
  return true
}

interface RawPart {
  headers: Record<string, string[]>
  body: string
}

function splitHeaderBlock(raw: string, strict: boolean): RawPart {
  let headerEnd = raw.indexOf('\n\n')
  let bodyStart = headerEnd + 2
  if (headerEnd === -1) {
    headerEnd = raw.length
    bodyStart = raw.length
  }
  const headers: Record<string, string[]> = Object.create(null) as Record<string, string[]>
  const block = raw.slice(0, headerEnd)
  let name = ''
  let value = ''
  let count = 0
  const flush = () => {
    if (!name) return
    const list = headers[name]
    const v = value.trim()
    if (list) list.push(v)
    else headers[name] = [v]
    count++
  }
  // Line by line through the block, by offsets (no array of lines, no substring per line).
  for (let start = 0; start < block.length; ) {
    let end = block.indexOf('\n', start)
    if (end === -1) end = block.length
    const lineStart = start
    start = end + 1
    if (end === lineStart) continue
    const c = block.charCodeAt(lineStart)
    if ((c === 32 || c === 9) && name) {
      value += ' ' + block.slice(lineStart, end).trim()
      continue
    }
    let colon = block.indexOf(':', lineStart)
    if (colon >= end) colon = -1
    const candidate = colon > lineStart ? block.slice(lineStart, colon).trim() : ''
    if (colon <= lineStart || !isHeaderName(candidate)) {
      if (strict && count === 0 && lineStart === 0) throw new MalformedMessageError('The message does not start with a header line.')
      // A stray line inside the header block: treat the rest as body, as mail clients do.
      flush()
      name = ''
      const rest = block.slice(lineStart)
      return { headers, body: rest + (bodyStart < raw.length ? '\n\n' + raw.slice(bodyStart) : '') }
    }
    flush()
    name = candidate.toLowerCase()
    value = block.slice(colon + 1, end)
  }
  flush()
  if (strict && count === 0) throw new MalformedMessageError('The message has no headers.')
  return { headers, body: raw.slice(bodyStart) }
}

function first(headers: Record<string, string[]>, name: string): string {
  const list = headers[name]
  return list && list.length > 0 ? (list[0] as string) : ''
}

/** Parses `type/subtype; a=b; c="d"` into the lower-cased type and its parameters. */
export function parseContentType(value: string): { type: string; params: Record<string, string> } {
  const semi = value.indexOf(';')
  const type = (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase()
  const params: Record<string, string> = {}
  if (semi !== -1) {
    const re = /([a-zA-Z0-9_*.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/g
    const rest = value.slice(semi + 1)
    let m: RegExpExecArray | null
    while ((m = re.exec(rest)) !== null) {
      params[(m[1] as string).toLowerCase()] = m[2] ?? m[3] ?? ''
    }
  }
  return { type: type || 'text/plain', params }
}

const decoders = new Map<string, TextDecoder | null>()

function decoderFor(charset: string): TextDecoder | null {
  let label = charset.trim().toLowerCase()
  if (label === '' || label === 'us-ascii' || label === 'ascii') label = 'windows-1252'
  if (label === 'utf8') label = 'utf-8'
  let d = decoders.get(label)
  if (d === undefined) {
    try {
      d = new TextDecoder(label)
    } catch {
      d = null
    }
    decoders.set(label, d)
  }
  return d
}

function decodeBytes(bytes: Uint8Array, charset: string): string {
  const d = decoderFor(charset) ?? decoderFor('windows-1252')
  return (d as TextDecoder).decode(bytes)
}

// eslint-disable-next-line no-control-regex
const NON_LATIN1 = /[^\u0000-\u00ff]/
const HIGH_BYTE = /[\u0080-\u00ff]/

/**
 * Raw text arrives either as a "binary string" (one char per byte, as the CLI reads files) or as
 * already-decoded text (as some APIs hand it over). 8-bit bodies are re-decoded only in the first case.
 */
function decodeEightBit(s: string, charset: string): string {
  if (!HIGH_BYTE.test(s) || NON_LATIN1.test(s)) return s
  return decodeBytes(Buffer.from(s, 'latin1'), charset || 'utf-8')
}

function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48
  if (c >= 65 && c <= 70) return c - 55
  if (c >= 97 && c <= 102) return c - 87
  return -1
}

function decodeQuotedPrintableBytes(s: string, underscoreIsSpace = false): Uint8Array {
  const out = new Uint8Array(s.length * 3)
  let o = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === 61 /* = */) {
      const a = s.charCodeAt(i + 1)
      if (a === 10) {
        i += 1
        continue
      }
      if (a === 13 && s.charCodeAt(i + 2) === 10) {
        i += 2
        continue
      }
      const h = hexVal(a)
      const l = hexVal(s.charCodeAt(i + 2))
      if (h >= 0 && l >= 0) {
        out[o++] = h * 16 + l
        i += 2
        continue
      }
      out[o++] = 61
    } else if (underscoreIsSpace && c === 95) {
      out[o++] = 32
    } else if (c < 256) {
      out[o++] = c
    } else {
      const enc = Buffer.from(String.fromCharCode(c), 'utf8')
      for (const b of enc) out[o++] = b
    }
  }
  return out.subarray(0, o)
}

function decodeTransfer(body: string, encoding: string, charset: string): string {
  const enc = encoding.trim().toLowerCase()
  if (enc === 'base64') {
    return decodeBytes(Buffer.from(body, 'base64'), charset)
  }
  if (enc === 'quoted-printable') {
    // Characters above U+00FF (already-decoded input) are re-encoded as UTF-8 bytes on the way.
    return decodeBytes(decodeQuotedPrintableBytes(body), charset)
  }
  return decodeEightBit(body, charset)
}

const ENCODED_WORD = /=\?([^?\s]+)\?([bBqQ])\?([^?]*)\?=/g

/** Decodes RFC 2047 encoded words (`=?utf-8?B?...?=`) in a header value. */
export function decodeHeaderValue(value: string): string {
  if (value.indexOf('=?') === -1) return decodeEightBit(value, 'utf-8')
  const joined = value.replace(/\?=\s+=\?/g, '?==?')
  return joined.replace(ENCODED_WORD, (_m, charset: string, kind: string, text: string) => {
    const cs = charset.split('*')[0] as string
    try {
      if (kind === 'b' || kind === 'B') return decodeBytes(Buffer.from(text, 'base64'), cs)
      return decodeBytes(decodeQuotedPrintableBytes(text, true), cs)
    } catch {
      return text
    }
  })
}

const ADDRESS_RE = /[^\s<>,;:"'()[\]]+@[^\s<>,;:"'()[\]]+\.[^\s<>,;:"'()[\]]+/

/** Parses a list of addresses (`"A" <a@x>, b@y (B)`) leniently; entries without an @ are dropped. */
export function parseAddressList(value: string): Address[] {
  if (!value) return []
  const out: Address[] = []
  // Split on commas outside quotes and angle brackets.
  let depthQuote = false
  let depthAngle = 0
  let start = 0
  const parts: string[] = []
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i) // '"' 34, '<' 60, '>' 62, ',' 44, ';' 59
    if (c === 34) depthQuote = !depthQuote
    else if (!depthQuote && c === 60) depthAngle++
    else if (!depthQuote && c === 62) depthAngle = Math.max(0, depthAngle - 1)
    else if (!depthQuote && depthAngle === 0 && (c === 44 || c === 59)) {
      parts.push(value.slice(start, i))
      start = i + 1
    }
  }
  parts.push(value.slice(start))
  for (const part of parts) {
    const lt = part.indexOf('<')
    const gt = part.indexOf('>', lt + 1)
    let address = ''
    let name = ''
    if (lt !== -1 && gt !== -1) {
      address = part.slice(lt + 1, gt).trim()
      name = part.slice(0, lt).trim()
    } else {
      const m = ADDRESS_RE.exec(part)
      if (m) {
        address = m[0]
        const paren = /\(([^)]*)\)/.exec(part)
        name = paren ? (paren[1] as string) : ''
      }
    }
    if (address.indexOf('@') === -1) continue
    name = name.replace(/^"+|"+$/g, '').replace(/\\"/g, '"').trim()
    out.push({ address: address.toLowerCase(), name })
  }
  return out
}

interface BodyAcc {
  calendar: boolean
  plain: string[]
  hasHtml: boolean
  attachments: number
  linkCount: number
  size: number
}

function walk(part: RawPart, acc: BodyAcc, depth: number): void {
  const ct = parseContentType(first(part.headers, 'content-type') || 'text/plain')
  const disposition = first(part.headers, 'content-disposition').toLowerCase()
  if (ct.type.startsWith('multipart/') && depth < MAX_DEPTH) {
    const boundary = ct.params['boundary']
    if (!boundary) {
      acc.plain.push(part.body.slice(0, MAX_PART_BYTES))
      return
    }
    const delimiter = '--' + boundary
    let pos = part.body.indexOf(delimiter)
    if (pos === -1) {
      acc.plain.push(part.body.slice(0, MAX_PART_BYTES))
      return
    }
    const children: RawPart[] = []
    while (pos !== -1) {
      const lineEnd = part.body.indexOf('\n', pos)
      if (part.body.startsWith('--', pos + delimiter.length)) break
      if (lineEnd === -1) break
      const next = part.body.indexOf('\n' + delimiter, lineEnd)
      const chunk = part.body.slice(lineEnd + 1, next === -1 ? part.body.length : next)
      children.push(splitHeaderBlock(chunk, false))
      pos = next === -1 ? -1 : next + 1
      if (children.length > 50) break
    }
    if (ct.type === 'multipart/alternative') {
      // Prefer the plain-text alternative; fall back to the richest other part.
      const plain = children.find((c) => parseContentType(first(c.headers, 'content-type') || 'text/plain').type === 'text/plain')
      for (const c of children) {
        const t = parseContentType(first(c.headers, 'content-type') || 'text/plain').type
        if (t === 'text/calendar' || t === 'application/ics') acc.calendar = true
        if (t === 'text/html') acc.hasHtml = true
        if (t === 'text/html') acc.linkCount += countLinks(c.body)
      }
      const html = children.find((c) => parseContentType(first(c.headers, 'content-type') || 'text/plain').type === 'text/html')
      // A stub plain part ("view this e-mail in your browser") says less than the HTML beside it.
      if (plain && (!html || plain.body.trim().length >= STUB_PLAIN_CHARS)) walk(plain, acc, depth + 1)
      else if (html) walk(html, acc, depth + 1)
      else for (const c of children) walk(c, acc, depth + 1)
      return
    }
    for (const c of children) walk(c, acc, depth + 1)
    return
  }
  const isAttachment =
    disposition.startsWith('attachment') || /filename|name=/.test(disposition) || ct.params['name'] !== undefined
  if (isAttachment && !(ct.type.startsWith('text/') && !disposition.startsWith('attachment'))) {
    acc.attachments++
    return
  }
  if (ct.type === 'text/calendar' || ct.type === 'application/ics') {
    // An invitation's machine-readable part: note it, do not read it as prose.
    acc.calendar = true
    return
  }
  if (ct.type === 'message/rfc822' && depth < MAX_DEPTH) {
    walk(splitHeaderBlock(part.body, false), acc, depth + 1)
    return
  }
  if (!ct.type.startsWith('text/')) {
    acc.attachments++
    return
  }
  if (acc.size > MAX_TEXT) return
  const raw = part.body.length > MAX_PART_BYTES ? part.body.slice(0, MAX_PART_BYTES) : part.body
  const charset = ct.params['charset'] ?? ''
  let text: string
  try {
    text = decodeTransfer(raw, first(part.headers, 'content-transfer-encoding'), charset)
  } catch {
    text = raw
  }
  if (ct.type === 'text/html') {
    acc.hasHtml = true
    acc.linkCount += countLinks(text)
    text = htmlToText(text)
  } else {
    acc.linkCount += countUrls(text)
  }
  acc.size += text.length
  acc.plain.push(text)
}

function countLinks(html: string): number {
  let n = 0
  let i = html.indexOf('href')
  while (i !== -1 && n < 1000) {
    n++
    i = html.indexOf('href', i + 4)
  }
  return n
}

function countUrls(text: string): number {
  let n = 0
  let i = text.indexOf('http')
  while (i !== -1 && n < 1000) {
    if (text.startsWith('://', i + 4) || text.startsWith('s://', i + 4)) n++
    i = text.indexOf('http', i + 4)
  }
  return n
}

function toIsoDate(value: string): string {
  if (!value) return ''
  // A trailing comment ("(CEST)") is dropped first; without a '(' there is none.
  const t = Date.parse(value.indexOf('(') === -1 ? value : value.replace(/\s*\([^)]*\)\s*$/, ''))
  return Number.isNaN(t) ? '' : new Date(t).toISOString()
}

/**
 * Parses raw RFC 822 text (optionally starting with an mbox `From ` line) into a NormalisedMessage.
 * Throws MalformedMessageError when the text has no header block at all.
 */
export function parseRawMessage(input: string): NormalisedMessage {
  let raw = input
  if (raw.indexOf('\r') !== -1) raw = raw.replace(/\r\n?/g, '\n')
  if (raw.startsWith('From ')) {
    const nl = raw.indexOf('\n')
    raw = nl === -1 ? '' : raw.slice(nl + 1)
  }
  // Leading blank lines occur in hand-exported files; they do not make a message malformed.
  let lead = 0
  while (raw.charCodeAt(lead) === 10) lead++
  if (lead > 0) raw = raw.slice(lead)
  if (raw.trim().length === 0) throw new MalformedMessageError('The message is empty.')
  const top = splitHeaderBlock(raw, true)
  const h = top.headers
  for (const key of ['subject', 'from', 'to', 'cc', 'reply-to']) {
    const list = h[key]
    if (list) h[key] = list.map(decodeHeaderValue)
  }
  const fromList = parseAddressList(first(h, 'from'))
  const acc: BodyAcc = { calendar: false, plain: [], hasHtml: false, attachments: 0, linkCount: 0, size: 0 }
  walk(top, acc, 0)
  let text = acc.plain.join('\n')
  if (text.length > MAX_TEXT) text = text.slice(0, MAX_TEXT)
  return {
    messageId: first(h, 'message-id').replace(/^<|>$/g, ''),
    from: fromList[0] ?? null,
    replyTo: parseAddressList(first(h, 'reply-to')),
    to: parseAddressList((h['to'] ?? []).join(', ')),
    cc: parseAddressList((h['cc'] ?? []).join(', ')),
    subject: first(h, 'subject'),
    date: toIsoDate(first(h, 'date')),
    headers: h,
    text,
    hasHtml: acc.hasHtml,
    linkCount: acc.linkCount,
    attachmentCount: acc.attachments,
    calendar: acc.calendar,
  }
}

/** Domain part of an address, lower-cased ('' when there is none). */
export function domainOf(address: string): string {
  const at = address.lastIndexOf('@')
  if (at === -1) return ''
  const d = address.slice(at + 1).toLowerCase()
  const c = d.charCodeAt(d.length - 1)
  return c === 62 || c === 46 || c === 32 || c === 9 || c === 10 ? d.replace(/[>.\s]+$/, '') : d
}
