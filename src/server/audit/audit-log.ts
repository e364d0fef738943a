import type { Database } from '#server/db/client.ts'
import { auditEvents } from '#server/db/schema.ts'
import { makeStorable } from '#server/lib/storable-text.ts'

/** SPEC 9 "Audit log": the values the admin viewer filters on. */
export type AuditEventType =
  | 'LOGIN_SUCCESS'
  | 'LOGIN_FAILURE'
  | 'USER_CREATED'
  | 'USER_UPDATED'
  | 'USER_DELETED'
  | 'DATA_FETCHED'
  | 'SETTINGS_CHANGED'
export type AuditEventCategory = 'AUTHENTICATION' | 'USER_MANAGEMENT' | 'DATA_ACCESS' | 'SYSTEM'
export type AuditSeverity = 'INFO' | 'WARNING' | 'ERROR' | 'CRITICAL'

/** SPEC 3 "Audit log entry", minus the id and timestamp the database assigns. */
export interface AuditEventInput {
  eventType: AuditEventType
  eventCategory: AuditEventCategory
  severity: AuditSeverity
  userId?: number | null
  action: string
  success: boolean
  ipAddress?: string | null
  sessionId?: string | null
  resourceType?: string | null
  resourceId?: string | null
  authenticationMethod?: string | null
  errorCode?: string | null
  userAgent?: string | null
  /** Never put tokens, codes or mail content here: the admin panel shows it verbatim. */
  metadata?: Record<string, unknown>
}

/**
 * Appends one audit row. Rows are immutable (the admin panel says so, SPEC 2): this module offers
 * no update or delete. Only two named maintenance paths change audit rows: the seven-year purge
 * (`purgeAuditEventsPastRetention`, features/retention) and the admin's token redaction.
 */
export async function recordAuditEvent(db: Database, input: AuditEventInput): Promise<void> {
  // Values can come from a request (a provider's error parameter, a user agent): an audit record must
  // be written even when they hold text the database cannot store, so such characters become U+FFFD.
  const event = makeStorable(input)
  await db.insert(auditEvents).values({
    eventType: event.eventType,
    eventCategory: event.eventCategory,
    severity: event.severity,
    userId: event.userId ?? null,
    action: event.action,
    success: event.success,
    ipAddress: event.ipAddress ?? null,
    sessionId: event.sessionId ?? null,
    resourceType: event.resourceType ?? null,
    resourceId: event.resourceId ?? null,
    authenticationMethod: event.authenticationMethod ?? null,
    errorCode: event.errorCode ?? null,
    userAgent: event.userAgent?.slice(0, 512) ?? null,
    metadata: event.metadata ?? {},
  })
}
