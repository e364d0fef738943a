// The demo mailbox: a few dozen stored RFC 822 messages (messages/*.eml, and messages/sent/*.eml
// written by the owner) that a newly connected demo Gmail or Outlook mailbox already holds.
//
// The files are templates. loadDemoMailbox() fills them for one owner and one moment:
//   {{me}}         the owner's address          {{me_name}}   the owner's display name
//   {{me_first}}   the first word of the name   {{me_domain}} the domain of the owner's address
//   {{when:DAYS[@HH:MM]:FORMAT[:STYLE]}}  a moment relative to `now` (DAYS may be fractional and
//       negative), optionally moved to HH:MM on that day in the sender's time zone (the offset of
//       the message's Date header). FORMAT is `ical` (UTC, 20250314T093000Z) or a BCP 47 locale;
//       STYLE is `long` (Thursday 14 March, the default), `short` (Thu, 14 Mar 2025),
//       `datetime` (short plus the time) or `numeric` (14/03/2025).
// Values are encoded for where they land: RFC 2047 words or quoted strings in headers, HTML escapes
// in HTML parts; quoted-printable and base64 parts are decoded, filled and encoded again. The Date
// header becomes `now - daysAgo` (from manifest.json) in the sender's own UTC offset.
//
// manifest.json says, for every file, what a careful person would call it (`expected`), its
// language and its age. It is for the demo only, never training or evaluation data.

import { readFileSync } from 'node:fs'
import path from 'node:path'
import { domainToASCII } from 'node:url'
import { z } from 'zod'
import { CATEGORIES, type Category } from '#classifier/types.ts'
import {
  decodeBase64Text,
  decodeQuotedPrintable,
  encodeBase64,
  encodeHeaderWords,
  encodeQuotedPrintable,
  formatDisplayName,
  formatRfc2822Date,
  parseDateOffset,
} from './mime.ts'

export const MAIL_SEED_DIR = import.meta.dirname
export const MESSAGES_DIR = path.join(MAIL_SEED_DIR, 'messages')

const manifestEntrySchema = z.object({
  file: z.string().regex(/^(sent\/)?[a-z0-9][a-z0-9-]*\.eml$/),
  expected: z.enum(CATEGORIES),
  language: z.string().regex(/^[a-z]{2}$/),
  daysAgo: z.number().min(0).max(20),
  folder: z.enum(['inbox', 'sent']).optional(),
})

export type ManifestEntry = z.infer<typeof manifestEntrySchema>

export interface DemoOwner {
  address: string
  name: string
}

export interface DemoMessage {
  /** Path relative to messages/, e.g. `harbourline-order-receipt.eml` or `sent/roadmap-draft.eml`. */
  file: string
  /** The filled message, CRLF line endings. */
  raw: string
  folder: 'inbox' | 'sent'
  receivedAt: Date
  expected: Category
}

const DAY_MS = 86_400_000

/** Reads and validates manifest.json. */
export function readManifest(): ManifestEntry[] {
  const text = readFileSync(path.join(MAIL_SEED_DIR, 'manifest.json'), 'utf8')
  return z.array(manifestEntrySchema).parse(JSON.parse(text))
}

/** The demo mailbox for `owner`, as it would look at `now`: every message filled in, oldest first. */
export function loadDemoMailbox(owner: DemoOwner, now = new Date()): DemoMessage[] {
  const messages = readManifest().map((entry): DemoMessage => {
    const template = readFileSync(path.join(MESSAGES_DIR, entry.file), 'utf8')
    const receivedAt = new Date(now.getTime() - Math.round(entry.daysAgo * DAY_MS))
    return {
      file: entry.file,
      raw: fillMessage(template, owner, now, receivedAt),
      folder: entry.folder ?? 'inbox',
      receivedAt,
      expected: entry.expected,
    }
  })
  return messages.sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime() || a.file.localeCompare(b.file))
}

interface FillContext {
  values: Record<'me' | 'me_name' | 'me_first' | 'me_domain', string>
  now: Date
  /** The sender's UTC offset in minutes (from the template's Date header). */
  offset: number
}

/** Fills one template: placeholders everywhere, and a new top-level Date header. CRLF output. */
export function fillMessage(template: string, owner: DemoOwner, now: Date, receivedAt: Date): string {
  const text = template.replace(/\r\n?/g, '\n')
  const { headers, body, separator } = splitEntity(text)
  const dateHeader = /^date:(.*(?:\n[ \t].*)*)/im.exec(headers)
  const offset = parseDateOffset(dateHeader?.[1]?.trim() ?? '')
  const name = owner.name.trim()
  const ctx: FillContext = {
    values: {
      me: owner.address,
      me_name: name,
      me_first: name.split(/\s+/)[0] || owner.address.split('@')[0] || '',
      me_domain: domainToASCII(owner.address.split('@').pop() ?? '') || (owner.address.split('@').pop() ?? ''),
    },
    now,
    offset,
  }
  const date = `Date: ${formatRfc2822Date(receivedAt, offset)}`
  const dated = dateHeader ? headers.replace(dateHeader[0], date) : `${date}\n${headers}`
  const filled = fillEntity(dated + separator + body, ctx)
  return filled.replace(/\n/g, '\r\n')
}

function splitEntity(entity: string): { headers: string; body: string; separator: string } {
  const at = entity.indexOf('\n\n')
  if (at === -1) return { headers: entity, body: '', separator: '' }
  return { headers: entity.slice(0, at), body: entity.slice(at + 2), separator: '\n\n' }
}

function headerValue(headers: string, name: string): string {
  const m = new RegExp(`^${name}:(.*(?:\\n[ \\t].*)*)`, 'im').exec(headers)
  return (m?.[1] ?? '').replace(/\n[ \t]+/g, ' ').trim()
}

const ADDRESS_HEADERS = new Set(['from', 'to', 'cc', 'bcc', 'reply-to', 'sender', 'delivered-to', 'return-path'])

/** One MIME entity (headers, blank line, body), recursively for multiparts. */
function fillEntity(entity: string, ctx: FillContext): string {
  const split = splitEntity(entity)
  let headers = fillHeaders(split.headers, ctx)
  const { body, separator } = split
  const contentType = headerValue(headers, 'content-type').toLowerCase()
  const mediaType = contentType.split(';')[0]?.trim() || 'text/plain'

  if (mediaType.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(headerValue(headers, 'content-type'))?.[1]
    if (!boundary) return headers + separator + body
    const delimiter = `--${boundary}`
    // Lines before the first delimiter are the preamble; lines after the closing one, the
    // epilogue. Both stay as they are; every part in between is filled like a message.
    const out: string[] = []
    let part: string[] | null = null
    let closed = false
    for (const line of body.split('\n')) {
      const isDelimiter = !closed && (line === delimiter || line === `${delimiter}--`)
      if (!isDelimiter) {
        if (part) part.push(line)
        else out.push(line)
        continue
      }
      if (part) out.push(...fillEntity(part.join('\n'), ctx).split('\n'))
      out.push(line)
      closed = line !== delimiter
      part = closed ? null : []
    }
    if (part) out.push(...fillEntity(part.join('\n'), ctx).split('\n'))
    return headers + separator + out.join('\n')
  }

  if (!mediaType.startsWith('text/')) return headers + separator + body
  const kind = mediaType === 'text/html' ? 'html' : mediaType === 'text/calendar' ? 'calendar' : 'text'
  const cte = headerValue(headers, 'content-transfer-encoding').toLowerCase()
  if (cte === 'base64') {
    const decoded = decodeBase64Text(body)
    const filled = fillText(decoded, ctx, kind)
    return headers + separator + (filled === decoded ? body : encodeBase64(filled) + (body.endsWith('\n') ? '\n' : ''))
  }
  if (cte === 'quoted-printable') {
    const decoded = decodeQuotedPrintable(body)
    const filled = fillText(decoded, ctx, kind)
    return headers + separator + (filled === decoded ? body : encodeQuotedPrintable(filled))
  }
  const filled = fillText(body, ctx, kind)
  if (filled !== body && /[^\p{ASCII}]/u.test(filled) && (cte === '' || cte === '7bit')) {
    // Non-ASCII owner details in a 7-bit part: say so, and make sure the charset can carry them.
    headers = setHeader(headers, 'Content-Transfer-Encoding', '8bit')
    if (!/charset="?utf-8/i.test(contentType)) {
      const base = headerValue(headers, 'content-type').replace(/;\s*charset="?[^";]*"?/i, '') || 'text/plain'
      headers = setHeader(headers, 'Content-Type', `${base}; charset=utf-8`)
    }
  }
  return headers + separator + filled
}

function setHeader(headers: string, name: string, value: string): string {
  const re = new RegExp(`^${name}:.*(?:\\n[ \\t].*)*`, 'im')
  return re.test(headers) ? headers.replace(re, `${name}: ${value}`) : `${headers}\n${name}: ${value}`
}

const PLACEHOLDER = /\{\{([^{}]+)\}\}/g

function fillHeaders(headers: string, ctx: FillContext): string {
  if (!headers.includes('{{')) return headers
  // Work on logical (unfolded) header lines, so a placeholder is seen with its header name.
  const logical = headers.split(/\n(?![ \t])/)
  return logical
    .map((line) => {
      if (!line.includes('{{')) return line
      const name = line.slice(0, line.indexOf(':')).trim().toLowerCase()
      const address = ADDRESS_HEADERS.has(name)
      const filled = line.replace(PLACEHOLDER, (_, key: string) => {
        const value = resolve(key, ctx)
        if (address && key === 'me_name') return formatDisplayName(value)
        if (key === 'me') return asciiAddress(value)
        return encodeHeaderWords(value)
      })
      // An owner without a display name leaves "To:  <me@…>"; close the gap.
      return address ? filled.replace(/([:,])[ \t]{2,}</g, '$1 <') : filled
    })
    .join('\n')
}

/** An address as it may stand in a header: the domain in its ASCII (punycode) form. */
function asciiAddress(address: string): string {
  const at = address.lastIndexOf('@')
  if (at === -1) return address
  return address.slice(0, at + 1) + (domainToASCII(address.slice(at + 1)) || address.slice(at + 1))
}

function fillText(text: string, ctx: FillContext, kind: 'text' | 'html' | 'calendar'): string {
  if (!text.includes('{{')) return text
  return text.replace(PLACEHOLDER, (_, key: string) => {
    const value = resolve(key, ctx)
    if (kind === 'html') return escapeHtml(value)
    if (kind === 'calendar') return value.replace(/["\r\n]/g, '')
    return value
  })
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function resolve(key: string, ctx: FillContext): string {
  if (key in ctx.values) return ctx.values[key as keyof FillContext['values']]
  if (key.startsWith('when:')) return formatWhen(key, ctx)
  throw new Error(`Unknown placeholder {{${key}}} in a demo mailbox message`)
}

const WHEN = /^when:([+-]?\d+(?:\.\d+)?)(?:@(\d{2}):(\d{2}))?:(ical|[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)(?::(long|short|datetime|numeric))?$/

/** `when:DAYS[@HH:MM]:FORMAT[:STYLE]`, see the top of this file. */
function formatWhen(key: string, ctx: FillContext): string {
  const m = WHEN.exec(key)
  if (!m) throw new Error(`Malformed placeholder {{${key}}} in a demo mailbox message`)
  const [, days, hh, mm, format, style = 'long'] = m
  let at = ctx.now.getTime() + Math.round(Number(days) * DAY_MS)
  const offsetMs = ctx.offset * 60_000
  if (hh !== undefined && mm !== undefined) {
    const localMidnight = Math.floor((at + offsetMs) / DAY_MS) * DAY_MS
    at = localMidnight + (Number(hh) * 60 + Number(mm)) * 60_000 - offsetMs
  }
  if (format === 'ical') return new Date(at).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
  // Formatting the shifted instant in UTC shows the sender's wall-clock time.
  const local = new Date(at + offsetMs)
  const options: Intl.DateTimeFormatOptions =
    style === 'short'
      ? { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }
      : style === 'datetime'
        ? { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false }
        : style === 'numeric'
          ? { day: '2-digit', month: '2-digit', year: 'numeric' }
          : { weekday: 'long', day: 'numeric', month: 'long' }
  return new Intl.DateTimeFormat(format, { ...options, timeZone: 'UTC' }).format(local)
}
