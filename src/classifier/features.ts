// Turns a message into the sparse features the model scores: header/structure features (fixed
// names, value 1) and word features from subject and body (unigrams and bigrams, L2-normalised so
// long mails do not get extreme scores). Relationship signals are deliberately NOT features: they
// are rules (docs/decisions/006-classifier.md), so the model cannot learn corpus-specific contacts.

import type { NormalisedMessage } from './message.ts'
import type { Signals } from './signals.ts'

export interface FeatureVector {
  names: string[]
  values: number[]
}

const WORD = /[a-z0-9\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff\u0590-\u06ff\u3040-\u30ff\u4e00-\u9fff]+(?:'[a-z]+)?/g
const MAX_BODY_TOKENS = 400
const MAX_BIGRAM_TOKENS = 150
const TEXT_NORM = 3

function normaliseToken(t: string): string | null {
  const n = t.length
  if (n < 2 || n > 24) return null
  const c = t.charCodeAt(0)
  if (c >= 48 && c <= 57) {
    // Numbers carry their shape, not their value (prices, years and ids would be memorised).
    return /^[0-9]+$/.test(t) ? '#n' + Math.min(n, 6) : '#a'
  }
  return t
}

function bucket(n: number, edges: number[]): string {
  for (const e of edges) if (n <= e) return '≤' + e
  return '>' + (edges[edges.length - 1] as number)
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
  if (s.isThreadedReply) f.push('reply:threaded')
  if (s.fakeReply) f.push('reply:fake')
  if (s.forwarded) f.push('subj:fwd')
  if (s.quotesEarlierMail) f.push('body:quotes')
  if (s.unsubscribeText) f.push('body:unsubscribe-text')
  if (s.unsubscribeText && !s.listUnsubscribe) f.push('body:unsub-without-header')
  if (s.transactional) f.push('tx:' + s.transactional, 'tx:any')
  for (const p of s.outreachPhrases) f.push('out:' + p)
  if (s.outreachPhrases.length >= 2) f.push('out:several')
  if (s.undisclosedRecipients) f.push('to:undisclosed')
  f.push('to:' + bucket(s.recipientCount, [1, 3, 10]))
  if (message.cc.length > 0) f.push('cc:some')
  f.push('links:' + bucket(message.linkCount, [0, 2, 6, 15]))
  if (message.hasHtml) f.push('body:html')
  if (message.attachmentCount > 0) f.push('body:attachment')
  f.push('len:' + bucket(message.text.length, [300, 1200, 4000]))
  const subj = message.subject
  if (subj.length === 0) f.push('subj:empty')
  const letters = subj.replace(/[^A-Za-z]/g, '')
  if (letters.length >= 8 && letters === letters.toUpperCase()) f.push('subj:caps')
  if (subj.includes('!')) f.push('subj:exclaim')
  if (/[$€£]\s?\d/.test(subj)) f.push('subj:money')
  if (/%/.test(subj)) f.push('subj:percent')
  if (message.from?.name && /\b(at|from|@|\|)\b/i.test(message.from.name)) f.push('from:name-with-company')
  if (!message.from) f.push('from:none')
  if (!message.messageId) f.push('h:no-message-id')
  return f
}

/**
 * Produces the feature vector for the model. Structural features get value 1; word features share
 * an L2 norm of TEXT_NORM between them.
 */
export function extractFeatures(message: NormalisedMessage, s: Signals): FeatureVector {
  const names = structuralFeatures(message, s)
  const values: number[] = names.map(() => 1)
  const words = new Set<string>()
  const subj = message.subject.toLowerCase().replace(/^\s*((re|aw|fwd?|wg|sv|rif)\s*:\s*)+/, '')
  const subjTokens = subj.match(WORD) ?? []
  let prev = ''
  for (const raw of subjTokens) {
    const t = normaliseToken(raw)
    if (!t) continue
    words.add('s:' + t)
    if (prev) words.add('s:' + prev + '_' + t)
    prev = t
  }
  const body = (message.text.length > 4000 ? message.text.slice(0, 4000) : message.text).toLowerCase()
  WORD.lastIndex = 0
  let m: RegExpExecArray | null
  let count = 0
  prev = ''
  while ((m = WORD.exec(body)) !== null && count < MAX_BODY_TOKENS) {
    const t = normaliseToken(m[0])
    if (!t) {
      prev = ''
      continue
    }
    words.add(t)
    if (count < MAX_BIGRAM_TOKENS && prev) words.add(prev + '_' + t)
    prev = t
    count++
  }
  const v = words.size > 0 ? TEXT_NORM / Math.sqrt(words.size) : 0
  for (const w of words) {
    names.push(w)
    values.push(v)
  }
  return { names, values }
}
