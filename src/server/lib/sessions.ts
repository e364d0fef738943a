import { randomUUID } from 'node:crypto'
import { and, eq, gt, lt, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { sessions, users, type UserRow } from '#server/db/schema.ts'
import type { SessionUser } from '#shared/api/auth.ts'
import { SESSION_MAX_AGE_MS } from '#shared/product.ts'
import { describeLocation } from './network.ts'
import { sessionsChanged } from './session-cache.ts'
import { randomToken, sha256 } from './tokens.ts'
import { describeDevice } from './user-agent.ts'

/** Name of the session cookie (docs/decisions/003-sessions-and-csrf.md). */
export const SESSION_COOKIE = 'sid'

/** lastAccessed is refreshed at most this often, so reads don't turn every request into a write. */
export const LAST_ACCESSED_RESOLUTION_MS = 60_000

export function toSessionUser(row: Pick<UserRow, 'id' | 'displayName' | 'email' | 'role' | 'hasCompletedOnboarding' | 'createdAt'>): SessionUser {
  return {
    id: row.id,
    displayName: row.displayName,
    email: row.email,
    role: row.role,
    hasCompletedOnboarding: row.hasCompletedOnboarding,
    createdAt: row.createdAt.toISOString(),
  }
}

export interface NewSessionContext {
  userId: number
  ipAddress: string | null
  userAgent: string | undefined
  now?: Date
}

/** Creates a one-week session (SPEC 9) and returns the cookie token; only its hash is stored. */
export async function createSession(db: Database, ctx: NewSessionContext) {
  const now = ctx.now ?? new Date()
  const token = randomToken()
  const id = randomUUID()
  const device = describeDevice(ctx.userAgent)
  await db.insert(sessions).values({
    id,
    tokenHash: sha256(token),
    userId: ctx.userId,
    ...device,
    ipAddress: ctx.ipAddress,
    location: await describeLocation(ctx.ipAddress),
    createdAt: now,
    lastAccessed: now,
    expiresAt: new Date(now.getTime() + SESSION_MAX_AGE_MS),
  })
  return { id, token }
}

export interface ResolvedSession {
  sessionId: string
  user: SessionUser
}

/**
 * The session lookup runs on every signed-in /_api request, so it is prepared once per database:
 * building the query each time cost more than running it (npm run bench:http).
 */
const lookupStatements = new WeakMap<Database, ReturnType<typeof prepareLookup>>()

function prepareLookup(db: Database) {
  return db
    .select({
      sessionId: sessions.id,
      lastAccessed: sessions.lastAccessed,
      expiresAt: sessions.expiresAt,
      id: users.id,
      displayName: users.displayName,
      email: users.email,
      role: users.role,
      hasCompletedOnboarding: users.hasCompletedOnboarding,
      createdAt: users.createdAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), gt(sessions.expiresAt, sql.placeholder('now'))))
    .limit(1)
    .prepare('resolve_session')
}

/**
 * Looks up a live session by cookie token; touches lastAccessed when it is over a minute old. The
 * session plugin calls it through the session cache (session-cache.ts), which keeps an entry for
 * seconds only, so lastAccessed stays within about a minute of the last request.
 */
export async function resolveSession(db: Database, token: string, now: Date = new Date()): Promise<(ResolvedSession & { expiresAt: Date }) | null> {
  let lookup = lookupStatements.get(db)
  if (!lookup) {
    lookup = prepareLookup(db)
    lookupStatements.set(db, lookup)
  }
  const [row] = await lookup.execute({ tokenHash: sha256(token), now })
  if (!row) return null
  if (now.getTime() - row.lastAccessed.getTime() >= LAST_ACCESSED_RESOLUTION_MS) {
    // Conditional update: concurrent requests within the same minute do not all write.
    await db
      .update(sessions)
      .set({ lastAccessed: now })
      .where(and(eq(sessions.id, row.sessionId), lt(sessions.lastAccessed, new Date(now.getTime() - LAST_ACCESSED_RESOLUTION_MS))))
  }
  return { sessionId: row.sessionId, user: toSessionUser(row), expiresAt: row.expiresAt }
}

/** Sign-out (and a session replaced at sign-in): the row goes, and every process's cache forgets it. */
export async function deleteSession(db: Database, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId))
  await sessionsChanged(db, { sessionIds: [sessionId] })
}
