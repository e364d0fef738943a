import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Database } from '#server/db/client.ts'
import { contractRoute } from '#server/lib/contract-route.ts'
import { normalizeIp } from '#server/lib/network.ts'
import { requireUser } from '#server/plugins/session.ts'
import { revokeAllSessionsContract, revokeSessionContract, sessionsContract } from '#shared/api/sessions.ts'
import { createSessionService, SessionRevokeError, type SessionCaller } from './sessions.service.ts'

/** After requireUser: the caller as the service needs it. */
const callerOf = (request: FastifyRequest): SessionCaller => ({
  userId: request.user!.id,
  sessionId: request.sessionId!,
  ipAddress: normalizeIp(request.ip),
  userAgent: request.headers['user-agent'],
})

/** SPEC 7 "Sessions and account": the signed-in user's own sessions, one revoked or all others. */
export function registerSessionRoutes(app: FastifyInstance, { db }: { db: Database }) {
  const service = createSessionService({ db })

  contractRoute(app, sessionsContract, { preValidation: requireUser }, async (request, reply) => {
    // Sessions change when another device signs in or out: never served from a cache.
    reply.header('cache-control', 'no-store')
    return { sessions: await service.list(callerOf(request)) }
  })

  contractRoute(app, revokeSessionContract, { preValidation: requireUser }, async (request, reply) => {
    try {
      await service.revoke(callerOf(request), request.body.sessionId)
      return { success: true as const }
    } catch (error) {
      if (error instanceof SessionRevokeError) return reply.code(error.status).send({ error: error.message, code: error.code })
      throw error
    }
  })

  contractRoute(app, revokeAllSessionsContract, { preValidation: requireUser }, async (request) => service.revokeOthers(callerOf(request)))
}
