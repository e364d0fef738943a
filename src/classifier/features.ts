// Turns a message into the sparse features the model scores: header/structure features (fixed
// names, value 1) and word features from subject and body (unigrams and bigrams, L2-normalised so
// long mails do not get extreme scores). Relationship signals are deliberately NOT features: they
// are rules (docs/decisions/006-classifier.md), so the model cannot learn corpus-specific contacts.

import { Buffer } from 'node:buffer'
import type { NormalisedMessage } from './message.ts'
import type { Signals } from './signals.ts'
import { injectionIn } from './signals.ts'
import { EVERYDAY_WORDS, LEXICON, NO_PITCH_GROUPS, WEAK_OUTREACH } from './lexicon.ts'
import type { PhraseGroup } from './lexicon.ts'

export interface FeatureVector {
  /**
   * Hashes of the feature names (what the model looks up): first the words, then the rest. Without
   * names (classifying, not training) this is a view of a buffer the next extractFeatures call
   * overwrites: the caller scores it at once and keeps nothing.
   */
  hashes: Int32Array
  /** hashes[0 … wordCount) are word features with value wordValue; the others have value 1. */
  wordCount: number
  wordValue: number
  /** The names themselves; only produced for training (extractFeatures(..., true)). */
  names?: string[]
}

const MAX_BODY_CHARS = 4000
const MAX_BODY_TOKENS = 400
const MAX_BIGRAM_TOKENS = 150
const TEXT_NORM = 3
/** A fake "Re:" on a text up to this long, with no pitch and no links, is not held against the sender. */
export const FAKE_REPLY_SHORT = 600
const FNV_OFFSET = 0x811c9dc5 | 0

/** FNV-1a over UTF-16 code units; composable: hashing "ab" = hashing "b" starting from hash("a"). */
export function hashString(s: string, h = FNV_OFFSET): number {
  return hashRange(s, 0, s.length, h)
}

/**
 * FNV-1a of s[from, to): the same value as hashString(s.slice(from, to), h), without the substring
 * (h = the hash of a prefix gives the hash of prefix + substring).
 */
function hashRange(s: string, from: number, to: number, h = FNV_OFFSET): number {
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return h
}

function isWordChar(c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57)
  return (
    (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) ||
    (c >= 0x370 && c <= 0x3ff) ||
    (c >= 0x400 && c <= 0x4ff) ||
    (c >= 0x590 && c <= 0x6ff) ||
    (c >= 0x3040 && c <= 0x30ff) ||
    (c >= 0x4e00 && c <= 0x9fff)
  )
}
/**
 * Tables over every UTF-16 code unit (built in about 10 ms at start-up): LOWER, its lower-case
 * form; FOLD, the same when that is a word character, else 0. scanWords reads every character
 * through FOLD, so the text need not be lower-cased first. (Case mappings that change a string's
 * length or depend on context, Turkish İ and Greek final sigma, take their one-character form.)
 */
const LOWER = new Uint16Array(0x10000)
const FOLD = new Uint16Array(0x10000)
for (let c = 0; c < 0x10000; c++) {
  const lower = String.fromCharCode(c).toLowerCase().charCodeAt(0)
  LOWER[c] = lower
  FOLD[c] = isWordChar(lower) ? lower : 0
}

/** The characters codes[from, to) as scanWords reads them (lower-cased): only for feature names in training. */
function foldedSlice(codes: Uint16Array, from: number, to: number): string {
  let out = ''
  for (let i = from; i < to; i++) out += String.fromCharCode(FOLD[codes[i] as number] as number)
  return out
}

/**
 * The text being scanned, as UTF-16 code units: Buffer.write copies a string's characters natively,
 * and reading them from a typed array is about a third faster than charCodeAt, in the loop that
 * visits every character.
 */
const SCAN_CHARS = 4096
const CODES = new Uint16Array(SCAN_CHARS)
const CODE_BYTES = Buffer.from(CODES.buffer)

/** Copies text[from, from + SCAN_CHARS) into CODES; returns the number of characters copied. */
function loadCodes(text: string, from: number): number {
  const part = from === 0 ? text : text.slice(from)
  return CODE_BYTES.write(part, 0, 2 * SCAN_CHARS, 'utf16le') >>> 1
}

// Function words of the languages the product sees most. They say which language a mail is in,
// not what it wants, and a model trained mostly on English would otherwise learn "Spanish/German
// text = spam" from 2002 mail. Dropped as unigrams; bigrams of two function words too.
const STOPWORDS = new Set(
  (
    'the a an and or but if of to in on at by for with from as is are was were be been it its this that these those ' +
    'i you he she we they me my your our their his her him us them do does did not no so than then there here ' +
    'der die das und oder aber ist sind war ein eine einen einem einer den dem des zu im am auf mit von für fur ' +
    'sich nicht auch es ich sie wir ihr ihre ihnen werden wird wurde bei aus nach wie noch nur um so dass ' +
    'diese dieser dieses ob falls mich mir dich dir uns euch heute bitte können kann könnte haben hat hatte sein seit ' +
    'wenn weil schon sehr mehr gerne uhr wieder über unter vor ' +
    'le la les un une des du de et ou mais est sont au aux en dans sur pour par avec ce cette ces il elle nous vous ils ' +
    'je tu me te se qui que quoi pas plus très bien être avoir fait peut ' +
    'il lo gli uno una di da con su per tra fra che non ho hai ha sono è ma nel nella del della dei al alla ' +
    'questa questo quello ci vi mi ti si fare fatto essere avere può più molto anche come tua tuo suo sua ' +
    'el los las unos unas y o pero es son con por para como este esta estos su sus lo al del se que ' +
    'mi tu te le nos muy más también ya hay ser estar puede hacer ' +
    'o os as um uma e mas é são com por para como este esta seu sua do da dos das no na nos nas em ' +
    'não já entre pode ser ter fazer muito mais também você vocês ' +
    'het een en of maar is zijn van voor met op aan dat die deze ik je wij jullie zij niet ook ' +
    'och att det som en är på för med av till den har inte jag om ett men var så från vi kan ut min du ' +
    'unser unsere unserer unseren unserem notre nos nostro nostra nostri nostre nuestro nuestra nuestros nuestras ' +
    'nosso nossa nossos nossas onze ons ' +
    'og af er ikke jeg til fra ' +
    // More function words of the same languages (pronouns, prepositions, auxiliaries, conjunctions).
    'tem sem ao aos pelo pela pelos pelas num numa foi está estão vai isso isto esse essa aqui quando onde até sobre depois ' +
    'ainda só seus suas lhe eles elas eu ele ela nós à às ' +
    'sin hasta desde cuando donde todo todos todas esto eso ese esa han ha he fue están si ni les porque otro otra yo usted ustedes ' +
    'sans sous chez vers ont été aussi tout tous toute toutes leur leurs votre vos mon ma mes ton ta tes son sa ses ne où on ça ' +
    'cela lui eux dont donc car ' +
    'senza stato stata tutti tutto loro suoi sue vostro vostra vostri nei negli nelle dalla dal dai alle agli sul sulla col ' +
    'perché quando dove già poi ancora ' +
    'ohne durch gegen zum zur vom beim ins ihren ihrem ihres seine seinen alle allen alles man hier dort da dann also doch ' +
    'was wer wo ' +
    'zonder uw jouw jij hij ze we er nog al als dan bij om tot uit naar over door worden wordt heeft hebben waren kunnen ' +
    'wil zal geen meer wat wie hoe waar ' +
    'vil skal ska eller också også mycket ' +
    'na nie się jest że od po za dla oraz jak czy ' +
    'yr yn ac mae gan ei eu ' +
    // Swedish, Norwegian and Danish.
    'dig din ditt dina er ert era oss vår våra vårt mig sig hur när där här nu bara kommer vara blir hade skulle kunna de dem ' +
    'han hon denna detta dessa vad vem vilka efter mellan utan hos vid mot deg meg seg dine våre hva hvor hun denne dette disse ' +
    'hvem etter mellom uten være hadde kunne dere jer os vores hvad hvornår kun bliver havde mellem uden mod ' +
    // Polish, Czech and Slovak, Finnish, Hungarian, Romanian, Turkish.
    'w z do ten tym tego tej być był była było są będzie mam mamy macie pani państwo pana panu go mu jej ich nam wam mnie ' +
    'ci co gdy gdzie już jeszcze tylko bardzo też także przez przy pod nad przed bez u i lub ale albo więc bo jeśli może można ' +
    'v ve je jsem jsme jste jsou být byl byla bylo bude budu s ze k ke při že který která které tento tato toto jako nebo ' +
    'také už ještě jen velmi mě mně vám vás vy váš vaše vaši náš naše máme máte má som sme ste sú bol bola bolo pre ktorý ' +
    'ktorá ako alebo aj tiež ešte len veľmi ma vaša ' +
    'ja ei ole oli olen olemme olette ovat hän minä sinä että kun jos mutta tai myös vielä jo nyt tämä tämän tässä sen siitä ' +
    'mitä mikä joka jotka kanssa ilman koska niin kuin voi voisi teidän meidän minun sinun teille meille ' +
    'az egy és vagy hogy ez ezt azt van volt lesz vannak már még csak nagyon meg el ki fel mint mert amely ami aki én ő ' +
    'ti ők önök ön nekem számára után előtt között ' +
    'și sau este sunt fost au ai în pe din pentru că ce cum nu mai ea noi voi ei ele dumneavoastră vă ne îmi îți ale lui ' +
    'unui unei această acest aceasta acesta după până fără între despre ' +
    've veya ama bir bu şu ile için gibi mı mü ben sen biz siz onlar bana bize daha çok nasıl neden ise fakat sonra önce ' +
    'kadar var yok olan olarak'
  ).split(' '),
)
/** Stop-word hashes in a small open-addressing table (checked for every word, so no Set). */
const STOP_SIZE = 2048
const STOP_TABLE = new Int32Array(STOP_SIZE)
const STOP_USED = new Uint8Array(STOP_SIZE)
for (const w of STOPWORDS) {
  const h = hashString(w)
  let i = h & (STOP_SIZE - 1)
  while (STOP_USED[i] === 1 && STOP_TABLE[i] !== h) i = (i + 1) & (STOP_SIZE - 1)
  STOP_TABLE[i] = h
  STOP_USED[i] = 1
}
function isStopHash(h: number): boolean {
  let i = h & (STOP_SIZE - 1)
  while (STOP_USED[i] === 1) {
    if (STOP_TABLE[i] === h) return true
    i = (i + 1) & (STOP_SIZE - 1)
  }
  return false
}

// Numbers carry their shape, not their value (prices, years and ids would be memorised).
const NUMBER_NAMES = ['#n0', '#n1', '#n2', '#n3', '#n4', '#n5', '#n6', '#a']
const NUMBER_HASHES = NUMBER_NAMES.map((name) => hashString(name))

/** Splits a phrase the way scanWords reads text (used for the lexicon, once at start-up). */
function phraseTokens(phrase: string): string[] {
  const out: string[] = []
  for (const raw of phrase.toLowerCase().split(/[^a-z0-9#\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]+/)) {
    if (raw.startsWith('#')) out.push(raw)
    else if (raw.length >= 2 && raw.length <= 24) out.push(/^[0-9]/.test(raw) ? (/^[0-9]+$/.test(raw) ? (NUMBER_NAMES[Math.min(raw.length, 6)] as string) : '#a') : raw)
  }
  return out.slice(0, MAX_PHRASE_WORDS)
}

const MAX_PHRASE_WORDS = 4
/** Combines the hash of a phrase so far with the next word's hash (order-sensitive). */
const mixPhrase = (h: number, t: number) => Math.imul(((h << 5) | (h >>> 27)) ^ t, 0x9e3779b1)
/**
 * Phrase hash → [lexicon group, phrase, strong pitch, request group or -1]. A phrase of a 'request'
 * group that another group lists too ("my order") keeps both. A 64k-bit filter answers most misses
 * without the map.
 */
const PHRASES = new Map<number, [number, string, boolean, number]>()
const PHRASE_BITS = new Uint32Array(2048)
/** The same kind of filter for the hashes of the first 1–3 words of every phrase of 2–4 words. */
const PREFIX_BITS = new Uint32Array(2048)
const setBit = (bits: Uint32Array, h: number) => (bits[(h & 0xffff) >>> 5] = (bits[(h & 0xffff) >>> 5] as number) | (1 << (h & 31)))
LEXICON.forEach((group, g) => {
  for (const p of group.phrases) {
    let h = 0
    phraseTokens(p).forEach((t, k) => {
      if (k > 0) setBit(PREFIX_BITS, h)
      h = k === 0 ? hashString(t) : mixPhrase(h, hashString(t))
    })
    const known = PHRASES.get(h)
    if (known) {
      if (group.kind === 'request' && known[3] === -1) known[3] = g
      continue
    }
    const pitch = (group.kind === 'outreach' || group.kind === 'pitch') && !NO_PITCH_GROUPS.has(group.feature) && !WEAK_OUTREACH.has(p)
    PHRASES.set(h, [g, p, pitch, group.kind === 'request' ? g : -1])
    setBit(PHRASE_BITS, h)
  }
})

export interface PhraseHits {
  groups: Set<number>
  outreach: string[]
  inbound: string[]
  /** Recipient-directed request phrases (also listed in inbound). */
  request: string[]
  /** Lexicon index of the request group of the first request phrase, or -1. */
  requestGroup: number
  consent: string[]
  markers: Set<string>
  /** An outreach phrase that is not in WEAK_OUTREACH: the sender pitches something. */
  pitch: boolean
}

/** False when h is certainly not a lexicon phrase; small enough to be inlined where scanWords asks. */
function mayBePhrase(h: number): boolean {
  return (((PHRASE_BITS[(h & 0xffff) >>> 5] as number) >>> (h & 31)) & 1) === 1
}

/** False when the n-gram with hash h certainly does not begin any lexicon phrase (so no longer n-gram can match). */
function mayBePrefix(h: number): boolean {
  return (((PREFIX_BITS[(h & 0xffff) >>> 5] as number) >>> (h & 31)) & 1) === 1
}

/** Records lexicon phrase h (callers check mayBePhrase first, so the rare lookups alone pay a call). */
function hitPhrase(h: number, hits: PhraseHits): void {
  const found = PHRASES.get(h)
  if (!found) return
  const [g, phrase, strongPitch, requestGroup] = found
  const kind = (LEXICON[g] as PhraseGroup).kind
  if (strongPitch) hits.pitch = true
  if (kind === 'marker' || kind === 'pitch') {
    hits.markers.add((LEXICON[g] as PhraseGroup).feature)
    return
  }
  if (requestGroup !== -1) {
    hits.groups.add(requestGroup)
    if (hits.requestGroup === -1) hits.requestGroup = requestGroup
    if (!hits.request.includes(phrase) && hits.request.length < 6) hits.request.push(phrase)
  }
  const list = kind === 'outreach' ? hits.outreach : kind === 'inbound' || kind === 'request' ? hits.inbound : hits.consent
  hits.groups.add(g)
  if (!list.includes(phrase) && list.length < 6) list.push(phrase)
}

/** Hash of a bigram from the hashes of its two words (order-sensitive). */
const mixBigram = (a: number, b: number) => Math.imul(((a << 7) | (a >>> 25)) ^ b, 0x85ebca6b)

/** FNV-1a over codes[from, to) as scanWords reads them (lower-cased), continuing from h. */
function hashFoldedRange(codes: Uint16Array, from: number, to: number, h: number): number {
  for (let i = from; i < to; i++) h = Math.imul(h ^ (FOLD[codes[i] as number] as number), 0x01000193)
  return h
}

/**
 * The hash under which the model stores a feature name. Words and structural names are FNV-1a of
 * the name; bigrams ("a_b", "s:a_b": two parts without ':' or '_') combine the hashes of their two
 * words, which is what the scanner computes without re-reading the text. It runs for every name
 * while a model loads, so it allocates nothing.
 */
export function featureHash(name: string): number {
  const start = name.startsWith('s:') ? 2 : 0
  const u = name.indexOf('_', start)
  if (u <= start || u === name.length - 1 || name.indexOf('_', u + 1) !== -1 || name.indexOf(':', start) !== -1) return hashString(name)
  return mixBigram(hashRange(name, 0, u), hashRange(name, u + 1, name.length))
}

/**
 * Scans CODES[0, n) into unigram and bigram features in one pass per word, lower-casing as it
 * reads and without allocating substrings (names are only built when `names` is given, for
 * training), and matches lexicon phrases on the way (1–4 word n-grams). Tokens of 2–24 word
 * characters.
 */
function scanWords(
  n: number,
  prefix: string,
  maxTokens: number,
  maxBigrams: number,
  buffer: FeatureBuffer,
  names: string[] | undefined,
  masked: number[],
  hits: PhraseHits,
  phrasesOnly = false,
): void {
  const codes = CODES
  let i = 0
  let count = 0
  let prevHash = 0
  let prevName = ''
  let hasPrev = false
  let prevStop = false
  // Phrase hashes of the 1-, 2- and 3-grams ending at the previous word, each kept only while it
  // may begin a phrase (so most words cost one filter probe, not four).
  let g1 = 0
  let g2 = 0
  let g3 = 0
  let open1 = false
  let open2 = false
  let open3 = false
  const prefixHash = hashString(prefix)
  // One bit per masked hash (h & 31): most words are ruled out without searching the list.
  let maskedBits = 0
  for (const m of masked) maskedBits |= 1 << (m & 31)
  while (i < n && count < maxTokens) {
    let c = FOLD[codes[i] as number] as number
    while (c === 0) {
      // A phrase is a construction within one sentence: ". ! ? ;" end every phrase in progress
      // ("…a call. Next week we…" is not "call next week").
      const raw = codes[i] as number
      if (raw === 46 || raw === 33 || raw === 63 || raw === 59) open1 = open2 = open3 = false
      if (++i >= n) return
      c = FOLD[codes[i] as number] as number
    }
    const start = i
    let plain = FNV_OFFSET
    let digits = true
    while (i < n) {
      c = FOLD[codes[i] as number] as number
      if (c === 0) break
      plain = Math.imul(plain ^ c, 0x01000193)
      if (c < 48 || c > 57) digits = false
      i++
    }
    const len = i - start
    if (len < 2 || len > 24) {
      hasPrev = false
      continue
    }
    let norm: string | null = null
    const first = codes[start] as number
    if (first >= 48 && first <= 57) {
      // Numbers carry their shape, not their value.
      const shape = digits ? Math.min(len, 6) : 7
      norm = NUMBER_NAMES[shape] as string
      plain = NUMBER_HASHES[shape] as number
    }
    // Lexicon phrases: n-grams ending here, across stop words and masked names alike.
    if (mayBePhrase(plain)) hitPhrase(plain, hits)
    let next2 = false
    let next3 = false
    if (open1) {
      g1 = mixPhrase(g1, plain)
      if (mayBePhrase(g1)) hitPhrase(g1, hits)
      next2 = mayBePrefix(g1)
    }
    if (open2) {
      g2 = mixPhrase(g2, plain)
      if (mayBePhrase(g2)) hitPhrase(g2, hits)
      next3 = mayBePrefix(g2)
    }
    if (open3) {
      const n4 = mixPhrase(g3, plain)
      if (mayBePhrase(n4)) hitPhrase(n4, hits)
    }
    // Shift: the 2-gram just formed becomes the prefix of a 3-gram, and so on.
    g3 = g2
    open3 = next3
    g2 = g1
    open2 = next2
    g1 = plain
    open1 = mayBePrefix(plain)
    if (phrasesOnly) {
      count++
      continue
    }
    // The recipient's own name and company say nothing about the sender's intent (and would let the
    // model memorise the training personas), so they are left out together with their bigrams.
    if (maskedBits !== 0 && ((maskedBits >>> (plain & 31)) & 1) === 1 && masked.includes(plain)) {
      hasPrev = false
      count++
      continue
    }
    const h = prefix === '' ? plain : norm !== null ? hashString(norm, prefixHash) : hashFoldedRange(codes, start, i, prefixHash)
    const word = names ? (norm ?? foldedSlice(codes, start, i)) : ''
    const name = names ? prefix + word : ''
    const stop = prefix === '' && isStopHash(h)
    if (!stop && buffer.addWord(h) && names) names.push(name)
    if (hasPrev && count < maxBigrams && !(stop && prevStop)) {
      const b = mixBigram(prevHash, plain)
      if (buffer.addWord(b) && names) names.push(prevName + '_' + word)
    }
    prevHash = h
    prevName = name
    prevStop = stop
    hasPrev = true
    count++
  }
}

function bucket(n: number, edges: number[]): string {
  for (const e of edges) if (n <= e) return '≤' + e
  return '>' + (edges[edges.length - 1] as number)
}

/**
 * The feature names prefix + bucket(n, edges) for every bucket, built once: the same strings, but
 * the same string objects every time, so looking up their hashes (NAME_HASHES) costs no re-hashing.
 */
function bucketNames(prefix: string, edges: number[]): (n: number) => string {
  const names = edges.map((e) => prefix + bucket(e, edges))
  const above = prefix + '>' + (edges[edges.length - 1] as number)
  return (n) => {
    for (let i = 0; i < edges.length; i++) if (n <= (edges[i] as number)) return names[i] as string
    return above
  }
}
const TO_BUCKET = bucketNames('to:', [1, 3, 10])
const LINKS_BUCKET = bucketNames('links:', [0, 2, 6, 15])
const LEN_BUCKET = bucketNames('len:', [300, 1200, 4000])

/** True when s has at least 8 ASCII letters and none of them is lower-case (a shouted subject). */
function isCapsSubject(s: string): boolean {
  let letters = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 97 && c <= 122) return false
    if (c >= 65 && c <= 90) letters++
  }
  return letters >= 8
}

export function structuralFeatures(message: NormalisedMessage, s: Signals): string[] {
  const f: string[] = []
  if (s.listUnsubscribe) f.push('h:list-unsubscribe')
  if (s.oneClickUnsubscribe) f.push('h:one-click-unsubscribe')
  if (s.listId) f.push('h:list-id')
  if (s.precedence) f.push('h:precedence-' + s.precedence)
  if (s.autoSubmitted) f.push('h:auto-submitted')
  if (s.feedbackId) f.push('h:feedback-id')
  if (s.esp) f.push('h:esp')
  if (s.outreachTool) f.push('h:outreach-tool')
  if (s.listUnsubscribe && s.esp) f.push('h:unsub+esp')
  if (!s.listUnsubscribe && !s.listId && !s.precedence && !s.esp && !s.feedbackId) f.push('h:no-bulk-headers')
  if (s.noReplySender) f.push('from:automated')
  if (s.roleSender) f.push('from:role')
  if (s.freemailSender) f.push('from:freemail')
  if (s.replyToOtherDomain) f.push('h:reply-to-other-domain')
  if (s.isThreadedReply && !s.selfThread) f.push('reply:threaded')
  if (s.fakeReplySuspicious) f.push('reply:fake')
  if (s.forwarded) f.push('subj:fwd')
  if (s.quotesEarlierMail) f.push('body:quotes')
  if (s.unsubscribeText) f.push('body:unsubscribe-text')
  if (s.unsubscribeText && !s.listUnsubscribe) f.push('body:unsub-without-header')
  if (s.transactional) f.push('tx:' + s.transactional, 'tx:any')
  if (s.undisclosedRecipients) f.push('to:undisclosed')
  if (s.selfThread) f.push('reply:self-thread')
  if (s.quotesOwnMail) f.push('body:quotes-own-mail')
  if (s.returnPathMismatch) f.push('h:return-path-mismatch')
  if (s.highPriority) f.push('h:high-priority')
  if (s.scriptMailer) f.push('h:script-mailer')
  if (s.riskyDomain) f.push('from:risky-domain')
  if (s.calendar) f.push('body:calendar')
  if (s.majorPlatform) f.push('from:major-platform')
  f.push(TO_BUCKET(s.recipientCount))
  if (message.cc.length > 0) f.push('cc:some')
  f.push(LINKS_BUCKET(message.linkCount))
  if (message.hasHtml) f.push('body:html')
  if (message.attachmentCount > 0) f.push('body:attachment')
  f.push(LEN_BUCKET(message.text.length))
  const subj = message.subject
  if (subj.length === 0) f.push('subj:empty')
  if (isCapsSubject(subj)) f.push('subj:caps')
  if (subj.includes('!')) f.push('subj:exclaim')
  if (/[$€£]\s?\d/.test(subj)) f.push('subj:money')
  if (subj.includes('%')) f.push('subj:percent')
  if (message.from?.name && /\b(at|from|@|\|)\b/i.test(message.from.name)) f.push('from:name-with-company')
  if (!message.from) f.push('from:none')
  if (!message.messageId) f.push('h:no-message-id')
  return f
}

/** At most this many distinct word features per message. */
const MAX_WORD_FEATURES = 3000

/**
 * The feature hashes of the message being read, in a reusable buffer, with an open-addressing set
 * that keeps word features distinct (cleared by bumping a generation counter).
 */
class FeatureBuffer {
  /** Word features, then structural ones (a few dozen). */
  readonly out = new Int32Array(MAX_WORD_FEATURES + 1024)
  length = 0
  private keys = new Int32Array(4096)
  private gens = new Uint32Array(4096)
  private gen = 1
  reset(): this {
    this.gen++
    this.length = 0
    if (this.gen === 0xffffffff) {
      this.gens.fill(0)
      this.gen = 1
    }
    return this
  }
  /** Adds word feature h unless it is there already (or the buffer holds MAX_WORD_FEATURES); true when added. */
  addWord(h: number): boolean {
    if (this.length >= MAX_WORD_FEATURES) return false
    const keys = this.keys
    const gens = this.gens
    const gen = this.gen
    let i = h & 4095
    while (gens[i] === gen) {
      if (keys[i] === h) return false
      i = (i + 1) & 4095
    }
    gens[i] = gen
    keys[i] = h
    this.out[this.length++] = h
    return true
  }
  /** Appends a structural feature (distinct by construction). */
  push(h: number): void {
    this.out[this.length++] = h
  }
}
const BUFFER = new FeatureBuffer()

const GENERIC_LABELS = ['mail', 'email', 'info', 'com', 'net', 'org', 'www', 'gmail', 'outlook', 'hotmail', 'yahoo', 'co', 'de', 'it', 'uk', 'fr', 'es', 'io']
const GENERIC_HASHES = new Set(GENERIC_LABELS.map((w) => hashString(w)))

/**
 * Adds to `out` the hashes of the name parts of s[from, to): runs of letters and digits, lower-cased,
 * of at least 3 characters, other than generic mail words and function words.
 */
function addNameParts(s: string, from: number, to: number, out: number[]): void {
  let h = FNV_OFFSET
  let len = 0
  for (let i = from; i <= to; i++) {
    const c = i < to ? (LOWER[s.charCodeAt(i)] as number) : 0
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 0xc0 && c <= 0x24f)) {
      h = Math.imul(h ^ c, 0x01000193)
      len++
      continue
    }
    if (len >= 3 && !GENERIC_HASHES.has(h) && !isStopHash(h) && !out.includes(h)) out.push(h)
    h = FNV_OFFSET
    len = 0
  }
}

/** Hashes of the recipients' name parts and organisation labels (from To/Cc), to leave out of word features. */
function recipientTokens(message: NormalisedMessage): number[] {
  const out: number[] = []
  if (message.to.length + message.cc.length > 6) return out
  for (const list of [message.to, message.cc]) {
    for (const a of list) {
      const address = a.address
      const at = address.lastIndexOf('@')
      addNameParts(address, 0, at === -1 ? address.length - 1 : at, out)
      // The domain without its last label; the parts split at '.' as they do at ' '.
      const lastDot = address.lastIndexOf('.')
      if (lastDot > at) addNameParts(address, at + 1, lastDot, out)
      addNameParts(a.name, 0, a.name.length, out)
    }
  }
  return out
}

const REPLY_PREFIXES = /^\s*((re|aw|fwd?|wg|sv|rif)\s*:\s*)+/

/**
 * Produces the feature vector for the model. Structural features get value 1; word features
 * (subject words prefixed "s:", body words, bigrams joined by "_") share an L2 norm of TEXT_NORM.
 */
/** Hashes of the fixed feature names, computed once. */
const NAME_HASHES = new Map<string, number>()

export function extractFeatures(message: NormalisedMessage, s: Signals, withNames = false): FeatureVector {
  const names: string[] | undefined = withNames ? [] : undefined
  const buffer = BUFFER.reset()
  const masked = recipientTokens(message)
  const hits: PhraseHits = { groups: new Set(), outreach: [], inbound: [], request: [], requestGroup: -1, consent: [], markers: new Set(), pitch: false }
  const subj = message.subject.toLowerCase().replace(REPLY_PREFIXES, '')
  scanWords(loadCodes(subj, 0), 's:', 50, 50, buffer, names, masked, hits)
  const text = message.text
  scanWords(Math.min(MAX_BODY_CHARS, loadCodes(text, 0)), '', MAX_BODY_TOKENS, MAX_BIGRAM_TOKENS, buffer, names, masked, hits)
  // Footers (unsubscribe lines) and late instructions sit at the end: read the tail for phrases only.
  if (text.length > 2500) {
    scanWords(loadCodes(text, text.length - 1000), '', 300, 0, buffer, names, masked, hits, true)
  }
  s.outreachPhrases = hits.outreach
  s.inboundPhrases = hits.inbound
  s.consentPhrases = hits.consent
  s.requestPhrases = hits.request
  s.requestKind = hits.requestGroup === -1 ? '' : (LEXICON[hits.requestGroup] as PhraseGroup).feature
  s.pitch = hits.pitch
  // A "Re:" without thread headers is suspicious only together with a pitch, links or a long text:
  // many mail apps drop In-Reply-To from short personal replies.
  s.fakeReplySuspicious = s.fakeReply && (hits.pitch || message.linkCount > 0 || message.text.length > FAKE_REPLY_SHORT)
  s.unsubscribeText = hits.markers.has('marker:unsubscribe')
  // The precise (slower) injection patterns run only when one of their words occurs.
  s.injection = hits.markers.has('marker:injection') && injectionIn(message.subject + '\n' + message.text)

  // Words first (value wordValue), then header/structure and phrase-group features (value 1).
  const wordCount = buffer.length
  const wordValue = wordCount > 0 ? TEXT_NORM / Math.sqrt(wordCount) : 0
  const rest = structuralFeatures(message, s)
  let outreachGroups = 0
  for (const g of [...hits.groups].sort((a, b) => a - b)) {
    const group = LEXICON[g] as PhraseGroup
    if (group.kind === 'outreach') outreachGroups++
    rest.push(group.feature)
  }
  if (outreachGroups >= 2) rest.push('out:several')
  if (hits.outreach.length > 0 && hits.inbound.length === 0) rest.push('out:only')
  if (hits.request.length > 0 && !hits.pitch) rest.push('in:request-no-pitch')
  for (const f of rest) {
    let h = NAME_HASHES.get(f)
    if (h === undefined) {
      h = hashString(f)
      if (NAME_HASHES.size < 10_000) NAME_HASHES.set(f, h)
    }
    buffer.push(h)
    if (names) names.push(f)
  }
  const hashes = names ? buffer.out.slice(0, buffer.length) : buffer.out.subarray(0, buffer.length)
  return names ? { hashes, wordCount, wordValue, names } : { hashes, wordCount, wordValue }
}

/** The value of feature i of a vector. */
export function featureValue(fv: FeatureVector, i: number): number {
  return i < fv.wordCount ? fv.wordValue : 1
}

const EVERYDAY = new Set(EVERYDAY_WORDS)
const NUMBER_SHAPES = new Set(NUMBER_NAMES)

/**
 * True for a word feature name (unigram or bigram, subject or body) made only of everyday words
 * (EVERYDAY_WORDS), function words and number shapes, with at least one everyday or function word.
 * The model caps their unwanted weight (TrainOptions.everydayCap).
 */
export function isEverydayFeature(name: string): boolean {
  if (name.includes(':') && !name.startsWith('s:')) return false
  const words = (name.startsWith('s:') ? name.slice(2) : name).split('_')
  let everyday = 0
  for (const w of words) {
    if (EVERYDAY.has(w)) everyday++
    else if (STOPWORDS.has(w)) everyday++
    else if (!NUMBER_SHAPES.has(w)) return false
  }
  return everyday > 0
}
