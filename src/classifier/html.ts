// HTML → plain text, good enough for classification (not for display): drops head/style/script,
// turns block ends into line breaks, strips tags and decodes the common entities.

const NAMED: Record<string, string> = {
  nbsp: ' ',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
  euro: '€',
  pound: '£',
  yen: '¥',
  middot: '·',
  bull: '•',
  zwnj: '',
  zwj: '',
  shy: '',
  auml: 'ä',
  ouml: 'ö',
  uuml: 'ü',
  Auml: 'Ä',
  Ouml: 'Ö',
  Uuml: 'Ü',
  szlig: 'ß',
  eacute: 'é',
  egrave: 'è',
  agrave: 'à',
  aacute: 'á',
  ccedil: 'ç',
  ntilde: 'ñ',
  oacute: 'ó',
  iacute: 'í',
  uacute: 'ú',
  atilde: 'ã',
  otilde: 'õ',
}

export function decodeEntities(s: string): string {
  if (s.indexOf('&') === -1) return s
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, body: string) => {
    if (body.charCodeAt(0) === 35) {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10)
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff) return ''
      if (code === 0x200c || code === 0x200b || code === 0x34f || code === 0xad) return ''
      return String.fromCodePoint(code)
    }
    return NAMED[body] ?? m
  })
}

const DROP_BLOCKS = /<(head|style|script|title)\b[^>]*>[\s\S]*?<\/\1\s*>/gi
const COMMENTS = /<!--[\s\S]*?-->/g
const BREAKS = /<(?:br|\/p|\/div|\/tr|\/h[1-6]|\/li|\/table|hr)\b[^>]*>/gi
const CELLS = /<\/t[dh]\s*>/gi
const TAGS = /<[^>]*>/g

export function htmlToText(html: string): string {
  let s = html
  if (s.length > 400_000) s = s.slice(0, 400_000)
  s = s.replace(COMMENTS, ' ').replace(DROP_BLOCKS, ' ')
  s = s.replace(BREAKS, '\n').replace(CELLS, ' ').replace(TAGS, ' ')
  s = decodeEntities(s)
  // Invisible preheader padding (zero-width and combining characters) carries no meaning.
  s = s.replace(/(?:[\u200b-\u200f]|\u034f|\u00ad|\ufeff)+/g, '')
  // Every run of spaces, tabs and no-break spaces becomes one space. A lone ' ' already is one, so
  // only longer runs and lone tabs/no-break spaces are matched (far fewer replacements, same text).
  return s.replace(/[ \t\u00a0]{2,}|[\t\u00a0]/g, ' ').replace(/\n\s*\n+/g, '\n').trim()
}
