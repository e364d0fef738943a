import { and, count, desc, eq, gte, inArray, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { decisions, mailboxes, senderRules } from '#server/db/schema.ts'
import type { MailboxService } from '#server/features/mailboxes/mailboxes.service.ts'
import { applyMove, claimMove } from '#server/pipeline/sync-mailbox.ts'
import type { DecisionItem, MailCategoryName } from '#shared/api/activity.ts'

type DecisionRow = typeof decisions.$inferSelect

export class ActivityError extends Error {
  constructor(
    readonly status: 404 | 409,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

export const toDecisionItem = (row: DecisionRow): DecisionItem => ({
  id: row.id,
  provider: row.provider,
  receivedAt: row.receivedAt.toISOString(),
  decidedAt: row.decidedAt.toISOString(),
  senderAddress: row.senderAddress,
  senderName: row.senderName,
  subject: row.subject,
  category: row.category,
  confidence: row.confidence,
  action: row.action,
  state: row.state,
  reasons: row.reasons,
  decidedBy: row.decidedBy,
})

const OUT_OF_INBOX = ['filed', 'flagged'] as const
const IN_INBOX = ['kept', 'restored', 'skipped'] as const
const CATEGORIES: readonly MailCategoryName[] = ['genuine', 'informational', 'promotional', 'transactional', 'unwanted']

/**
 * Review and corrections (issue 13): the person's decisions, and the two corrections. Each correction
 * is stored for the sender's address in sender_rules (restored senders are trusted from then on,
 * flagged ones filed away) and moves the message; if the provider does not answer, the decision stays
 * pending and the next sync moves it.
 */
export function createActivityService({ db, mailboxes: mailboxService }: { db: Database; mailboxes: Pick<MailboxService, 'adapterFor' | 'label'> }) {
  async function list(userId: number, query: { page: number; limit: number; category?: MailCategoryName; filed?: 'true' | 'false' }) {
    const where = and(
      eq(decisions.userId, userId),
      query.category ? eq(decisions.category, query.category) : undefined,
      query.filed === 'true' ? inArray(decisions.state, [...OUT_OF_INBOX]) : query.filed === 'false' ? inArray(decisions.state, [...IN_INBOX]) : undefined,
    )
    const [rows, [{ total } = { total: 0 }]] = await Promise.all([
      db
        .select()
        .from(decisions)
        .where(where)
        .orderBy(desc(decisions.decidedAt), desc(decisions.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit),
      db.select({ total: count() }).from(decisions).where(where),
    ])
    const totalRecords = Number(total)
    return {
      items: rows.map(toDecisionItem),
      pagination: { page: query.page, limit: query.limit, totalPages: Math.max(1, Math.ceil(totalRecords / query.limit)), totalRecords },
    }
  }

  /** Decided messages per UTC day and category, every day of the window present (oldest first). */
  async function stats(userId: number, days: number, now: Date = new Date()) {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)))
    const day = sql<string>`to_char(${decisions.decidedAt} at time zone 'UTC', 'YYYY-MM-DD')`
    const rows = await db
      .select({ day, category: decisions.category, state: decisions.state, n: count() })
      .from(decisions)
      .where(and(eq(decisions.userId, userId), gte(decisions.decidedAt, start)))
      .groupBy(day, decisions.category, decisions.state)
    const byDay = new Map<string, { date: string; counts: Record<MailCategoryName, number>; filed: number }>()
    for (let i = 0; i < days; i++) {
      const date = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10)
      byDay.set(date, { date, counts: Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<MailCategoryName, number>, filed: 0 })
    }
    for (const row of rows) {
      const entry = byDay.get(row.day)
      if (!entry || row.state === 'skipped') continue
      entry.counts[row.category] += Number(row.n)
      if ((OUT_OF_INBOX as readonly string[]).includes(row.state)) entry.filed += Number(row.n)
    }
    return { days: [...byDay.values()] }
  }

  async function ownDecision(userId: number, decisionId: number) {
    const [row] = await db
      .select({ decision: decisions, mailbox: mailboxes })
      .from(decisions)
      .innerJoin(mailboxes, eq(mailboxes.id, decisions.mailboxId))
      .where(and(eq(decisions.id, decisionId), eq(decisions.userId, userId)))
      .limit(1)
    // Another user's decision answers exactly like a missing one.
    if (!row) throw new ActivityError(404, 'not_found', 'No such message in your filtered mail.')
    if (row.mailbox.status !== 'connected' || !row.mailbox.refreshToken || row.mailbox.id !== row.decision.mailboxId) {
      throw new ActivityError(409, 'mailbox_not_connected', `Reconnect your ${mailboxService.label(row.mailbox.provider)} mailbox to move this message.`)
    }
    return row
  }

  async function correct(userId: number, decisionId: number, kind: 'restore' | 'flag') {
    const { decision, mailbox } = await ownDecision(userId, decisionId)
    const allowed = kind === 'restore' ? OUT_OF_INBOX : (['kept', 'restored'] as const)
    if (!(allowed as readonly string[]).includes(decision.state)) {
      throw new ActivityError(
        409,
        'wrong_state',
        decision.state === 'skipped'
          ? 'This message was left in your inbox because it could not be processed.'
          : kind === 'restore'
            ? 'This message is already in your inbox.'
            : 'This message is already filed away.',
      )
    }
    const state = kind === 'restore' ? 'restored' : 'flagged'
    const category = kind === 'flag' ? 'unwanted' : decision.category
    const sender = decision.senderAddress
    const [updated] = await db.transaction(async (tx) => {
      if (sender && sender !== '(unknown)') {
        const action = kind === 'restore' ? 'trust' : 'file'
        await tx
          .insert(senderRules)
          .values({ userId, address: sender, action, source: kind })
          .onConflictDoUpdate({ target: [senderRules.userId, senderRules.address], set: { action, source: kind, updatedAt: new Date() } })
      }
      return tx
        .update(decisions)
        .set({
          state,
          category,
          appliedAt: null,
          applyAttempts: 0,
          reasons: kind === 'flag' ? ['You marked this message as cold', ...decision.reasons].slice(0, 6) : decision.reasons,
        })
        .where(eq(decisions.id, decision.id))
        .returning()
    })
    // A sync may be moving this message right now; then it stays pending and the next sync moves it.
    const claimed = await claimMove(db, decision.id)
    const moved = claimed && (await applyMove(db, mailboxService.adapterFor(mailbox), decision.id, decision.providerMessageId, kind === 'restore' ? 'restore' : 'file', category))
    const label = mailboxService.label(mailbox.provider)
    const remembered = sender && sender !== '(unknown)' ? ` Mail from ${sender} will ${kind === 'restore' ? 'stay in your inbox' : 'be filed away'} from now on.` : ''
    const message = moved
      ? `${kind === 'restore' ? 'Moved back to your inbox.' : 'Filed away as cold outreach.'}${remembered}`
      : claimed
        ? `Saved. ${label} did not answer, so the message will be moved within a few minutes.${remembered}`
        : `Saved. The message will be moved within a few minutes.${remembered}`
    const [fresh] = moved ? await db.select().from(decisions).where(eq(decisions.id, decision.id)) : [updated!]
    return { decision: toDecisionItem(fresh ?? updated!), message }
  }

  return { list, stats, restore: (userId: number, id: number) => correct(userId, id, 'restore'), flag: (userId: number, id: number) => correct(userId, id, 'flag') }
}

export type ActivityService = ReturnType<typeof createActivityService>
