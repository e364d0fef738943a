import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm'
import type { Classifier } from '#classifier/classify.ts'
import { domainOf, parseRawMessage } from '#classifier/message.ts'
import { domainMatches, orgDomainOf, PUBLIC_DOMAINS } from '#classifier/signals.ts'
import type { ClassifierContext, Decision } from '#classifier/types.ts'
import type { Database } from '#server/db/client.ts'
import { correspondenceCache, decisions, domainListEntries, mailboxes, messageFailures, senderRules, usageCounts, type MailboxRow } from '#server/db/schema.ts'
import { readSettings } from '#server/features/settings/settings.service.ts'
import { countLeftAlone, FREE_PLAN_LIMIT, monthlyAllowance } from '#server/features/billing/billing.service.ts'
import { MailAuthRevokedError, MailProviderError, type MailCategory, type MailProvider } from '#server/integrations/mail/mail-provider.ts'
import type { SyncReason } from '#server/jobs/mailbox-sync.job.ts'

/** A message that fails this many syncs in a row is recorded as skipped and left in the inbox. */
export const MAX_MESSAGE_ATTEMPTS = 3
/** Cursor recovery lists Inbox mail back to the last decided message, at most this far and this many. */
export const RECOVERY_WINDOW_MS = 7 * 24 * 3600_000
export const RECOVERY_MAX_MESSAGES = 500
/** Prior correspondence is asked of the provider at most this often per sender. */
export const CORRESPONDENCE_TTL_MS = 7 * 24 * 3600_000
const SUBJECT_MAX = 120
/** How long a move is held by whoever started it; a holder that died frees it after this. */
export const APPLY_CLAIM_MS = 2 * 60_000

export interface PipelineDeps {
  db: Database
  classifier: Classifier
  adapterFor(row: MailboxRow): MailProvider
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void }
  now?: () => Date
  /** Plans' monthly limits apply (billing is configured); without billing nothing is limited. */
  monthlyLimits?: boolean
}

export interface SyncResult {
  mailboxId: number
  reason: SyncReason
  decided: number
  filed: number
  skipped: number
  /** Messages that failed this time and will be tried again. */
  retrying: number
  recovered: boolean
}

/** The sync must run again: some message failed below its last try, or the provider is throttling. */
export class SyncIncompleteError extends Error {
  override name = 'SyncIncompleteError'
}

type DecidedBy = 'whitelist' | 'blacklist' | 'sender_rule' | 'classifier'
type SenderRule = { action: 'trust' | 'file'; source: 'restore' | 'flag' | 'mail_app' }

/** Corrections of this many different senders of one organisation apply to the whole organisation. */
export const DOMAIN_RULE_MIN_SENDERS = 2

/** Organisation-wide corrections: at least DOMAIN_RULE_MIN_SENDERS senders corrected one way, none the other. */
function domainRulesOf(rules: Map<string, SenderRule>) {
  const tally = new Map<string, { trust: number; file: number }>()
  for (const [address, rule] of rules) {
    const domain = domainOf(address)
    if (!domain || PUBLIC_DOMAINS.has(domain)) continue
    const org = orgDomainOf(domain)
    const t = tally.get(org) ?? { trust: 0, file: 0 }
    t[rule.action]++
    tally.set(org, t)
  }
  const out = new Map<string, { action: SenderRule['action']; senders: number }>()
  for (const [org, t] of tally) {
    if (t.trust >= DOMAIN_RULE_MIN_SENDERS && t.file === 0) out.set(org, { action: 'trust', senders: t.trust })
    else if (t.file >= DOMAIN_RULE_MIN_SENDERS && t.trust === 0) out.set(org, { action: 'file', senders: t.file })
  }
  return out
}

/** The reason shown for a decision the person's own correction made. */
function correctionReason(rule: SenderRule): string {
  if (rule.action === 'file') return 'You marked mail from this sender as cold'
  return rule.source === 'mail_app' ? 'You moved mail from this sender back to your inbox, so it stays there' : 'You restored mail from this sender, so it stays in your inbox'
}

const monthOf = (date: Date) => date.toISOString().slice(0, 7)
const senderOf = (address: string | undefined) => (address ?? '').trim().toLowerCase()

/**
 * Processes one mailbox (DESIGN "pipeline/", issue 13): cursor → new message ids → for each one not yet
 * decided: fetch → classify with the person's settings, lists, own sender rules and prior
 * correspondence → record the decision and the month's usage in one transaction → file it away when its
 * category is not allowed and its confidence reaches the threshold. The cursor advances only after the
 * whole batch. Bodies exist only in this function's memory.
 */
export async function syncMailbox(deps: PipelineDeps, mailboxId: number, reason: SyncReason): Promise<SyncResult> {
  const { db, log } = deps
  const now = deps.now ?? (() => new Date())
  const result: SyncResult = { mailboxId, reason, decided: 0, filed: 0, skipped: 0, retrying: 0, recovered: false }

  const [row] = await db.select().from(mailboxes).where(eq(mailboxes.id, mailboxId)).limit(1)
  if (!row || row.status !== 'connected' || !row.refreshToken) return result
  const provider = deps.adapterFor(row)

  try {
    // A crash between recording a decision and the provider's move leaves it pending: finish it first.
    await applyPending(deps, row, provider)

    if (!row.syncCursor) {
      await db.update(mailboxes).set({ syncCursor: await provider.currentCursor(), lastSyncAt: now() }).where(eq(mailboxes.id, mailboxId))
      return result
    }

    let ids: string[]
    let nextCursor: string
    const listed = await provider.listNewMessageIds(row.syncCursor)
    if (listed.kind === 'ok') {
      ids = listed.ids
      nextCursor = listed.nextCursor
    } else {
      // Too old a cursor (Gmail 404, Graph delta reset): list the Inbox back to the last decided
      // message instead of skipping what arrived meanwhile; decided mail is never decided again.
      result.recovered = true
      nextCursor = await provider.currentCursor()
      const floor = now().getTime() - RECOVERY_WINDOW_MS
      const since = new Date(Math.max(floor, (row.lastProcessedAt ?? row.connectedAt).getTime() - 60_000))
      ids = await provider.listRecentInboxIds(since, RECOVERY_MAX_MESSAGES)
      log.warn({ mailboxId, count: ids.length, since: since.toISOString() }, 'sync cursor expired: recovering from the inbox')
    }

    const settings = await readSettings(db, row.userId)
    if (!settings.filteringEnabled) {
      // Filtering off: new mail is left alone and is not processed later (issue 13).
      await db.update(mailboxes).set({ syncCursor: nextCursor, lastSyncAt: now() }).where(eq(mailboxes.id, mailboxId))
      return result
    }

    const context = await loadContext(db, row, settings, ids)
    // The free plan's monthly limit (issue 16): past it, new mail is left untouched, not half-processed,
    // and not processed later (the cursor moves on); the person sees how many and why.
    let allowance = deps.monthlyLimits ? await monthlyAllowance(db, row.userId, now()) : Number.POSITIVE_INFINITY
    // The exact check happens where usage is counted, in the decision's transaction (limitedTo).
    context.limitedTo = Number.isFinite(allowance) ? FREE_PLAN_LIMIT : null
    let leftAlone = 0
    let newest = row.lastProcessedAt
    for (const id of ids) {
      if (allowance <= 0 && !context.decidedBefore.has(id)) {
        leftAlone++
        continue
      }
      const outcome = await processMessage(deps, row, provider, context, id)
      if (outcome.kind === 'decided') allowance--
      if (outcome.kind === 'over_limit') {
        allowance = 0
        leftAlone++
      }
      if (outcome.kind === 'decided') {
        result.decided++
        if (outcome.filed) result.filed++
        if (!newest || outcome.receivedAt > newest) newest = outcome.receivedAt
      } else if (outcome.kind === 'skipped') result.skipped++
      else if (outcome.kind === 'retry') result.retrying++
    }

    if (result.retrying > 0) {
      // Keep the cursor: the next run lists the same messages, skips the decided ones, and retries the rest.
      await db.update(mailboxes).set({ lastProcessedAt: newest, lastSyncAt: now() }).where(eq(mailboxes.id, mailboxId))
      throw new SyncIncompleteError(`${result.retrying} message(s) failed and will be retried`)
    }
    await countLeftAlone(db, row.userId, leftAlone, now())
    if (leftAlone > 0) log.info({ mailboxId, leftAlone }, 'monthly limit reached: new mail left untouched')
    await db.update(mailboxes).set({ syncCursor: nextCursor, lastProcessedAt: newest, lastSyncAt: now() }).where(eq(mailboxes.id, mailboxId))
    if (result.decided > 0 || result.skipped > 0 || result.recovered) log.info({ ...result }, 'mailbox synced')
    return result
  } catch (error) {
    if (error instanceof MailAuthRevokedError) {
      // The credentials already marked the mailbox; the person sees Reconnect. Nothing to retry.
      log.warn({ mailboxId }, 'sync stopped: the grant was revoked')
      return result
    }
    throw error
  }
}

interface Context {
  classifier: Omit<ClassifierContext, 'knownAddresses' | 'knownDomains'>
  whitelist: string[]
  blacklist: string[]
  /** The person's corrections per sender address (restore / "This is cold" / moved in the mail app). */
  rules: Map<string, SenderRule>
  /** Corrections that apply to a whole non-free-mail organisation: several of its senders, all one way. */
  domainRules: Map<string, { action: SenderRule['action']; senders: number }>
  /** Of the listed messages, those decided before this sync started (one query for the batch). */
  decidedBefore: Set<string>
  /** Of the listed messages, those that failed before and have a failure row to clear on success. */
  failedBefore: Set<string>
  /** The month's limit of decided messages when one applies (the free plan), else null. */
  limitedTo?: number | null
}

/** Thrown inside the decision's transaction when counting it would pass the month's limit: nothing is kept. */
class OverLimit extends Error {}

async function loadContext(db: Database, row: MailboxRow, settings: Awaited<ReturnType<typeof readSettings>>, ids: string[]): Promise<Context> {
  // In slices, so a long catch-up stays within the database's limit on query parameters.
  const slices = Array.from({ length: Math.ceil(ids.length / 1000) }, (_, i) => ids.slice(i * 1000, (i + 1) * 1000))
  const [lists, rules, decided, failed] = await Promise.all([
    db.select({ kind: domainListEntries.kind, domain: domainListEntries.domain }).from(domainListEntries).where(eq(domainListEntries.userId, row.userId)),
    db.select({ address: senderRules.address, action: senderRules.action, source: senderRules.source }).from(senderRules).where(eq(senderRules.userId, row.userId)),
    Promise.all(
      slices.map((slice) =>
        db.select({ id: decisions.providerMessageId }).from(decisions).where(and(eq(decisions.mailboxId, row.id), inArray(decisions.providerMessageId, slice))),
      ),
    ),
    Promise.all(
      slices.map((slice) =>
        db
          .select({ id: messageFailures.providerMessageId })
          .from(messageFailures)
          .where(and(eq(messageFailures.mailboxId, row.id), inArray(messageFailures.providerMessageId, slice))),
      ),
    ),
  ])
  const whitelist = lists.filter((l) => l.kind === 'whitelist').map((l) => l.domain)
  const ruleMap = new Map<string, SenderRule>(rules.map((r) => [r.address, { action: r.action, source: r.source }]))
  const blacklist = lists.filter((l) => l.kind === 'blacklist').map((l) => l.domain)
  const me = row.emailAddress.toLowerCase()
  const myDomain = orgDomainOf(domainOf(me))
  return {
    classifier: {
      me,
      orgDomain: PUBLIC_DOMAINS.has(myDomain) ? null : myDomain,
      whitelistDomains: whitelist,
      blacklistDomains: blacklist,
      settings: {
        allowInformational: settings.allowInformational,
        allowPromotional: settings.allowPromotional,
        allowTransactional: settings.allowTransactional,
        confidenceThreshold: settings.confidenceThreshold,
        strictness: settings.strictnessLevel,
      },
    },
    whitelist,
    blacklist,
    rules: ruleMap,
    domainRules: domainRulesOf(ruleMap),
    decidedBefore: new Set(decided.flat().map((d) => d.id)),
    failedBefore: new Set(failed.flat().map((f) => f.id)),
  }
}

type Outcome = { kind: 'decided'; filed: boolean; receivedAt: Date } | { kind: 'already' } | { kind: 'gone' } | { kind: 'skipped' } | { kind: 'retry' } | { kind: 'over_limit' }

async function processMessage(deps: PipelineDeps, row: MailboxRow, provider: MailProvider, context: Context, id: string): Promise<Outcome> {
  const { db } = deps
  // Most listed messages are new: only those decided before are looked at one by one.
  const [existing] = context.decidedBefore.has(id)
    ? await db
        .select({ id: decisions.id, state: decisions.state, appliedAt: decisions.appliedAt, senderAddress: decisions.senderAddress })
        .from(decisions)
        .where(and(eq(decisions.mailboxId, row.id), eq(decisions.providerMessageId, id)))
        .limit(1)
    : []
  if (existing) {
    // Listed again after we filed it: either the same history read twice (the cursor had not moved), or
    // the person moved it back to the inbox themselves. Only the provider knows which.
    if ((existing.state === 'filed' || existing.state === 'flagged') && existing.appliedAt && (await provider.isInInbox(id).catch(() => false)) === true) {
      await recordRestoredInMailApp(db, row.userId, existing.id, existing.senderAddress)
    }
    return { kind: 'already' }
  }

  try {
    const fetched = await provider.fetchMessage(id)
    if (!fetched) return { kind: 'gone' }
    const message = parseRawMessage(fetched.raw)
    const sender = senderOf(message.from?.address)
    const { decision, decidedBy } = await decide(deps, row, provider, context, message, sender)
    const filed = decision.action === 'filter'
    const decidedAt = new Date()
    const inserted = await db.transaction(async (tx) => {
      const [saved] = await tx
        .insert(decisions)
        .values({
          userId: row.userId,
          mailboxId: row.id,
          provider: row.provider,
          providerMessageId: id,
          receivedAt: fetched.receivedAt,
          decidedAt,
          senderAddress: sender || '(unknown)',
          senderName: message.from?.name?.slice(0, 200) || null,
          subject: (message.subject || '(no subject)').slice(0, SUBJECT_MAX),
          category: decision.category,
          confidence: Math.round(decision.confidence * 1000) / 1000,
          action: filed ? 'filed' : 'kept',
          state: filed ? 'filed' : 'kept',
          reasons: decision.reasons.slice(0, 6),
          decidedBy,
          appliedAt: filed ? null : decidedAt,
          // Recording the decision claims its move, so a concurrent sync's applyPending leaves it alone.
          applyClaimedUntil: filed ? new Date(decidedAt.getTime() + APPLY_CLAIM_MS) : null,
        })
        .onConflictDoNothing()
        .returning({ id: decisions.id })
      // Another worker decided it meanwhile: neither counted nor acted on twice.
      if (!saved) return null
      const [counted] = await tx
        .insert(usageCounts)
        .values({ userId: row.userId, month: monthOf(decidedAt), emailsProcessed: 1 })
        .onConflictDoUpdate({ target: [usageCounts.userId, usageCounts.month], set: { emailsProcessed: sql`${usageCounts.emailsProcessed} + 1` } })
        .returning({ n: usageCounts.emailsProcessed })
      // The count row is locked until commit, so concurrent syncs cannot both take the last place.
      if (context.limitedTo != null && counted!.n > context.limitedTo) throw new OverLimit()
      if (context.failedBefore.has(id)) await tx.delete(messageFailures).where(and(eq(messageFailures.mailboxId, row.id), eq(messageFailures.providerMessageId, id)))
      return saved
    })
    if (!inserted) return { kind: 'already' }
    if (filed) await applyMove(db, provider, inserted.id, id, 'file', decision.category)
    return { kind: 'decided', filed, receivedAt: fetched.receivedAt }
  } catch (error) {
    if (error instanceof OverLimit) return { kind: 'over_limit' }
    if (error instanceof MailAuthRevokedError) throw error
    // Throttling or an outage concerns the whole mailbox, not this message: stop and retry the sync later.
    if (error instanceof MailProviderError && (error.status === 429 || error.status === 503 || error.status === 0)) throw error
    return recordFailure(deps, row, id, error)
  }
}

async function decide(deps: PipelineDeps, row: MailboxRow, provider: MailProvider, context: Context, message: ReturnType<typeof parseRawMessage>, sender: string) {
  const domain = domainOf(sender)
  const listed = domain ? (domainMatches(domain, context.whitelist) ? 'whitelist' : domainMatches(domain, context.blacklist) ? 'blacklist' : null) : null
  // Precedence, first match wins: whitelist, blacklist (both applied by the classifier's rules),
  // the person's own sender rules, then the classifier with prior correspondence.
  if (listed) return { decision: deps.classifier.classify(message, { ...context.classifier, knownAddresses: [], knownDomains: [] }), decidedBy: listed as DecidedBy }
  // The person's corrections: for this address, else for its organisation once several of its senders were corrected alike.
  const own = context.rules.get(sender)
  const org = domain && !PUBLIC_DOMAINS.has(domain) ? orgDomainOf(domain) : ''
  const orgRule = own ? undefined : context.domainRules.get(org)
  if (own || orgRule) {
    const action = own?.action ?? orgRule!.action
    const reason = own
      ? correctionReason(own)
      : action === 'trust'
        ? `You restored mail from ${orgRule!.senders} senders at ${org}, so mail from there stays in your inbox`
        : `You marked mail from ${orgRule!.senders} senders at ${org} as cold`
    const base = deps.classifier.classify(message, { ...context.classifier, knownAddresses: [sender], knownDomains: [] })
    const decision: Decision =
      action === 'trust'
        ? { ...base, category: base.category === 'unwanted' ? 'genuine' : base.category, action: 'keep', reasons: [reason] }
        : { category: 'unwanted', confidence: 1, action: 'filter', source: 'rule', reasons: [reason] }
    return { decision, decidedBy: 'sender_rule' as DecidedBy }
  }
  const known = await priorCorrespondence(deps, row, provider, sender)
  // The optional LLM is asked about the uncertain band only (docs/classifier.md); without one, the model decides.
  const decision = await deps.classifier.classifyWithLlm(message, {
    ...context.classifier,
    knownAddresses: known.address ? [sender] : [],
    knownDomains: known.domain ? [orgDomainOf(domain)] : [],
  })
  return { decision, decidedBy: 'classifier' as DecidedBy }
}

/**
 * Whether the person has written to this sender (and to anyone at its organisation, for non-public
 * domains), cached per mailbox. Any error counts as "has written": fail toward not filing (field.md).
 */
async function priorCorrespondence(deps: PipelineDeps, row: MailboxRow, provider: MailProvider, sender: string) {
  if (!sender) return { address: false, domain: false }
  const domain = orgDomainOf(domainOf(sender))
  const subjects = [sender, ...(domain && !PUBLIC_DOMAINS.has(domain) ? [domain] : [])]
  const fresh = new Date(Date.now() - CORRESPONDENCE_TTL_MS)
  const cached = await deps.db
    .select({ subject: correspondenceCache.subject, hasWritten: correspondenceCache.hasWritten, checkedAt: correspondenceCache.checkedAt })
    .from(correspondenceCache)
    .where(and(eq(correspondenceCache.mailboxId, row.id), inArray(correspondenceCache.subject, subjects)))
  const answers = new Map(cached.filter((c) => c.checkedAt > fresh).map((c) => [c.subject, c.hasWritten]))
  for (const subject of subjects) {
    if (answers.has(subject)) continue
    let hasWritten: boolean
    try {
      hasWritten = await provider.hasWrittenTo(subject)
    } catch (error) {
      if (error instanceof MailAuthRevokedError) throw error
      answers.set(subject, true)
      continue
    }
    answers.set(subject, hasWritten)
    await deps.db
      .insert(correspondenceCache)
      .values({ mailboxId: row.id, subject, hasWritten, checkedAt: new Date() })
      .onConflictDoUpdate({ target: [correspondenceCache.mailboxId, correspondenceCache.subject], set: { hasWritten, checkedAt: new Date() } })
  }
  return { address: answers.get(sender) ?? false, domain: subjects[1] ? (answers.get(subjects[1]) ?? false) : false }
}

async function recordFailure(deps: PipelineDeps, row: MailboxRow, id: string, error: unknown): Promise<Outcome> {
  const { db } = deps
  const reason = describeFailure(error)
  const [failure] = await db
    .insert(messageFailures)
    .values({ mailboxId: row.id, providerMessageId: id, attempts: 1, lastError: reason })
    .onConflictDoUpdate({
      target: [messageFailures.mailboxId, messageFailures.providerMessageId],
      set: { attempts: sql`${messageFailures.attempts} + 1`, lastError: reason, updatedAt: new Date() },
    })
    .returning({ attempts: messageFailures.attempts })
  deps.log.warn({ mailboxId: row.id, attempts: failure?.attempts, reason }, 'a message could not be processed')
  if ((failure?.attempts ?? 1) < MAX_MESSAGE_ATTEMPTS) return { kind: 'retry' }
  // Given up: recorded as skipped with the reason, left in the inbox, and the mailbox moves on.
  await db
    .insert(decisions)
    .values({
      userId: row.userId,
      mailboxId: row.id,
      provider: row.provider,
      providerMessageId: id,
      receivedAt: new Date(),
      senderAddress: '(unknown)',
      subject: '(could not be read)',
      category: 'genuine',
      confidence: 0,
      action: 'skipped',
      state: 'skipped',
      reasons: [`Left in your inbox: it could not be processed after ${MAX_MESSAGE_ATTEMPTS} tries (${reason})`],
      decidedBy: 'error',
      appliedAt: new Date(),
    })
    .onConflictDoNothing()
  return { kind: 'skipped' }
}

/** A reason safe to store and show: the error's kind and code, never its message (it may quote mail). */
function describeFailure(error: unknown): string {
  if (error instanceof MailProviderError) return `${error.name} ${error.status}${error.code ? ` ${error.code}` : ''}`.slice(0, 200)
  return (error instanceof Error ? error.name : 'Error').slice(0, 200)
}

/** The move a decision stands for: file (filed/flagged) or back to the inbox (restored). */
type Move = 'file' | 'restore'

const statesOf = (move: Move) => (move === 'file' ? (['filed', 'flagged'] as const) : (['restored'] as const))

/**
 * Claims a pending decision's move for APPLY_CLAIM_MS: only one sync, worker or restore moves a message
 * at a time, so the provider is never asked twice. False when it is applied or someone holds it.
 */
export async function claimMove(db: Database, decisionId: number): Promise<boolean> {
  const now = new Date()
  const claimed = await db
    .update(decisions)
    .set({ applyClaimedUntil: new Date(now.getTime() + APPLY_CLAIM_MS) })
    .where(and(eq(decisions.id, decisionId), isNull(decisions.appliedAt), or(isNull(decisions.applyClaimedUntil), lt(decisions.applyClaimedUntil, now))))
    .returning({ id: decisions.id })
  return claimed.length > 0
}

/**
 * Asks the provider to move the message and marks the decision applied; the caller holds the claim
 * (claimMove, or the insert that recorded the decision). A failure leaves it pending (applyPending
 * finishes it on a later sync); the decision itself stands. If the person changed the decision while
 * the move was on its way, it stays pending, so the next sync makes the mailbox match their choice.
 */
export async function applyMove(db: Database, provider: MailProvider, decisionId: number, messageId: string, move: Move, category: MailCategory): Promise<boolean> {
  try {
    if (move === 'file') await provider.fileAway(messageId, category)
    else await provider.restore(messageId, category)
  } catch (error) {
    await db.update(decisions).set({ applyAttempts: sql`${decisions.applyAttempts} + 1`, applyClaimedUntil: null }).where(eq(decisions.id, decisionId))
    if (error instanceof MailAuthRevokedError) throw error
    return false
  }
  const applied = await db
    .update(decisions)
    .set({ appliedAt: new Date(), applyClaimedUntil: null })
    .where(and(eq(decisions.id, decisionId), inArray(decisions.state, [...statesOf(move)])))
    .returning({ id: decisions.id })
  if (applied.length === 0) await db.update(decisions).set({ applyClaimedUntil: null }).where(eq(decisions.id, decisionId))
  return true
}

async function applyPending(deps: PipelineDeps, row: MailboxRow, provider: MailProvider) {
  const now = new Date()
  const pending = await deps.db
    .select({ id: decisions.id, messageId: decisions.providerMessageId, state: decisions.state, category: decisions.category })
    .from(decisions)
    .where(
      and(
        eq(decisions.mailboxId, row.id),
        isNull(decisions.appliedAt),
        lt(decisions.applyAttempts, MAX_MESSAGE_ATTEMPTS * 3),
        or(isNull(decisions.applyClaimedUntil), lt(decisions.applyClaimedUntil, now)),
      ),
    )
    .limit(100)
  for (const p of pending) {
    if (!(await claimMove(deps.db, p.id))) continue
    const move: Move = p.state === 'restored' ? 'restore' : 'file'
    // Look before moving: the process may have died after the provider moved it, before the record.
    let inInbox: boolean | null
    try {
      inInbox = await provider.isInInbox(p.messageId)
    } catch (error) {
      await deps.db.update(decisions).set({ applyClaimedUntil: null }).where(eq(decisions.id, p.id))
      if (error instanceof MailAuthRevokedError) throw error
      continue
    }
    if (inInbox === null || inInbox === (move === 'restore')) {
      await deps.db.update(decisions).set({ appliedAt: new Date(), applyClaimedUntil: null }).where(eq(decisions.id, p.id))
      continue
    }
    await applyMove(deps.db, provider, p.id, p.messageId, move, p.category)
  }
}

/** The person moved a filed message back to the inbox in Gmail or Outlook: a restore, and the sender is trusted. */
async function recordRestoredInMailApp(db: Database, userId: number, decisionId: number, sender: string) {
  await db.transaction(async (tx) => {
    await tx.update(decisions).set({ state: 'restored' }).where(and(eq(decisions.id, decisionId), inArray(decisions.state, ['filed', 'flagged'])))
    if (sender && sender !== '(unknown)') {
      await tx
        .insert(senderRules)
        .values({ userId, address: sender, action: 'trust', source: 'mail_app' })
        .onConflictDoUpdate({ target: [senderRules.userId, senderRules.address], set: { action: 'trust', source: 'mail_app', updatedAt: new Date() } })
    }
  })
}
