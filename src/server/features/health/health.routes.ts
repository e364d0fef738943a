import type { FastifyInstance } from 'fastify'
import { contractRoute } from '#server/lib/contract-route.ts'
import { requireUser } from '#server/plugins/session.ts'
import { heartbeatStatusContract, webhookSetupContract, webhookStatusContract } from '#shared/api/health.ts'
import type { HealthService } from './health.service.ts'

/** Re-establishing push calls the provider: a person clicking Repair needs a few tries, not hundreds. */
export const WEBHOOK_SETUP_RATE_LIMIT = { max: 10, timeWindow: 60_000 }

/** SPEC 7 "Health": the caller's own mailbox. */
export function registerHealthRoutes(app: FastifyInstance, { health }: { health: HealthService }) {
  contractRoute(app, heartbeatStatusContract, { preValidation: requireUser }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    return health.heartbeat(request.user!.id)
  })

  contractRoute(app, webhookStatusContract, { preValidation: requireUser }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    return health.webhookStatus(request.user!.id)
  })

  contractRoute(
    app,
    webhookSetupContract,
    {
      preValidation: requireUser,
      config: { rateLimit: { ...WEBHOOK_SETUP_RATE_LIMIT, keyGenerator: (request) => (request.user ? `setup:${request.user.id}` : `setup-ip:${request.ip}`) } },
    },
    async (request) => health.setup(request.user!.id, request.body.provider),
  )
}
