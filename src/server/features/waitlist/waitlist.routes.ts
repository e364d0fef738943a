import type { FastifyInstance } from 'fastify'
import type { Database } from '#server/db/client.ts'
import { contractRoute } from '#server/lib/contract-route.ts'
import { requireUser } from '#server/plugins/session.ts'
import { joinWaitlistContract } from '#shared/api/waitlist.ts'
import { joinWaitlist } from './waitlist.service.ts'

/**
 * Per signed-in user (by IP when signed out): a person joins once or twice; a script adding hundreds
 * of addresses a minute is stopped (issue 11 item 7).
 */
export const WAITLIST_RATE_LIMIT = { max: 10, timeWindow: 60_000 }

export function registerWaitlistRoutes(app: FastifyInstance, { db, rateLimit }: { db: Database; rateLimit: { max: number; timeWindow: number } }) {
  contractRoute(
    app,
    joinWaitlistContract,
    {
      // preValidation: a signed-out caller hears 'Authentication required' before any field message.
      preValidation: requireUser,
      config: { rateLimit: { ...rateLimit, keyGenerator: (request) => (request.user ? `user:${request.user.id}` : `ip:${request.ip}`) } },
    },
    async (request) => {
      await joinWaitlist(db, request.user!.id, request.body)
      return { success: true as const }
    },
  )
}
