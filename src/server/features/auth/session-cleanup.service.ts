import { lt, lte, or } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { oauthStates, sessions, tempTokens } from '#server/db/schema.ts'
import { sessionsChanged } from '#server/lib/session-cache.ts'
import { SESSION_HARD_LIMIT_MS } from '#shared/product.ts'

export interface SessionCleanupResult {
  sessionsDeleted: number
  tempTokensDeleted: number
  oauthStatesDeleted: number
}

/**
 * SPEC 9: "cleanup removes expired sessions and sessions older than 90 days". Also removes expired
 * one-time sign-in material (temp tokens, OAuth states). Idempotent: a second run deletes nothing more,
 * so the hourly job may run twice safely (STYLE.md 13).
 */
export async function cleanupExpiredSessions(db: Database, now: Date = new Date()): Promise<SessionCleanupResult> {
  const hardLimit = new Date(now.getTime() - SESSION_HARD_LIMIT_MS)
  const { deletedSessionIds, ...result } = await db.transaction(async (tx) => {
    const s = await tx
      .delete(sessions)
      .where(or(lte(sessions.expiresAt, now), lt(sessions.createdAt, hardLimit)))
      .returning({ id: sessions.id })
    const t = await tx.delete(tempTokens).where(lte(tempTokens.expiresAt, now)).returning({ hash: tempTokens.hash })
    const o = await tx.delete(oauthStates).where(lte(oauthStates.expiresAt, now)).returning({ state: oauthStates.state })
    return { deletedSessionIds: s.map((row) => row.id), sessionsDeleted: s.length, tempTokensDeleted: t.length, oauthStatesDeleted: o.length }
  })
  // Expired entries are never served from the session cache anyway; the 90-day rule can end live ones.
  await sessionsChanged(db, { sessionIds: deletedSessionIds })
  return result
}
