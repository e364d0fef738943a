// Small MIME helpers for the demo mailbox seed (seed.ts): just enough to rewrite text parts and
// headers of the stored messages without breaking their encodings. Not a general MIME library; the
// classifier has its own parser (src/classifier/message.ts), and postal-mime checks the output in tests.

const utf8 = new TextEncoder()
const utf8Decoder = new TextDecoder('utf-8')

const HEX = '0123456789ABCDEF'

/**
 * Quoted-printable (RFC 2045 6.7) of UTF-8 text. Line breaks in `text` (LF or CRLF) become hard line
 * breaks, joined with `\n`; lines are soft-wrapped at 76 characters without splitting an `=XX`
 * escape; trailing spaces and tabs are escaped.
 */
export function encodeQuotedPrintable(text: string): string {
  const out: string[] = []
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    const bytes = utf8.encode(line)
    const tokens: string[] = []
    bytes.forEach((b, i) => {
      const last = i === bytes.length - 1
      const literal = (b >= 33 && b <= 126 && b !== 61) || ((b === 32 || b === 9) && !last)
      tokens.push(literal ? String.fromCharCode(b) : '=' + HEX[b >> 4] + HEX[b & 15])
    })
    let current = ''
    for (const token of tokens) {
      // 75 characters plus the soft break "=" make the 76-character limit.
      if (current.length + token.length > 75) {
        out.push(current + '=')
        current = ''
      }
      current += token
    }
    out.push(current)
  }
  return out.join('\n')
}

/** Decodes quoted-printable text (UTF-8 assumed) into a string with `\n` line breaks. */
export function decodeQuotedPrintable(body: string): string {
  const joined = body.replace(/\r\n/g, '\n').replace(/[ \t]+$/gm, '').replace(/=\n/g, '')
  const bytes: number[] = []
  for (let i = 0; i < joined.length; i++) {
    const ch = joined[i] as string
    const hex = ch === '=' ? joined.slice(i + 1, i + 3) : ''
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16))
      i += 2
    } else {
      for (const b of utf8.encode(ch)) bytes.push(b)
    }
  }
  return utf8Decoder.decode(new Uint8Array(bytes))
}

/** Base64 of UTF-8 text (or of bytes), wrapped at 76 characters per line, lines joined with `\n`. */
export function encodeBase64(content: string | Uint8Array): string {
  const bytes = typeof content === 'string' ? utf8.encode(content.replace(/\r?\n/g, '\r\n')) : content
  const b64 = Buffer.from(bytes).toString('base64')
  return (b64.match(/.{1,76}/g) ?? []).join('\n')
}

/** Decodes a base64 body into UTF-8 text with `\n` line breaks. */
export function decodeBase64Text(body: string): string {
  return utf8Decoder.decode(Buffer.from(body.replace(/\s+/g, ''), 'base64')).replace(/\r\n/g, '\n')
}

/**
 * RFC 2047 encoded words for a header value. ASCII text is returned unchanged; otherwise the text is
 * cut (on character boundaries) into encoded words of at most 75 characters, separated by spaces.
 */
export function encodeHeaderWords(text: string, encoding: 'B' | 'Q' = 'B'): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text
  const words: string[] = []
  let chunk = ''
  const flush = () => {
    if (chunk) words.push(wrapWord(chunk, encoding))
    chunk = ''
  }
  for (const ch of text) {
    if (wrapWord(chunk + ch, encoding).length > 75) flush()
    chunk += ch
  }
  flush()
  return words.join(' ')
}

function wrapWord(text: string, encoding: 'B' | 'Q'): string {
  if (encoding === 'B') return `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`
  let q = ''
  for (const b of utf8.encode(text)) {
    if (b === 32) q += '_'
    else if ((b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || '!*+-/'.includes(String.fromCharCode(b))) q += String.fromCharCode(b)
    else q += '=' + HEX[b >> 4] + HEX[b & 15]
  }
  return `=?UTF-8?Q?${q}?=`
}

/** A display name for an address header: as is, quoted (RFC 5322 specials) or RFC 2047 encoded. */
export function formatDisplayName(name: string): string {
  const clean = name.replace(/[\r\n]+/g, ' ').trim()
  if (!/^[\x20-\x7e]*$/.test(clean)) return encodeHeaderWords(clean, 'B')
  if (/[()<>[\]:;@\\,."]/.test(clean)) return '"' + clean.replace(/["\\]/g, '\\$&') + '"'
  return clean
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** An RFC 2822 (5322 3.3) date-time in the given UTC offset, e.g. `Tue, 04 Mar 2025 09:14:27 +0100`. */
export function formatRfc2822Date(date: Date, offsetMinutes = 0): string {
  const local = new Date(date.getTime() + offsetMinutes * 60_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  return (
    `${DAYS[local.getUTCDay()]}, ${pad(local.getUTCDate())} ${MONTHS[local.getUTCMonth()]} ${local.getUTCFullYear()} ` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())} ` +
    `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`
  )
}

/** The UTC offset, in minutes, at the end of an RFC 2822 date (`+0100`, `-0500`); 0 when absent. */
export function parseDateOffset(value: string): number {
  const m = /([+-])(\d{2})(\d{2})\s*(?:\([^)]*\))?\s*$/.exec(value)
  if (!m) return 0
  const minutes = Number(m[2]) * 60 + Number(m[3])
  return m[1] === '-' ? -minutes : minutes
}
