// Reasons a person understands, built from signals and the model's strongest word features.

import type { Signals } from './signals.ts'
import type { Prediction } from './model.ts'
import { MIN_EXPLAINED } from './model.ts'
import type { Category } from './types.ts'
import { isEverydayFeature } from './features.ts'

const REQUEST_TEXT: Record<string, string> = {
  'in:ask-buy': 'Asks you for a price, a quote or an order for your own product',
  'in:ask-job': 'Applies for a job with you',
  'in:ask-press': 'Asks you for an interview, a comment or about your own work',
  'in:ask-customer': 'Writes as your customer about an order or booking',
  'in:ask-case': 'Writes about your own application, request or case',
}

/** The reason shown when a recipient-directed request (without a pitch) lowered the unwanted score. */
export function requestReason(kind: string, phrases: string[]): string {
  const text = REQUEST_TEXT[kind] ?? 'Asks you for something of your own'
  return `${text} (${quotePhrases(phrases, 2)}) and pitches nothing`
}

/**
 * Common words that are never cited as evidence of anything, although the model may weigh them
 * a little (everyday words proper are capped in training: isEverydayFeature).
 */
const NOT_CITED = new Set(
  ('who what when where which how why over after up down out about into again still back some any all each other more most ' +
    'only very too now new first last next many much several something anything every right').split(' '),
)

function citable(name: string, weight: number): boolean {
  // Contributions below MIN_EXPLAINED are not evidence (and predict keeps no smaller ones).
  if (weight < MIN_EXPLAINED) return false
  // The answer depends on the name only, and names come from the model (a bounded set), so each
  // is worked out once: the regex, splits and word lookups otherwise run for every message.
  let ok = CITABLE_NAME.get(name)
  if (ok === undefined) {
    ok = citableName(name)
    CITABLE_NAME.set(name, ok)
  }
  return ok
}

const CITABLE_NAME = new Map<string, boolean>()

function citableName(name: string): boolean {
  if (!isWordFeature(name) || isEverydayFeature(name)) return false
  const words = name.replace(/^s:/, '').split('_')
  return !words.every((w) => NOT_CITED.has(w) || isEverydayFeature(w))
}

const TX_TEXT: Record<string, string> = {
  receipt: 'The subject looks like a receipt',
  invoice: 'The subject looks like an invoice',
  order: 'The subject looks like an order confirmation',
  shipping: 'The subject looks like a shipping or delivery update',
  booking: 'The subject looks like a booking or reservation',
  code: 'The subject looks like a sign-in or verification code',
  password: 'The subject looks like a password reset',
  security: 'The subject looks like a security alert',
  statement: 'The subject looks like an account statement',
  payment: 'The subject looks like a payment notice',
  subscription: 'The subject confirms a subscription or welcomes you to one you signed up for',
}

/**
 * A lexicon phrase as a person reads it: numbers are matched as placeholders ("#n2" is any two-digit
 * number), which are shown as "…" rather than as the internal token.
 */
export function readablePhrase(phrase: string): string {
  return phrase.replace(/^s:/, '').replace(/_/g, ' ').replace(/#n\d+|#a/g, '…')
}

const quotePhrases = (phrases: string[], most: number) => phrases.slice(0, most).map((p) => `“${readablePhrase(p)}”`).join(', ')

export function bulkReason(s: Signals): string | null {
  const parts: string[] = []
  if (s.listUnsubscribe) parts.push('a List-Unsubscribe header')
  if (s.listId) parts.push('mailing-list headers')
  if (s.precedence) parts.push(`"Precedence: ${s.precedence}"`)
  if (s.autoSubmitted) parts.push('an Auto-Submitted header')
  if (parts.length === 0 && !s.esp && !s.feedbackId) return null
  const service = s.esp === 'a bulk sender' ? 'a bulk sender' : `a bulk e-mail service (${s.esp})`
  if (parts.length === 0) return s.esp ? `Sent through ${service}` : "Carries a bulk sender's feedback ID"
  let sentence = 'Has ' + joinAnd(parts)
  if (s.esp) sentence += ` and was sent through ${service}`
  else if (s.feedbackId) sentence += " and a bulk sender's feedback ID"
  return sentence
}

function joinAnd(items: string[]): string {
  if (items.length <= 1) return items.join('')
  return items.slice(0, -1).join(', ') + ' and ' + items[items.length - 1]
}

function quoteWords(names: string[]): string {
  return quotePhrases(names, names.length)
}

function isWordFeature(name: string): boolean {
  return !/^(h|from|reply|subj|body|tx|out|in|to|cc|links|len):/.test(name) && !name.startsWith('#')
}

export function signalReasons(s: Signals, category: Category): string[] {
  const r: string[] = []
  if (s.outreachTool) r.push(`Sent with a sales-outreach tool (${s.outreachTool})`)
  if (s.fakeReplySuspicious) r.push('The subject starts with “Re:” but the message is not a reply to anything you sent')
  if (s.outreachPhrases.length > 0 && category === 'unwanted') r.push(`Uses phrases typical of cold outreach: ${quotePhrases(s.outreachPhrases, 3)}`)
  if (s.inboundPhrases.length > 0 && category === 'genuine' && s.requestPhrases.length === 0) r.push(`Reads like a personal request: ${quotePhrases(s.inboundPhrases, 3)}`)
  if (s.consentPhrases.length > 0 && category !== 'unwanted' && category !== 'genuine') r.push(`Mentions your subscription or account: ${quotePhrases(s.consentPhrases, 2)}`)
  // Mailing-list headers argue for wanted mail; for an unwanted verdict only bulk sending is relevant.
  const bulk = category === 'unwanted' && (s.listId || s.precedence) ? null : bulkReason(s)
  if (bulk) r.push(bulk)
  if (s.transactional && (category === 'transactional' || category !== 'unwanted')) r.push(TX_TEXT[s.transactional] as string)
  if (s.isThreadedReply && s.quotesEarlierMail && !s.selfThread && !s.quotesOwnMail && category !== 'unwanted') r.push('It is a reply in an existing conversation')
  if ((s.selfThread || s.quotesOwnMail) && category === 'unwanted') r.push('It follows up on the sender’s own earlier message, not on anything you wrote')
  if (s.noReplySender && category !== 'genuine') r.push('Comes from an automated sender address')
  if (s.undisclosedRecipients && category === 'unwanted') r.push('You are not among the listed recipients')
  return r
}

export function modelReasons(p: Prediction, category: Category, pUnwanted: number): string[] {
  const r: string[] = []
  const pct = Math.round(pUnwanted * 100)
  if (category === 'unwanted') {
    // Only words that carry real weight, and never a single word on its own: one word is no evidence.
    const words = p.towardsUnwanted.filter((c) => citable(c.name, c.weight)).slice(0, 4).map((c) => c.name)
    if (words.length >= 2) r.push(`Wording common in cold outreach and bulk spam: ${quoteWords(words)}`)
    r.push(`The model rates it ${pct} % likely to be unsolicited`)
  } else {
    const words = p.awayFromUnwanted.filter((c) => citable(c.name, c.weight)).slice(0, 3).map((c) => c.name)
    if (words.length > 0) r.push(`Wording common in mail people want: ${quoteWords(words)}`)
    r.push(`The model rates it ${pct} % likely to be unsolicited`)
  }
  return r
}
