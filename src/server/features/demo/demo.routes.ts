import type { FastifyInstance } from 'fastify'
import { contractRoute } from '#server/lib/contract-route.ts'
import { DEMO_DELIVER_BODY_LIMIT, demoDeliverContract } from '#shared/api/demo.ts'

/** What the demo mailboxes offer the app (src/fakes/demo-mail.ts), without the app importing the fakes. */
export interface DemoMailboxes {
  prepare(provider: 'gmail' | 'outlook', address: string, options?: { arriving?: boolean }): Promise<void>
  deliver(to: string, raw: string): Promise<{ provider: 'gmail' | 'outlook'; id: string } | null>
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/

/**
 * POST /_api/demo/deliver, registered only in demo mode. It takes requests from this machine only
 * (the socket's address, not X-Forwarded-For): a public demo must not let visitors drop mail into
 * each other's demo mailboxes.
 */
export function registerDemoRoutes(app: FastifyInstance, { demoMailboxes }: { demoMailboxes: DemoMailboxes }) {
  contractRoute(
    app,
    demoDeliverContract,
    {
      bodyLimit: DEMO_DELIVER_BODY_LIMIT,
      onRequest: async (request, reply) => {
        if (!LOOPBACK.test(request.socket.remoteAddress ?? '')) {
          return reply.code(403).send({ error: 'Demo delivery is only accepted from this machine', code: 'forbidden' })
        }
      },
    },
    async (request, reply) => {
      const delivered = await demoMailboxes.deliver(request.body.to, request.body.raw)
      if (!delivered) return reply.code(404).send({ error: `No demo mailbox ${request.body.to} is connected. Sign in and connect it on the dashboard first.`, code: 'not_connected' })
      return delivered
    },
  )
}
