import { and, asc, count, desc, eq, gt, gte, inArray, lt, type SQL } from 'drizzle-orm'
import { withAuditMaintenance } from '#server/audit/audit-maintenance.ts'
import type { Database } from '#server/db/client.ts'
import { auditEvents, jobRuns, mailboxes, providerHealth, waitlistEntries, type MailboxRow } from '#server/db/schema.ts'
import type { HealthService } from '#server/features/health/health.service.ts'
import type { CircuitBreakers } from '#server/integrations/circuit-breaker.ts'
import { JOB_NAMES, SCHEDULES } from '#server/jobs/boss.ts'
import {
  SERVICE_NAMES,
  type AuditLogEntry,
  type CronJob,
  type CronStatus,
  type ProviderHealth,
  type ServiceName,
  type auditLogsContract,
  type mailboxHealthContract,
} from '#shared/api/admin.ts'
import type { ContractResponse, ValidatedQuery } from '#shared/api/contract.ts'
import type { HeartbeatStatus, WebhookHealth } from '#shared/api/health.ts'

/**
 * The operator's read models and controls (issue 18; SPEC 3, 4, 7 "Health" and "Admin"): provider
 * health and breaker reset, cron health, mailbox health, the audit log, the Team waitlist, and the
 * audit token redaction. Routes in ops.routes.ts; every one is admin-only.
 */

// ---- Cron health ----

/**
 * A job is 'OK' while its last run is at most this long ago: its interval, plus half of it for a run
 * delayed by a busy or restarting worker, plus two minutes for the scheduler's minute granularity and
 * worker polling. So the 5-minute sweep turns Stale after 9.5 minutes, the hourly jobs after 92 minutes,
 * the daily retention after 36 hours 2 minutes.
 */
export function cronGraceMs(intervalMinutes: number): number {
  return intervalMinutes * 60_000 * 1.5 + 2 * 60_000
}

/** SPEC 4 "Cron health" for one job: by its last run, whatever that run's outcome (shown apart). */
export function cronStatusOf(lastRunAt: Date | null, intervalMinutes: number, now: Date): CronStatus {
  if (!lastRunAt) return 'Not Run'
  return now.getTime() - lastRunAt.getTime() <= cronGraceMs(intervalMinutes) ? 'OK' : 'Stale'
}

/** SPEC 4: unknown if no jobs; degraded if any job is Not Run or Stale; else healthy. */
export function cronOverallOf(jobs: readonly Pick<CronJob, 'status'>[]): 'healthy' | 'degraded' | 'unknown' {
  if (jobs.length === 0) return 'unknown'
  return jobs.some((job) => job.status !== 'OK') ? 'degraded' : 'healthy'
}

// ---- Token redaction ----

export const REDACTED = '[REDACTED]'

/**
 * Token-shaped text, in the order applied. Each replacement leaves nothing another pattern (or a second
 * run) would match, so the redaction is idempotent.
 */
const TOKEN_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  // JWTs (ID tokens, Pub/Sub push tokens): header.payload.signature, unsigned ones too.
  [/eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, REDACTED],
  // Authorization header values: the scheme stays, the credential goes.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  // Google access and refresh tokens.
  [/\bya29\.[A-Za-z0-9._-]+/g, REDACTED],
  [/(?<![A-Za-z0-9])1\/\/[A-Za-z0-9._-]{10,}/g, REDACTED],
  // Stripe secret and restricted keys, webhook signing secrets.
  [/\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{8,}/g, REDACTED],
  [/\bwhsec_[A-Za-z0-9+/=]{8,}/g, REDACTED],
]

/** Hex or base64url runs of 32 characters or more; judged by `isSecretRun` (a UUID or a long word is not one). */
const LONG_RUN = /[A-Za-z0-9_-]{32,}/g
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const isSecretRun = (run: string) => /[0-9]/.test(run) && /[A-Za-z]/.test(run) && !UUID.test(run)

/** Keys whose string values are secret whatever they look like (an OAuth `code`, not an `errorCode`). */
const SECRET_KEY = /token|secret|passw|authorization|credential|cookie|api[-_]?key/i
const CODE_KEY = /^(?:.*(?:auth|authorization|verification)[-_]?)?code$/i
const isSecretKey = (key: string) => SECRET_KEY.test(key) || CODE_KEY.test(key)

export function redactText(text: string): string {
  let out = text
  for (const [pattern, replacement] of TOKEN_PATTERNS) out = out.replace(pattern, replacement)
  return out.replace(LONG_RUN, (run) => (isSecretRun(run) ? REDACTED : run))
}

/**
 * A copy of `value` with token-shaped text replaced by '[REDACTED]', and every string under a secret-
 * named key replaced whole (numbers, booleans and null stay: `hasRefreshToken: true` tells no secret).
 */
export function redactTokens(value: unknown, underSecretKey = false): unknown {
  if (typeof value === 'string') return underSecretKey ? (value === '' ? value : REDACTED) : redactText(value)
  if (Array.isArray(value)) return value.map((item) => redactTokens(item, underSecretKey))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactTokens(item, underSecretKey || isSecretKey(key))]))
  }
  return value
}

/** Rows read and rewritten per transaction: a large audit table never holds one long transaction. */
export const REDACTION_BATCH_SIZE = 1_000

// ---- The service ----

type MailboxHealthAnswer = ContractResponse<typeof mailboxHealthContract>
type Attention = MailboxHealthAnswer['needsAttention'][number]
type WebhookBucket = WebhookHealth | 'not_configured'
type AuditLogQuery = ValidatedQuery<typeof auditLogsContract>

export interface OpsServiceDeps {
  db: Database
  breakers: Pick<CircuitBreakers, 'reset' | 'state'>
  health: Pick<HealthService, 'heartbeat' | 'webhookHealthOf'>
}

export function createOpsService({ db, breakers, health }: OpsServiceDeps) {
  const providerRows = () => db.select().from(providerHealth)
  const toProvider = (row: typeof providerHealth.$inferSelect): ProviderHealth => ({
    id: row.id,
    serviceName: row.serviceName,
    isHealthy: row.isHealthy,
    failureCount: row.failureCount,
    lastFailureAt: row.lastFailureAt?.toISOString() ?? null,
    circuitOpenUntil: row.circuitOpenUntil?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  })

  /**
   * SPEC 3 "Provider health entry", one per service. A breaker that never failed has no row yet; its
   * row is created here, healthy and clean (once: later reads find it), so every entry has a real,
   * stable id and updatedAt rather than a placeholder.
   */
  async function providers(): Promise<ProviderHealth[]> {
    let rows = await providerRows()
    const missing = SERVICE_NAMES.filter((name) => !rows.some((row) => row.serviceName === name))
    if (missing.length > 0) {
      await db
        .insert(providerHealth)
        .values(missing.map((serviceName) => ({ serviceName })))
        .onConflictDoNothing()
      rows = await providerRows()
    }
    return SERVICE_NAMES.map((name) => toProvider(rows.find((row) => row.serviceName === name)!))
  }

  /** Closes the breaker through the breakers module's own reset (closed, zero failures). */
  async function resetBreaker(serviceName: ServiceName) {
    const before = await breakers.state(serviceName)
    await breakers.reset(serviceName)
    const provider = (await providers()).find((entry) => entry.serviceName === serviceName)!
    return { provider, wasOpen: before.open }
  }

  /** Every scheduled job (src/server/jobs/boss.ts), with its last recorded run from job_runs. */
  async function cronHealth(now: Date = new Date()) {
    const names = Object.values(JOB_NAMES)
    // The newest run per job, through the (job_name, started_at) index.
    const latest = await db
      .selectDistinctOn([jobRuns.jobName], { jobName: jobRuns.jobName, startedAt: jobRuns.startedAt, status: jobRuns.status })
      .from(jobRuns)
      .where(inArray(jobRuns.jobName, names))
      .orderBy(jobRuns.jobName, desc(jobRuns.startedAt))
    const jobs: CronJob[] = names.map((jobName) => {
      const { cron, intervalMinutes } = SCHEDULES[jobName]
      const run = latest.find((row) => row.jobName === jobName)
      return {
        jobName,
        lastRunAt: run?.startedAt.toISOString() ?? null,
        status: cronStatusOf(run?.startedAt ?? null, intervalMinutes, now),
        schedule: cron,
        intervalMinutes,
        lastRunSucceeded: run ? run.status === 'success' : null,
      }
    })
    return { jobs, overall: cronOverallOf(jobs) }
  }

  /** The webhook health the user's own dashboard shows for this mailbox (health.webhookStatus), or not_configured. */
  function webhookBucketOf(row: MailboxRow, now: Date): WebhookBucket {
    if (row.status === 'disconnected') return 'not_configured'
    return row.status === 'connected' ? health.webhookHealthOf(row, now) : 'error'
  }

  /** Since when the heartbeat status has held, where the mailbox row tells. */
  function heartbeatSince(row: MailboxRow, status: HeartbeatStatus): Date | null {
    if (status === row.heartbeatStatus) return row.heartbeatAt
    if (status === 'stale') return row.lastSyncAt ?? row.connectedAt
    return null
  }

  /**
   * Counts of mailboxes by webhook health and heartbeat status, as each user's dashboard reads them
   * (health.service's own rules, reused, not restated), and the mailboxes that need an operator. No
   * provider is called. The heartbeat is the dashboard's per-user read (a few indexed queries per
   * mailbox); a mailbox the user disconnected counts as not_configured / unknown_provider and needs
   * nobody's attention. One attention entry per mailbox, the cause first: the connection, then push,
   * then the heartbeat. No e-mail addresses.
   */
  async function mailboxHealth(now: Date = new Date()): Promise<MailboxHealthAnswer> {
    const rows = await db.select().from(mailboxes).orderBy(asc(mailboxes.id))
    const webhooks: Partial<Record<WebhookBucket, number>> = {}
    const heartbeats: Partial<Record<HeartbeatStatus, number>> = {}
    const needsAttention: Attention[] = []
    for (const row of rows) {
      const webhook = webhookBucketOf(row, now)
      const { heartbeatStatus } = await health.heartbeat(row.userId, now)
      webhooks[webhook] = (webhooks[webhook] ?? 0) + 1
      heartbeats[heartbeatStatus] = (heartbeats[heartbeatStatus] ?? 0) + 1
      if (row.status === 'disconnected') continue
      const entry = { userId: row.userId, mailboxId: row.id, provider: row.provider }
      if (row.status === 'action_required' || row.status === 'revoked') {
        needsAttention.push({ ...entry, status: row.status, since: row.updatedAt.toISOString() })
      } else if (webhook === 'expired' || webhook === 'error') {
        const lapsedAt = row.pushExpiresAt && row.pushExpiresAt <= now ? row.pushExpiresAt : null
        needsAttention.push({ ...entry, status: webhook, since: lapsedAt?.toISOString() ?? null })
      } else if (heartbeatStatus !== 'ok' && heartbeatStatus !== 'healthy') {
        needsAttention.push({ ...entry, status: heartbeatStatus, since: heartbeatSince(row, heartbeatStatus)?.toISOString() ?? null })
      }
    }
    // The longest-standing problems first (ISO strings sort as times); those of unknown age after them.
    const age = (entry: Attention) => entry.since ?? '~'
    needsAttention.sort((a, b) => (age(a) < age(b) ? -1 : age(a) > age(b) ? 1 : a.mailboxId - b.mailboxId))
    return { totalMailboxes: rows.length, webhooks, heartbeats, needsAttention }
  }

  /**
   * SPEC 3 "Audit log entry" list, newest first, filtered and paged (SPEC 5, 9). The dates bound the
   * timestamp inclusively at the millisecond the client can name (timestamps are stored in
   * microseconds). A page past the end is empty with the true totals. Reads are not audited: the
   * panel refreshes every minute and would bury the events it exists to show.
   */
  async function auditLogs(query: AuditLogQuery) {
    const conditions: Array<SQL | undefined> = [
      query.userId !== undefined ? eq(auditEvents.userId, query.userId) : undefined,
      query.eventType ? eq(auditEvents.eventType, query.eventType) : undefined,
      query.eventCategory ? eq(auditEvents.eventCategory, query.eventCategory) : undefined,
      query.severity ? eq(auditEvents.severity, query.severity) : undefined,
      query.success ? eq(auditEvents.success, query.success === 'true') : undefined,
      query.startDate ? gte(auditEvents.timestamp, new Date(query.startDate)) : undefined,
      query.endDate ? lt(auditEvents.timestamp, new Date(new Date(query.endDate).getTime() + 1)) : undefined,
    ]
    const where = and(...conditions)
    const [rows, [{ total } = { total: 0 }]] = await Promise.all([
      db
        .select()
        .from(auditEvents)
        .where(where)
        .orderBy(desc(auditEvents.timestamp), desc(auditEvents.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit),
      db.select({ total: count() }).from(auditEvents).where(where),
    ])
    const totalRecords = Number(total)
    const logs: AuditLogEntry[] = rows.map((row) => ({
      id: row.id,
      timestamp: row.timestamp.toISOString(),
      eventType: row.eventType,
      eventCategory: row.eventCategory,
      severity: row.severity,
      userId: row.userId,
      action: row.action,
      success: row.success,
      ipAddress: row.ipAddress,
      sessionId: row.sessionId,
      resourceType: row.resourceType,
      resourceId: row.resourceId,
      authenticationMethod: row.authenticationMethod,
      errorCode: row.errorCode,
      userAgent: row.userAgent,
      metadata: row.metadata,
    }))
    // At least one page, as the activity list counts them: page 1 of 1 when nothing matches.
    return { logs, pagination: { page: query.page, limit: query.limit, totalPages: Math.max(1, Math.ceil(totalRecords / query.limit)), totalRecords } }
  }

  /** The Team waitlist, newest first. */
  async function waitlist() {
    const rows = await db
      .select({ id: waitlistEntries.id, name: waitlistEntries.name, email: waitlistEntries.email, userId: waitlistEntries.userId, createdAt: waitlistEntries.createdAt })
      .from(waitlistEntries)
      .orderBy(desc(waitlistEntries.createdAt), desc(waitlistEntries.id))
    return { entries: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) }
  }

  /**
   * Scrubs token-shaped text out of every audit row's metadata (the admin's redaction control), in
   * batches by id, each in a 'redaction' maintenance transaction (the only way the database lets
   * audit metadata change). Returns how many rows changed; a second run changes none.
   */
  async function redactAuditTokens(batchSize: number = REDACTION_BATCH_SIZE): Promise<number> {
    let afterId = 0
    let changed = 0
    for (;;) {
      const batch = await withAuditMaintenance(db, 'redaction', async (tx) => {
        const rows = await tx
          .select({ id: auditEvents.id, metadata: auditEvents.metadata })
          .from(auditEvents)
          .where(gt(auditEvents.id, afterId))
          .orderBy(asc(auditEvents.id))
          .limit(batchSize)
        let rewritten = 0
        for (const row of rows) {
          const redacted = redactTokens(row.metadata) as Record<string, unknown>
          if (JSON.stringify(redacted) === JSON.stringify(row.metadata)) continue
          await tx.update(auditEvents).set({ metadata: redacted }).where(eq(auditEvents.id, row.id))
          rewritten++
        }
        return { read: rows.length, lastId: rows.at(-1)?.id ?? afterId, rewritten }
      })
      changed += batch.rewritten
      afterId = batch.lastId
      if (batch.read < batchSize) return changed
    }
  }

  return { providers, resetBreaker, cronHealth, mailboxHealth, auditLogs, waitlist, redactAuditTokens }
}

export type OpsService = ReturnType<typeof createOpsService>
