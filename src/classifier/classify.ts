// The decision: user rules → relationship rules → local model (with the strictness offset) →
// optional LLM for the uncertain band → allow toggles and confidence threshold.
// The exact semantics are documented in docs/classifier.md; tests in classify.test.ts.

import { computeSignals } from './signals.ts'
import type { Signals } from './signals.ts'
import { extractFeatures } from './features.ts'
import { predict, sigmoid } from './model.ts'
import type { Model, Prediction } from './model.ts'
import { bulkReason, modelReasons, requestReason, signalReasons } from './explain.ts'
import type { NormalisedMessage } from './message.ts'
import { WANTED_CATEGORIES } from './types.ts'
import type { Category, ClassifierContext, ClassifierSettings, Decision, Strictness, WantedCategory } from './types.ts'

/** Added to the model's unwanted log-odds: strict triples the odds, relaxed divides them by three. */
export const STRICTNESS_OFFSET: Record<Strictness, number> = {
  relaxed: -Math.log(3),
  balanced: 0,
  strict: Math.log(3),
}

/** The LLM is consulted only when the (strictness-adjusted) unwanted probability is in this band. */
export const LLM_BAND: readonly [number, number] = [0.25, 0.85]
/** The LLM can move the unwanted probability by at most this much. */
export const LLM_MAX_SHIFT = 0.25
/** A message that addresses instructions to an automated classifier is at least this likely unwanted. */
export const INJECTION_FLOOR = 0.75
/** Upper bound on the unwanted probability of shielded transactional mail (see isShieldedTransactional). */
export const TRANSACTIONAL_CEILING = 0.4
/** Mail from a stranger sent with a sales-engagement tool (lemlist, Apollo, …) is at least this likely unwanted. */
export const OUTREACH_TOOL_FLOOR = 0.75
/** A recipient-directed request without a pitch divides the unwanted odds by this (see isRecipientRequest). */
export const REQUEST_ODDS_DIVISOR = 4
/** Upper bound on the unwanted probability of mail a list the person joined sent (see isListMail). */
export const LIST_CEILING = 0.4
const SENDERLESS_REASON = 'It has no sender address, so it is never moved'
const INJECTION_REASON = 'The message contains instructions aimed at an automated classifier'

export interface LlmVerdict {
  category: Category
  confidence: number
  reason: string
}

/** What the classifier needs from an LLM: a verdict, or null when it is unavailable (→ local model). */
export interface LlmJudge {
  judge(message: NormalisedMessage): Promise<LlmVerdict | null>
}

export interface Analysis {
  signals: Signals
  prediction: Prediction
  /** Strictness-adjusted probability of unwanted, before relationship rules. */
  pUnwanted: number
  /** Set when a rule decided the outcome; the LLM is never asked then. */
  ruleDecision: Decision | null
  /** Reasons for fixed adjustments that changed the model's verdict (shown first). */
  adjustments: string[]
}

/**
 * A receipt, code, booking or security alert sent by automated infrastructure, with nothing that
 * reads like a pitch, is kept out of the unwanted category: moving a password reset is far worse
 * than keeping one dubious invoice.
 */
export function isShieldedTransactional(s: Signals): boolean {
  return (
    s.transactional !== null &&
    (s.esp !== null || s.feedbackId || s.autoSubmitted || s.noReplySender) &&
    !s.outreachTool &&
    s.outreachPhrases.length === 0 &&
    !s.fakeReply &&
    !s.riskyDomain &&
    !s.injection
  )
}

/**
 * The sender asks the RECIPIENT for the recipient's product, price, job, time or comment (an inbound
 * buyer, applicant, journalist or customer) and pitches nothing of their own: no strong outreach
 * phrase, no sales tool, no bulk sending, no look-alike domain, no injection, and not a follow-up
 * of the sender's own earlier mail. Cold outreach often asks "could you send me…" too, which is why
 * any pitch cancels the signal.
 */
export function isRecipientRequest(s: Signals): boolean {
  return (
    s.requestPhrases.length > 0 &&
    !s.pitch &&
    !s.outreachTool &&
    !s.injection &&
    !s.riskyDomain &&
    s.esp === null &&
    !s.listUnsubscribe &&
    !s.selfThread &&
    !s.quotesOwnMail
  )
}

/**
 * Sent by a list the person joined (issue 15: unwanted needs positive evidence): mailing-list or bulk
 * headers, an e-mail service's fingerprints, a feedback id, or a subscription confirmation or welcome.
 * Such mail is informational, promotional or transactional whatever its marketing or fundraising
 * wording. What still counts as evidence of a personal solicitation, list headers or not: a
 * sales-engagement tool, a follow-up of the sender's own earlier mail, a fake reply with a pitch, and
 * text aimed at the classifier; and against the weaker signs only (unsubscribe header, feedback id,
 * e-mail service), a phrase of the outreach lexicon.
 */
export function isListMail(s: Signals): boolean {
  if (s.outreachTool || s.injection || s.selfThread || s.quotesOwnMail || s.fakeReplySuspicious) return false
  // Only lists and bulk senders set these: mailing-list headers, bulk precedence, a subscription confirmation.
  const list = s.listId || s.precedence === 'bulk' || s.precedence === 'list' || s.transactional === 'subscription'
  // These are list evidence too, but sequencers and relays add them to cold mail as well (every bulk
  // sender must offer one-click unsubscribe since 2024): a phrase of a sales pitch outweighs them.
  const sentInBulk = s.listUnsubscribe || s.feedbackId || s.esp !== null
  return list || (sentInBulk && !s.pitch && s.outreachPhrases.length === 0)
}

function listReason(s: Signals): string {
  const how = bulkReason(s)
  const what = how ? how.charAt(0).toLowerCase() + how.slice(1) : 'confirms a subscription'
  return `Sent to a list you joined (it ${what}): list mail is never treated as cold outreach`
}

export function isAllowed(category: Category, settings: ClassifierSettings): boolean {
  switch (category) {
    case 'genuine':
      return true
    case 'unwanted':
      return false
    case 'informational':
      return settings.allowInformational
    case 'promotional':
      return settings.allowPromotional
    case 'transactional':
      return settings.allowTransactional
  }
}

function clampThreshold(t: number): number {
  if (!Number.isFinite(t)) return 0.7
  return Math.min(1, Math.max(0.1, t))
}

function actionFor(category: Category, confidence: number, settings: ClassifierSettings): 'keep' | 'filter' {
  if (isAllowed(category, settings)) return 'keep'
  return confidence >= clampThreshold(settings.confidenceThreshold) ? 'filter' : 'keep'
}

/** Confidence given to the wanted kind a calendar invitation or update implies (informational). */
const CALENDAR_KIND_CONFIDENCE = 0.8

function bestWanted(p: Prediction, s: Signals): { category: WantedCategory; p: number } {
  // Calendar invitations and updates are informational by definition (docs/classifier.md).
  if (s.calendar) return { category: 'informational', p: Math.max(p.wanted[1] as number, CALENDAR_KIND_CONFIDENCE) }
  let best = 0
  for (let i = 1; i < WANTED_CATEGORIES.length; i++) if ((p.wanted[i] as number) > (p.wanted[best] as number)) best = i
  // List mail is not "a person writing" either: the likeliest of the other wanted kinds.
  if (best === 0 && isListMail(s)) {
    let other = 1
    for (let i = 2; i < WANTED_CATEGORIES.length; i++) if ((p.wanted[i] as number) > (p.wanted[other] as number)) other = i
    const rest = Math.max(1e-9, 1 - (p.wanted[0] as number))
    return { category: WANTED_CATEGORIES[other] as WantedCategory, p: Math.min(1, (p.wanted[other] as number) / rest) }
  }
  // Automated account mail is not "a person writing": when the shield applies, genuine becomes transactional.
  if (best === 0 && isShieldedTransactional(s)) return { category: 'transactional', p: Math.max(p.wanted[3] as number, 1 - (p.wanted[0] as number)) }
  return { category: WANTED_CATEGORIES[best] as WantedCategory, p: p.wanted[best] as number }
}

const logit = (p: number) => Math.log(Math.max(1e-9, p) / Math.max(1e-9, 1 - p))

const round3 = (x: number) => Math.round(x * 1000) / 1000

function finish(category: Category, confidence: number, reasons: string[], source: Decision['source'], settings: ClassifierSettings): Decision {
  const c = round3(Math.min(1, Math.max(0, confidence)))
  const action = actionFor(category, c, settings)
  const out = reasons.slice(0, 6)
  if (!isAllowed(category, settings) && action === 'keep') {
    out.push(`Kept because the confidence (${Math.round(c * 100)} %) is below your threshold (${Math.round(clampThreshold(settings.confidenceThreshold) * 100)} %)`)
  }
  return { category, confidence: c, action, reasons: out, source }
}

export function analyse(message: NormalisedMessage, context: ClassifierContext, model: Model): Analysis {
  const settings = context.settings
  const signals = computeSignals(message, context)
  const prediction = predict(model, extractFeatures(message, signals), true)
  let pUnwanted = sigmoid(prediction.logit + STRICTNESS_OFFSET[settings.strictness])
  // Nobody writing in good faith tells the filter what to decide (prompt injection); and strangers
  // who write through a sales-engagement tool are running an outbound sequence.
  if (signals.injection) pUnwanted = Math.max(pUnwanted, INJECTION_FLOOR)
  if (signals.outreachTool) pUnwanted = Math.max(pUnwanted, OUTREACH_TOOL_FLOOR)
  const adjustments: string[] = []
  if (isRecipientRequest(signals)) {
    pUnwanted = sigmoid(logit(pUnwanted) - Math.log(REQUEST_ODDS_DIVISOR))
    adjustments.push(requestReason(signals.requestKind, signals.requestPhrases))
  }
  if (isShieldedTransactional(signals)) {
    if (pUnwanted >= 0.5) adjustments.push('Automated account mail (receipts, codes, alerts) with no sales pitch is never treated as cold outreach')
    pUnwanted = Math.min(pUnwanted, TRANSACTIONAL_CEILING)
  }
  if (isListMail(signals)) {
    if (pUnwanted >= 0.5) adjustments.push(listReason(signals))
    pUnwanted = Math.min(pUnwanted, LIST_CEILING)
  }
  const wanted = bestWanted(prediction, signals)
  let ruleDecision: Decision | null = null

  if (signals.whitelisted) {
    // Whitelist wins over everything, the blacklist included: moving wanted mail is the worst failure.
    ruleDecision = {
      category: wanted.category,
      confidence: 1,
      action: 'keep',
      reasons: [`The sender's domain ${signals.whitelisted} is on your whitelist`, ...signalReasons(signals, wanted.category).slice(0, 2)],
      source: 'rule',
    }
  } else if (signals.self) {
    ruleDecision = finish('genuine', 1, ['You sent this message yourself'], 'rule', settings)
  } else if (signals.blacklisted) {
    ruleDecision = finish('unwanted', 1, [`The sender's domain ${signals.blacklisted} is on your blacklist`], 'rule', settings)
  } else if (signals.knownContact || signals.knownDomain || signals.sameOrg) {
    const why = signals.knownContact
      ? 'You have written to this sender before'
      : signals.sameOrg
        ? `The sender is from your own organisation (${signals.senderOrg})`
        : `You have written to people at ${signals.senderOrg} before`
    // Never unwanted; the wanted kind still comes from the model so allow toggles keep working.
    const extra = signalReasons(signals, wanted.category).filter((r) => !r.includes('cold outreach') && !r.includes('“Re:”'))
    ruleDecision = finish(wanted.category, wanted.p, [why, ...extra.slice(0, 2)], pUnwanted >= 0.5 ? 'rule' : 'model', settings)
  }
  return { signals, prediction, pUnwanted, ruleDecision, adjustments }
}

function decideFromModel(a: Analysis, settings: ClassifierSettings): Decision {
  const wanted = bestWanted(a.prediction, a.signals)
  if (a.pUnwanted >= 0.5) {
    const reasons = [...signalReasons(a.signals, 'unwanted'), ...modelReasons(a.prediction, 'unwanted', a.pUnwanted)]
    if (a.signals.injection) reasons.unshift(INJECTION_REASON)
    return finish('unwanted', a.pUnwanted, reasons, 'model', settings)
  }
  const confidence = (1 - a.pUnwanted) * wanted.p
  const reasons = [...a.adjustments, ...signalReasons(a.signals, wanted.category), ...modelReasons(a.prediction, wanted.category, a.pUnwanted)]
  return finish(wanted.category, confidence, reasons, 'model', settings)
}

/** A message without a sender (a fragment, a broken export) is never moved, whatever it looks like. */
function neverMoveSenderless(message: NormalisedMessage, d: Decision): Decision {
  if (d.action !== 'filter' || message.from?.address) return d
  return { ...d, action: 'keep', reasons: [...d.reasons.slice(0, 5), SENDERLESS_REASON] }
}

/** Classifies with rules and the local model only: synchronous, no I/O. */
export function classify(message: NormalisedMessage, context: ClassifierContext, model: Model): Decision {
  const a = analyse(message, context, model)
  return neverMoveSenderless(message, a.ruleDecision ?? decideFromModel(a, context.settings))
}

export function inLlmBand(a: Analysis): boolean {
  return a.ruleDecision === null && a.pUnwanted >= (LLM_BAND[0] as number) && a.pUnwanted < (LLM_BAND[1] as number)
}

/**
 * Combines the local model with an LLM verdict. The LLM's view is averaged with the model's and may
 * move the unwanted probability by at most LLM_MAX_SHIFT; when the message contains text addressed
 * to an AI classifier, the LLM may only make the decision stricter, never keep the message.
 */
export function mergeLlmVerdict(a: Analysis, verdict: LlmVerdict, settings: ClassifierSettings): Decision {
  const conf = Math.min(1, Math.max(0, verdict.confidence))
  const llmP = verdict.category === 'unwanted' ? conf : 1 - conf
  let p = 0.5 * a.pUnwanted + 0.5 * llmP
  p = Math.min(a.pUnwanted + LLM_MAX_SHIFT, Math.max(a.pUnwanted - LLM_MAX_SHIFT, p))
  // The AI review does not overrule the list rule: list mail stays wanted mail.
  if (isListMail(a.signals)) p = Math.min(p, LIST_CEILING)
  const reasons: string[] = []
  if (a.signals.injection) {
    p = Math.max(p, a.pUnwanted)
    reasons.push(INJECTION_REASON + ', so the AI review could not lower its score')
  }
  if (p >= 0.5) {
    reasons.push(...signalReasons(a.signals, 'unwanted'), `AI review: ${verdict.reason}`.slice(0, 200))
    return finish('unwanted', p, reasons, 'llm', settings)
  }
  const model = bestWanted(a.prediction, a.signals)
  const category: WantedCategory =
    verdict.category !== 'unwanted' && !a.signals.injection ? (verdict.category as WantedCategory) : model.category
  reasons.push(...signalReasons(a.signals, category), `AI review: ${verdict.reason}`.slice(0, 200))
  return finish(category, 1 - p, reasons, 'llm', settings)
}

export interface Classifier {
  classify(message: NormalisedMessage, context: ClassifierContext): Decision
  /** Like classify, but asks the LLM (when configured) about messages in the uncertain band. */
  classifyWithLlm(message: NormalisedMessage, context: ClassifierContext): Promise<Decision>
}

export function createClassifier(options: { model: Model; llm?: LlmJudge }): Classifier {
  const { model, llm } = options
  return {
    classify: (message, context) => classify(message, context, model),
    async classifyWithLlm(message, context) {
      const a = analyse(message, context, model)
      if (a.ruleDecision) return neverMoveSenderless(message, a.ruleDecision)
      if (!llm || !inLlmBand(a)) return neverMoveSenderless(message, decideFromModel(a, context.settings))
      let verdict: LlmVerdict | null = null
      try {
        verdict = await llm.judge(message)
      } catch {
        verdict = null
      }
      if (!verdict) return neverMoveSenderless(message, decideFromModel(a, context.settings))
      return neverMoveSenderless(message, mergeLlmVerdict(a, verdict, context.settings))
    },
  }
}
