import type { FastifyInstance, FastifyReply } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { GraphPushBodySchema, GraphValidationQuerySchema, PubSubPushSchema } from '#shared/api/webhooks.ts'
import { PushProofError, type WebhookService } from './webhooks.service.ts'

/**
 * Push receivers (issue 12, providers.md A3/B3): no session, no CSRF; every request proves itself.
 * They answer fast: the work happens in the sync job they enqueue.
 */
export function registerWebhookRoutes(app: FastifyInstance, { webhooks }: { webhooks: WebhookService }) {
  const r = app.withTypeProvider<ZodTypeProvider>()

  r.post('/_api/webhooks/gmail', { schema: { body: PubSubPushSchema } }, async (request, reply) => {
    try {
      await webhooks.receiveGmail(request.headers.authorization, request.body)
      // Any 2xx acknowledges the Pub/Sub message (A3).
      return reply.code(204).send()
    } catch (error) {
      if (error instanceof PushProofError) return refuse(reply, error)
      throw error
    }
  })

  for (const [path, lifecycle] of [
    ['/_api/webhooks/outlook', false],
    ['/_api/webhooks/outlook/lifecycle', true],
  ] as const) {
    r.post(path, { schema: { querystring: GraphValidationQuerySchema, body: GraphPushBodySchema } }, async (request, reply) => {
      // The subscription handshake (B3): echo the token as plain text within 10 s.
      const { validationToken } = request.query
      if (validationToken !== undefined) {
        return reply.code(200).header('content-type', 'text/plain; charset=utf-8').header('x-content-type-options', 'nosniff').send(validationToken)
      }
      const notifications = typeof request.body === 'string' ? [] : (request.body.value ?? [])
      if (notifications.length === 0) return reply.code(400).send({ error: 'No notifications in the request', code: 'empty_notification' })
      const { valid } = await webhooks.receiveGraph(notifications, lifecycle)
      if (valid === 0) return reply.code(403).send({ error: 'Unknown subscription or wrong clientState', code: 'invalid_client_state' })
      return reply.code(202).send()
    })
  }

  function refuse(reply: FastifyReply, error: PushProofError) {
    return reply.code(error.status).send({ error: error.message, code: 'invalid_push_token' })
  }
}
