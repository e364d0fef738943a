import type { FastifyRequest } from 'fastify'
import type { Database } from '#server/db/client.ts'
import { normalizeIp } from '#server/lib/network.ts'
import { recordAuditEvent, type AuditEventInput } from './audit-log.ts'

/**
 * Records an account change made by a signed-in request (issue 17): who (user and session), from
 * where (IP and user agent), and the specific action. A failed audit write never fails the change
 * the person made; it is logged instead.
 */
export async function auditRequest(
  db: Database,
  request: FastifyRequest,
  event: Pick<AuditEventInput, 'eventType' | 'eventCategory' | 'action'> & Partial<Pick<AuditEventInput, 'severity' | 'success' | 'resourceType' | 'resourceId' | 'metadata' | 'errorCode'>>,
): Promise<void> {
  try {
    await recordAuditEvent(db, {
      severity: 'INFO',
      success: true,
      ...event,
      userId: request.user?.id ?? null,
      sessionId: request.sessionId,
      ipAddress: normalizeIp(request.ip),
      userAgent: request.headers['user-agent'] ?? null,
    })
  } catch (error) {
    request.log.warn({ err: error, action: event.action }, 'could not record an audit event')
  }
}
