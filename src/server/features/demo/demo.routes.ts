import type { FastifyInstance } from 'fastify'
import { auditRequest } from '#server/audit/audit-request.ts'
import type { Database } from '#server/db/client.ts'
import { contractRoute } from '#server/lib/contract-route.ts'
import { requireAdmin } from '#server/plugins/session.ts'
import { DEMO_DELIVER_BODY_LIMIT, demoDeliverContract, demoProviderFaultContract } from '#shared/api/demo.ts'

/** The fault injection of a demo mail fake (src/fakes/http/fake-server.ts `injectFault`). */
export interface DemoFaultTarget {
  injectFault(fault: { endpoint: string; pathIncludes?: string; status?: number; times?: number }): void
  clearFaults(): void
}

/** What the demo mailboxes offer the app (src/fakes/demo-mail.ts), without the app importing the fakes. */
export interface DemoMailboxes {
  prepare(provider: 'gmail' | 'outlook', address: string, options?: { arriving?: boolean }): Promise<void>
  deliver(to: string, raw: string): Promise<{ provider: 'gmail' | 'outlook'; id: string } | null>
  /** The demo Gmail and Graph mail fakes, for the operator's fault switch. */
  gmail: DemoFaultTarget
  graph: DemoFaultTarget
}

/** Only the mail APIs the adapters call fail: the Pub/Sub key set (push proofs) stays up. */
const FAULT_TARGETS = {
  gmail: { label: 'Gmail', pathIncludes: '/gmail/v1/', fake: (demo: DemoMailboxes) => demo.gmail },
  outlook: { label: 'Outlook', pathIncludes: '/v1.0/', fake: (demo: DemoMailboxes) => demo.graph },
} as const

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/

/**
 * The demo routes, registered only in demo mode. POST /_api/demo/deliver takes requests from this
 * machine only (the socket's address, not X-Forwarded-For): a public demo must not let visitors drop
 * mail into each other's demo mailboxes. POST /_api/demo/provider-fault is for admins.
 */
export function registerDemoRoutes(app: FastifyInstance, { db, demoMailboxes }: { db: Database; demoMailboxes: DemoMailboxes }) {
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

  // The operator's fault switch (issue 18): from the browser, unlike delivery, so it is admin-only.
  contractRoute(app, demoProviderFaultContract, { preValidation: requireAdmin }, async (request) => {
    const { provider, status, times } = request.body
    const target = FAULT_TARGETS[provider]
    // times 0 switches the faults off again (what is left of them).
    if (times === 0) target.fake(demoMailboxes).clearFaults()
    else target.fake(demoMailboxes).injectFault({ endpoint: '*', pathIncludes: target.pathIncludes, status, times })
    await auditRequest(db, request, {
      eventType: 'SETTINGS_CHANGED',
      eventCategory: 'SYSTEM',
      action: 'DEMO_PROVIDER_FAULT_INJECTED',
      resourceType: 'provider',
      resourceId: provider,
      metadata: { provider, status, times },
    })
    if (times === 0) return { provider, status, times, message: `Faults cleared: the demo ${target.label} API answers normally again.` }
    return { provider, status, times, message: `The next ${times} calls to the demo ${target.label} API answer ${status}; each failing sync uses up several of them (the app retries).` }
  })
}
