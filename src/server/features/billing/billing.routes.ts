import type { FastifyInstance } from 'fastify'
import { contractRoute } from '#server/lib/contract-route.ts'
import { requireUser } from '#server/plugins/session.ts'
import { billingPortalContract, continueFreeContract, createCheckoutContract, subscriptionContract } from '#shared/api/billing.ts'
import { BillingError, type BillingService } from './billing.service.ts'

/** SPEC 7 "Billing" and the Stripe webhook (issue 16). */
export function registerBillingRoutes(app: FastifyInstance, { billing }: { billing: BillingService }) {
  contractRoute(app, subscriptionContract, { preValidation: requireUser }, async (request) => billing.readSubscription(request.user!.id))

  contractRoute(app, continueFreeContract, { preValidation: requireUser }, async (request) => billing.continueFree(request.user!.id))

  contractRoute(app, createCheckoutContract, { preValidation: requireUser }, async (request, reply) => {
    try {
      return await billing.createCheckout(request.user!.id, request.body.planId)
    } catch (error) {
      if (error instanceof BillingError) return reply.code(error.status).send({ error: error.message, code: error.code })
      throw error
    }
  })

  contractRoute(app, billingPortalContract, { preValidation: requireUser }, async (request, reply) => {
    try {
      return await billing.portal(request.user!.id)
    } catch (error) {
      if (error instanceof BillingError) return reply.code(error.status).send({ error: error.message, code: error.code })
      throw error
    }
  })

  // Stripe signs the exact bytes it sent: this route reads its body as text, in its own scope.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 512 * 1024 }, (_request, body, done) => done(null, body))
    scope.post('/_api/webhooks/stripe', async (request, reply) => {
      try {
        const header = request.headers['stripe-signature']
        const result = await billing.receiveWebhook(typeof request.body === 'string' ? request.body : '', Array.isArray(header) ? header[0] : header)
        return reply.send({ received: true, duplicate: result.duplicate })
      } catch (error) {
        if (error instanceof BillingError) return reply.code(error.status).send({ error: error.message, code: error.code })
        throw error
      }
    })
  })
}
