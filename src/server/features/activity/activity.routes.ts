import type { FastifyInstance } from 'fastify'
import { contractRoute } from '#server/lib/contract-route.ts'
import { requireUser } from '#server/plugins/session.ts'
import { activityContract, activityStatsContract, flagContract, restoreContract } from '#shared/api/activity.ts'
import { ActivityError, type ActivityService } from './activity.service.ts'

/** Review and corrections (issue 13 item 4). */
export function registerActivityRoutes(app: FastifyInstance, { activity }: { activity: ActivityService }) {
  contractRoute(app, activityContract, { preValidation: requireUser }, async (request) => activity.list(request.user!.id, request.query))
  contractRoute(app, activityStatsContract, { preValidation: requireUser }, async (request) => activity.stats(request.user!.id, request.query.days))

  for (const [contract, run] of [
    [restoreContract, activity.restore],
    [flagContract, activity.flag],
  ] as const) {
    contractRoute(app, contract, { preValidation: requireUser }, async (request, reply) => {
      try {
        return await run(request.user!.id, request.body.decisionId)
      } catch (error) {
        if (error instanceof ActivityError) return reply.code(error.status).send({ error: error.message, code: error.code })
        throw error
      }
    })
  }
}
