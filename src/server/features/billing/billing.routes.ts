import type { FastifyInstance } from 'fastify'
import type { Database } from '#server/db/client.ts'
import { contractRoute } from '#server/lib/contract-route.ts'
import { requireUser } from '#server/plugins/session.ts'
import { subscriptionContract } from '#shared/api/billing.ts'
import { readSubscription } from './billing.service.ts'

/** SPEC 7 "Billing" (the subscription call; checkout and the portal come with issue 16). */
export function registerBillingRoutes(app: FastifyInstance, { db }: { db: Database }) {
  contractRoute(app, subscriptionContract, { preValidation: requireUser }, async (request) => readSubscription(db, request.user!.id))
}
