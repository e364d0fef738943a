import { and, count, eq, gte, inArray } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { mailboxes, pushReceipts, userSettings } from '#server/db/schema.ts'
import { DEFAULT_SETTINGS, type Settings, type SettingsResponse, type SettingsUpdate } from '#shared/api/settings.ts'

type SettingsRow = typeof userSettings.$inferSelect

const toSettings = (row: SettingsRow | undefined): Settings =>
  row
    ? {
        filteringEnabled: row.filteringEnabled,
        confidenceThreshold: Math.round(row.confidenceThreshold * 100) / 100,
        strictnessLevel: row.strictnessLevel,
        allowGenuine: true,
        allowInformational: row.allowInformational,
        allowPromotional: row.allowPromotional,
        allowTransactional: row.allowTransactional,
        allowUnwanted: false,
      }
    : DEFAULT_SETTINGS

/** A user's filter settings (SPEC 3); the defaults until they change one. */
export async function readSettings(db: Database, userId: number): Promise<Settings> {
  const [row] = await db.select().from(userSettings).where(eq(userSettings.userId, userId)).limit(1)
  return toSettings(row)
}

/** Applies any subset of the changeable settings; the first change stores the defaults with it. */
export async function updateSettings(db: Database, userId: number, update: SettingsUpdate): Promise<Settings> {
  const current = await readSettings(db, userId)
  const next = {
    filteringEnabled: update.filteringEnabled ?? current.filteringEnabled,
    confidenceThreshold: update.confidenceThreshold ?? current.confidenceThreshold,
    strictnessLevel: update.strictnessLevel ?? current.strictnessLevel,
    allowInformational: update.allowInformational ?? current.allowInformational,
    allowPromotional: update.allowPromotional ?? current.allowPromotional,
    allowTransactional: update.allowTransactional ?? current.allowTransactional,
    updatedAt: new Date(),
  }
  const [row] = await db
    .insert(userSettings)
    .values({ userId, ...next })
    .onConflictDoUpdate({ target: userSettings.userId, set: next })
    .returning()
  return toSettings(row)
}

/** SPEC 3 performanceMetrics: push notifications and polls recorded for the user's mailbox since UTC midnight. */
export async function performanceMetrics(db: Database, userId: number, now: Date = new Date()): Promise<SettingsResponse['performanceMetrics']> {
  const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
  const rows = await db
    .select({ source: pushReceipts.source, n: count() })
    .from(pushReceipts)
    .innerJoin(mailboxes, eq(mailboxes.id, pushReceipts.mailboxId))
    .where(and(eq(mailboxes.userId, userId), gte(pushReceipts.receivedAt, midnight), inArray(pushReceipts.source, ['gmail', 'outlook', 'outlook_lifecycle', 'poll'])))
    .groupBy(pushReceipts.source)
  let webhookEventsToday = 0
  let pollingEventsToday = 0
  for (const row of rows) {
    if (row.source === 'poll') pollingEventsToday += Number(row.n)
    else webhookEventsToday += Number(row.n)
  }
  return { webhookEventsToday, pollingEventsToday }
}
