import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Database } from '#server/db/client.ts'
import { requireUser } from '#server/plugins/session.ts'
import { joinWaitlistContract } from '#shared/api/waitlist.ts'
import { joinWaitlist } from './waitlist.service.ts'

export function registerWaitlistRoutes(app: FastifyInstance, { db }: { db: Database }) {
  app.withTypeProvider<ZodTypeProvider>().post(
    joinWaitlistContract.path,
    // preValidation: a signed-out caller hears 'Authentication required' before any field message.
    { schema: { body: joinWaitlistContract.body }, preValidation: requireUser },
    async (request) => {
      await joinWaitlist(db, request.user!.id, request.body)
      return { success: true as const }
    },
  )
}
