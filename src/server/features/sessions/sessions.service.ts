import { and, desc, eq, gt, ne } from 'drizzle-orm'
import { recordAuditEvent } from '#server/audit/audit-log.ts'
import type { Database } from '#server/db/client.ts'
import { sessions } from '#server/db/schema.ts'
import { sessionsChanged } from '#server/lib/session-cache.ts'
import type { ActiveSessionWire } from '#shared/api/sessions.ts'

/** Who is asking: the signed-in user, the session their cookie holds, and the request's origin for the audit trail. */
export interface SessionCaller {
  userId: number
  sessionId: string
  ipAddress: string | null
  userAgent: string | undefined
}

/** A refusal with its HTTP status (STYLE.md 9: domain errors carry their own status). */
export class SessionRevokeError extends Error {
  constructor(
    readonly status: 400 | 404,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

export const SESSION_NOT_FOUND = 'Session not found'
/** The current session has its own Sign Out, which also clears the cookie. */
export const CURRENT_SESSION_REFUSED = 'Use Sign Out to end this session.'

/**
 * The Active Sessions list and its two revocations (SPEC 3 "Active session", SPEC 7 "Sessions and
 * account"). A session is a row looked up on every request (src/server/lib/sessions.ts) through a
 * short cache that each revocation clears once committed (decision 021), so deleting it signs that
 * browser out on its next request. Every query is scoped to the caller's user id:
 * another user's session id is indistinguishable from an unknown one.
 */
export function createSessionService({ db }: { db: Database }) {
  async function list(caller: Pick<SessionCaller, 'userId' | 'sessionId'>, now: Date = new Date()): Promise<ActiveSessionWire[]> {
    const rows = await db
      .select({
        id: sessions.id,
        deviceType: sessions.deviceType,
        browser: sessions.browser,
        os: sessions.os,
        location: sessions.location,
        ipAddress: sessions.ipAddress,
        createdAt: sessions.createdAt,
        lastAccessed: sessions.lastAccessed,
      })
      .from(sessions)
      .where(and(eq(sessions.userId, caller.userId), gt(sessions.expiresAt, now)))
      .orderBy(desc(sessions.lastAccessed), desc(sessions.createdAt))
    const listed = rows.map((row) => ({
      ...row,
      isCurrent: row.id === caller.sessionId,
      createdAt: row.createdAt.toISOString(),
      lastAccessed: row.lastAccessed.toISOString(),
    }))
    // The current session first; the rest most recently active first.
    return [...listed.filter((s) => s.isCurrent), ...listed.filter((s) => !s.isCurrent)]
  }

  /** Ends one of the caller's other sessions; the row and its audit record are written together. */
  async function revoke(caller: SessionCaller, sessionId: string, now: Date = new Date()): Promise<void> {
    if (sessionId === caller.sessionId) throw new SessionRevokeError(400, 'current_session', CURRENT_SESSION_REFUSED)
    await db.transaction(async (tx) => {
      const [revoked] = await tx
        .delete(sessions)
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, caller.userId), gt(sessions.expiresAt, now)))
        .returning({ id: sessions.id })
      if (!revoked) throw new SessionRevokeError(404, 'session_not_found', SESSION_NOT_FOUND)
      await recordAuditEvent(tx as unknown as Database, {
        ...auditBase(caller),
        action: 'SESSION_REVOKED',
        resourceType: 'session',
        resourceId: revoked.id,
      })
    })
    await sessionsChanged(db, { sessionIds: [sessionId] })
  }

  /**
   * "Log out other devices": ends every live session of the caller except the current one (expired
   * ones are not counted: the list never showed them, and the cleanup job removes them).
   */
  async function revokeOthers(caller: SessionCaller, now: Date = new Date()): Promise<{ revokedCount: number }> {
    const revoked = await db.transaction(async (tx) => {
      const rows = await tx
        .delete(sessions)
        .where(and(eq(sessions.userId, caller.userId), ne(sessions.id, caller.sessionId), gt(sessions.expiresAt, now)))
        .returning({ id: sessions.id })
      await recordAuditEvent(tx as unknown as Database, {
        ...auditBase(caller),
        action: 'SESSIONS_REVOKED_ALL',
        metadata: { revokedCount: rows.length },
      })
      return rows
    })
    await sessionsChanged(db, { sessionIds: revoked.map((row) => row.id) })
    return { revokedCount: revoked.length }
  }

  return { list, revoke, revokeOthers }
}

function auditBase(caller: SessionCaller) {
  return {
    eventType: 'USER_UPDATED',
    eventCategory: 'AUTHENTICATION',
    severity: 'INFO',
    success: true,
    userId: caller.userId,
    ipAddress: caller.ipAddress,
    userAgent: caller.userAgent,
    sessionId: caller.sessionId,
  } as const
}

export type SessionService = ReturnType<typeof createSessionService>
