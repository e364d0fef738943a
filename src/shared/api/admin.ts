import { z } from 'zod'
import { defineContract, errorResponses } from './contract.ts'
import { HEARTBEAT_STATUSES, WEBHOOK_HEALTH } from './health.ts'

/**
 * The operator's calls (SPEC 3, 5, 7 "Health" and "Admin"; issue 18). Every one answers 401 signed
 * out and 403 for a user without the admin role; the server enforces it (SPEC 6 does not show it).
 */
const ADMIN_ERRORS = errorResponses(401, 403)

// ---- Provider health and circuit breakers ----

export const SERVICE_NAMES = ['gmail', 'outlook', 'openai_classification'] as const
export type ServiceName = (typeof SERVICE_NAMES)[number]

/** SPEC 3 "Provider health entry". */
export const ProviderHealthSchema = z.object({
  id: z.number().int(),
  serviceName: z.enum(SERVICE_NAMES),
  isHealthy: z.boolean(),
  failureCount: z.number().int(),
  lastFailureAt: z.string().nullable(),
  circuitOpenUntil: z.string().nullable(),
  updatedAt: z.string(),
})
export type ProviderHealth = z.infer<typeof ProviderHealthSchema>

/** GET /_api/health/providers → {providers}, one per service (SPEC 7 "Health"). */
export const providerHealthContract = defineContract({
  method: 'GET',
  path: '/_api/health/providers',
  responses: { 200: z.object({ providers: z.array(ProviderHealthSchema) }), ...ADMIN_ERRORS },
})

/** POST /_api/health/reset-circuit-breaker {serviceName} (SPEC 5 values). */
export const resetCircuitBreakerContract = defineContract({
  method: 'POST',
  path: '/_api/health/reset-circuit-breaker',
  secure: true,
  body: z.object({ serviceName: z.enum(SERVICE_NAMES, { error: 'serviceName must be gmail, outlook or openai_classification' }) }),
  responses: { 200: z.object({ success: z.literal(true), message: z.string(), provider: ProviderHealthSchema }), ...errorResponses(400, 401, 403) },
})

// ---- Cron health ----

export const CRON_STATUSES = ['OK', 'Stale', 'Not Run'] as const
export type CronStatus = (typeof CRON_STATUSES)[number]

/** SPEC 3 "Cron job entry" (plus its schedule and last outcome, for the operator). */
export const CronJobSchema = z.object({
  jobName: z.string(),
  lastRunAt: z.string().nullable(),
  status: z.enum(CRON_STATUSES),
  /** The schedule (UTC cron) and the interval the job is expected within. */
  schedule: z.string(),
  intervalMinutes: z.number().int(),
  /** Whether the last run succeeded; null before the first. */
  lastRunSucceeded: z.boolean().nullable(),
})
export type CronJob = z.infer<typeof CronJobSchema>

/** GET /_api/cron/health → {jobs, overall} (SPEC 4 "Cron health"; polled every 30 s). */
export const cronHealthContract = defineContract({
  method: 'GET',
  path: '/_api/cron/health',
  responses: { 200: z.object({ jobs: z.array(CronJobSchema), overall: z.enum(['healthy', 'degraded', 'unknown']) }), ...ADMIN_ERRORS },
})

// ---- Mailbox health (webhook and heartbeat sub-panels) ----

export const MailboxAttentionSchema = z.object({
  userId: z.number().int(),
  mailboxId: z.number().int(),
  provider: z.enum(['gmail', 'outlook']),
  /** The mailbox's connection status, webhook health or heartbeat status that needs attention. */
  status: z.string(),
  /** Since when it has been so (ISO), or null when not known. */
  since: z.string().nullable(),
})

/** GET /_api/admin/mailbox-health: counts by webhook health and heartbeat status, and who needs attention. */
export const mailboxHealthContract = defineContract({
  method: 'GET',
  path: '/_api/admin/mailbox-health',
  responses: {
    200: z.object({
      totalMailboxes: z.number().int(),
      webhooks: z.partialRecord(z.enum([...WEBHOOK_HEALTH, 'not_configured']), z.number().int()),
      heartbeats: z.partialRecord(z.enum(HEARTBEAT_STATUSES), z.number().int()),
      needsAttention: z.array(MailboxAttentionSchema),
    }),
    ...ADMIN_ERRORS,
  },
})

// ---- Admin controls ----

/** SPEC 3 "Watchdog stats". */
export const WatchdogStatsSchema = z.object({
  staleUsersFound: z.number().int(),
  reconnectionsAttempted: z.number().int(),
  reconnectionsSucceeded: z.number().int(),
  reconnectionsFailed: z.number().int(),
  fallbacksTriggered: z.number().int(),
  systemicIssuesDetected: z.number().int(),
  details: z.array(z.object({ provider: z.string() }).passthrough()),
})

/** POST /_api/admin/trigger-watchdog → {success, stats}. */
export const triggerWatchdogContract = defineContract({
  method: 'POST',
  path: '/_api/admin/trigger-watchdog',
  secure: true,
  body: z.object({}).passthrough(),
  responses: { 200: z.object({ success: z.boolean(), stats: WatchdogStatsSchema }), ...ADMIN_ERRORS },
})

/** POST /_api/admin/trigger-cleanup → {success, supportRecordsDeleted, queueEntriesDeleted} (SPEC 3 "Cleanup stats"). */
export const triggerCleanupContract = defineContract({
  method: 'POST',
  path: '/_api/admin/trigger-cleanup',
  secure: true,
  body: z.object({}).passthrough(),
  responses: { 200: z.object({ success: z.boolean(), supportRecordsDeleted: z.number().int(), queueEntriesDeleted: z.number().int() }), ...ADMIN_ERRORS },
})

/** POST /_api/admin/sessions/cleanup {action} (SPEC 5 values) → {success, message, backfilled?, deleted?}. */
export const sessionMaintenanceContract = defineContract({
  method: 'POST',
  path: '/_api/admin/sessions/cleanup',
  secure: true,
  body: z.object({ action: z.enum(['backfill', 'cleanup', 'both'], { error: 'action must be backfill, cleanup or both' }) }),
  responses: {
    200: z.object({ success: z.boolean(), message: z.string(), backfilled: z.number().int().optional(), deleted: z.number().int().optional() }),
    ...errorResponses(400, 401, 403),
  },
})

/** POST /_api/admin/redact-audit-tokens (empty body) → {message} (SPEC 3 "Token redaction result"), plus how many rows changed. */
export const redactAuditTokensContract = defineContract({
  method: 'POST',
  path: '/_api/admin/redact-audit-tokens',
  secure: true,
  body: z.object({}).passthrough(),
  responses: { 200: z.object({ message: z.string(), rowsChanged: z.number().int() }), ...ADMIN_ERRORS },
})

/** POST /_api/admin/migrate-webhooks (empty body) → SPEC 3 "Webhook migration result". */
export const migrateWebhooksContract = defineContract({
  method: 'POST',
  path: '/_api/admin/migrate-webhooks',
  secure: true,
  body: z.object({}).passthrough(),
  responses: { 200: z.object({ successfulMigrations: z.number().int(), totalUsers: z.number().int(), errors: z.array(z.string()) }), ...ADMIN_ERRORS },
})

/** GET /_api/admin/waitlist: the Team waitlist, newest first (the client's teamWaitlist cache). */
export const adminWaitlistContract = defineContract({
  method: 'GET',
  path: '/_api/admin/waitlist',
  responses: {
    200: z.object({ entries: z.array(z.object({ id: z.number().int(), name: z.string(), email: z.string(), userId: z.number().int().nullable(), createdAt: z.string() })) }),
    ...ADMIN_ERRORS,
  },
})

// ---- Security audit logs ----

export const AUDIT_EVENT_TYPES = ['LOGIN_SUCCESS', 'LOGIN_FAILURE', 'USER_CREATED', 'USER_UPDATED', 'USER_DELETED', 'DATA_FETCHED', 'SETTINGS_CHANGED'] as const
export const AUDIT_CATEGORIES = ['AUTHENTICATION', 'USER_MANAGEMENT', 'DATA_ACCESS', 'SYSTEM'] as const
export const AUDIT_SEVERITIES = ['INFO', 'WARNING', 'ERROR', 'CRITICAL'] as const
/** SPEC 9 "Audit log": page sizes, default 50, max 100. */
export const AUDIT_PAGE_SIZES = [25, 50, 100] as const

const isoDate = (name: string) => z.iso.datetime({ offset: true, error: `${name} must be an ISO date-time` })

/** SPEC 5 "Audit log query". */
export const AuditLogQuerySchema = z.object({
  page: z.coerce.number({ error: 'page must be an integer of at least 1' }).int('page must be an integer of at least 1').min(1, 'page must be an integer of at least 1').default(1),
  limit: z.coerce.number({ error: 'limit must be an integer from 1 to 100' }).int('limit must be an integer from 1 to 100').min(1, 'limit must be an integer from 1 to 100').max(100, 'limit must be an integer from 1 to 100').default(50),
  userId: z.coerce.number({ error: 'userId must be a positive integer' }).int('userId must be a positive integer').positive('userId must be a positive integer').optional(),
  eventType: z.enum(AUDIT_EVENT_TYPES, { error: `eventType must be one of ${AUDIT_EVENT_TYPES.join(', ')}` }).optional(),
  eventCategory: z.enum(AUDIT_CATEGORIES, { error: `eventCategory must be one of ${AUDIT_CATEGORIES.join(', ')}` }).optional(),
  severity: z.enum(AUDIT_SEVERITIES, { error: `severity must be one of ${AUDIT_SEVERITIES.join(', ')}` }).optional(),
  success: z.enum(['true', 'false'], { error: 'success must be true or false' }).optional(),
  startDate: isoDate('startDate').optional(),
  endDate: isoDate('endDate').optional(),
})
export type AuditLogQuery = z.input<typeof AuditLogQuerySchema>

/** SPEC 3 "Audit log entry". */
export const AuditLogEntrySchema = z.object({
  id: z.number().int(),
  timestamp: z.string(),
  eventType: z.string(),
  eventCategory: z.string(),
  severity: z.string(),
  userId: z.number().int().nullable(),
  action: z.string(),
  success: z.boolean(),
  ipAddress: z.string().nullable(),
  sessionId: z.string().nullable(),
  resourceType: z.string().nullable(),
  resourceId: z.string().nullable(),
  authenticationMethod: z.string().nullable(),
  errorCode: z.string().nullable(),
  userAgent: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
})
export type AuditLogEntry = z.infer<typeof AuditLogEntrySchema>

/** GET /_api/audit-logs → {logs, pagination {page, limit, totalPages, totalRecords}}, newest first. */
export const auditLogsContract = defineContract({
  method: 'GET',
  path: '/_api/audit-logs',
  query: AuditLogQuerySchema,
  responses: {
    200: z.object({
      logs: z.array(AuditLogEntrySchema),
      pagination: z.object({ page: z.number().int(), limit: z.number().int(), totalPages: z.number().int(), totalRecords: z.number().int() }),
    }),
    ...errorResponses(400, 401, 403),
  },
})
