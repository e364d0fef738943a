import type { FastifyInstance } from 'fastify'
import { auditRequest } from '#server/audit/audit-request.ts'
import { contractRoute } from '#server/lib/contract-route.ts'
import { requireAdmin } from '#server/plugins/session.ts'
import {
  adminWaitlistContract,
  auditLogsContract,
  cronHealthContract,
  mailboxHealthContract,
  providerHealthContract,
  redactAuditTokensContract,
  resetCircuitBreakerContract,
} from '#shared/api/admin.ts'
import { createOpsService, type OpsServiceDeps } from './ops.service.ts'

/**
 * The operator's health panels, audit log and redaction control (issue 18; SPEC 7 "Health" and
 * "Admin"). Admin only: 401 signed out, 403 for anyone else (SPEC 6 leaves enforcement to us). The
 * two controls that change state are audited as SYSTEM events; reads are not (see ops.service.ts).
 */
export function registerOpsRoutes(app: FastifyInstance, deps: OpsServiceDeps) {
  const ops = createOpsService(deps)
  const { db } = deps
  const admin = { preValidation: requireAdmin }

  contractRoute(app, providerHealthContract, admin, async (_request, reply) => {
    reply.header('cache-control', 'no-store')
    return { providers: await ops.providers() }
  })

  contractRoute(app, resetCircuitBreakerContract, admin, async (request) => {
    const { serviceName } = request.body
    const { provider, wasOpen } = await ops.resetBreaker(serviceName)
    await auditRequest(db, request, {
      eventType: 'SETTINGS_CHANGED',
      eventCategory: 'SYSTEM',
      action: 'CIRCUIT_BREAKER_RESET',
      resourceType: 'provider_health',
      resourceId: serviceName,
      metadata: { serviceName, wasOpen },
    })
    return { success: true as const, message: `Circuit breaker for ${serviceName} reset.`, provider }
  })

  contractRoute(app, cronHealthContract, admin, async (_request, reply) => {
    reply.header('cache-control', 'no-store')
    return ops.cronHealth()
  })

  contractRoute(app, mailboxHealthContract, admin, async (_request, reply) => {
    reply.header('cache-control', 'no-store')
    return ops.mailboxHealth()
  })

  contractRoute(app, auditLogsContract, admin, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    return ops.auditLogs(request.query)
  })

  contractRoute(app, adminWaitlistContract, admin, async (_request, reply) => {
    reply.header('cache-control', 'no-store')
    return ops.waitlist()
  })

  contractRoute(app, redactAuditTokensContract, admin, async (request) => {
    const rowsChanged = await ops.redactAuditTokens()
    // Written after the redaction, so it is never itself rewritten; severity WARNING: audit rows changed.
    await auditRequest(db, request, {
      eventType: 'SETTINGS_CHANGED',
      eventCategory: 'SYSTEM',
      severity: 'WARNING',
      action: 'AUDIT_TOKENS_REDACTED',
      resourceType: 'audit_events',
      metadata: { rowsChanged },
    })
    return { message: `Redacted tokens in ${rowsChanged} audit log entries.`, rowsChanged }
  })
}
