import type {} from '@fastify/cookie'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '#server/config.ts'
import type { Database } from '#server/db/client.ts'
import { openSessionCache } from '#server/lib/session-cache.ts'
import { resolveSession, SESSION_COOKIE } from '#server/lib/sessions.ts'
import { sha256 } from '#server/lib/tokens.ts'
import { apiRouteOf } from '#server/plugins/api-route.ts'
import type { SessionUser } from '#shared/api/auth.ts'
import { SESSION_MAX_AGE_MS } from '#shared/product.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null. Set for /_api requests by the session plugin. */
    user: SessionUser | null
    sessionId: string | null
  }
}

/**
 * Reads the `sid` cookie on /_api requests, resolves it to a live session and sets request.user.
 * Cookie flags and lifetime: docs/decisions/003-sessions-and-csrf.md, SPEC 9 (one week). Sessions
 * are read through a cache of a few seconds that every sign-out, revocation and user change clears
 * (docs/decisions/021-session-cache-and-shared-rate-limits.md).
 */
export function registerSession(app: FastifyInstance, db: Database) {
  app.decorateRequest('user', null)
  app.decorateRequest('sessionId', null)
  const sessionCache = openSessionCache(db, app.log)
  app.addHook('onClose', () => sessionCache.close())
  app.addHook('onRequest', async (request) => {
    if (!apiRouteOf(request)) return
    const token = request.cookies[SESSION_COOKIE]
    if (!token) return
    const now = new Date()
    const session = await sessionCache.cache.resolve(sha256(token), now.getTime(), () => resolveSession(db, token, now))
    if (!session) return
    request.user = session.user
    request.sessionId = session.sessionId
  })
}

/** Secure when the app is served over https, or the request arrived over https via a trusted proxy. */
const isSecure = (config: Config, request: FastifyRequest) => config.appUrl.startsWith('https:') || request.protocol === 'https'

export function setSessionCookie(reply: FastifyReply, config: Config, request: FastifyRequest, token: string) {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: isSecure(config, request),
    maxAge: SESSION_MAX_AGE_MS / 1000,
  })
}

export function clearSessionCookie(reply: FastifyReply, config: Config, request: FastifyRequest) {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure: isSecure(config, request) })
}

/** Guard (STYLE.md 10). 'Authentication required' is the reply the client never retries (SPEC 7). */
export async function requireUser(request: FastifyRequest, reply: FastifyReply) {
  if (!request.user) {
    return reply.code(401).send({ error: 'Authentication required', code: 'unauthenticated' })
  }
}

export async function requireAdmin(request: FastifyRequest, reply: FastifyReply) {
  if (!request.user) {
    return reply.code(401).send({ error: 'Authentication required', code: 'unauthenticated' })
  }
  if (request.user.role !== 'admin') {
    return reply.code(403).send({ error: 'Admin access required', code: 'forbidden' })
  }
}
