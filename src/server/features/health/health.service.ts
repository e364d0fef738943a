import { and, desc, eq, isNotNull } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { decisions, mailboxes, type MailboxRow } from '#server/db/schema.ts'
import type { MailboxService } from '#server/features/mailboxes/mailboxes.service.ts'
import type { CircuitBreakers } from '#server/integrations/circuit-breaker.ts'
import type { MailProviderName } from '#server/integrations/mail/mail-provider.ts'
import type { MailboxJobs } from '#server/jobs/mailbox-sync.job.ts'
import { NOT_ATTEMPTED, type HeartbeatStatus, type WebhookHealth } from '#shared/api/health.ts'

/**
 * Keeping the pipeline alive (issue 14): renewal, sweep, watchdog and the read model the dashboard and
 * the admin panel share. The rules for each status are in docs/decisions/014-keeping-push-alive.md.
 */
const HOUR = 3600_000
/** Push is renewed when less than this remains (and Gmail's watch daily anyway: the provider traits). */
export const RENEW_WHEN_LESS_THAN_MS = 24 * HOUR
/** The sweep syncs a mailbox whose push is active after this long without a sync, one without push sooner. */
export const SWEEP_AFTER_MS = { withPush: 15 * 60_000, withoutPush: 4 * 60_000 } as const
/** A connected mailbox not synced for this long is stale. */
export const STALE_AFTER_MS = 30 * 60_000
/** A watchdog finding is shown for this long, unless something newer happened. */
const FINDING_TTL_MS = 2 * HOUR

export interface WatchdogStats {
  staleUsersFound: number
  reconnectionsAttempted: number
  reconnectionsSucceeded: number
  reconnectionsFailed: number
  fallbacksTriggered: number
  systemicIssuesDetected: number
  details: Array<{ provider: MailProviderName; mailboxId: number; outcome: HeartbeatStatus }>
}

export interface HealthServiceDeps {
  db: Database
  mailboxes: Pick<MailboxService, 'ensurePush' | 'adapterFor' | 'label' | 'pushAvailable' | 'traits'>
  breakers: CircuitBreakers
  jobs: MailboxJobs
}

const connectedWithTokens = and(eq(mailboxes.status, 'connected'), isNotNull(mailboxes.refreshToken))

export function createHealthService({ db, mailboxes: mailboxService, breakers, jobs }: HealthServiceDeps) {
  const label = (provider: MailProviderName) => mailboxService.label(provider)

  function renewalDue(row: MailboxRow, now: Date): boolean {
    if (!row.pushExpiresAt) return true
    if (row.pushExpiresAt.getTime() - now.getTime() < RENEW_WHEN_LESS_THAN_MS) return true
    // Gmail: daily, whatever the expiry says (a watch is cheap; a lapsed one loses notifications).
    const every = mailboxService.traits(row.provider).renewPushEveryMs
    return every !== null && (!row.pushRenewedAt || now.getTime() - row.pushRenewedAt.getTime() >= every)
  }

  /** The scheduled renewal: every mailbox whose push is due (or lapsed, or never started). */
  async function renewDuePush(now: Date = new Date()) {
    const rows = await db.select().from(mailboxes).where(connectedWithTokens)
    const result = { checked: rows.length, renewed: 0, recreatedAfterLapse: 0, failed: 0, notConfigured: 0 }
    for (const row of rows) {
      if (!mailboxService.pushAvailable(row.provider)) {
        result.notConfigured++
        continue
      }
      if (!renewalDue(row, now)) continue
      const lapsed = !row.pushExpiresAt || row.pushExpiresAt <= now
      const outcome = await mailboxService.ensurePush(row, now)
      if (!outcome.ok) result.failed++
      else if (lapsed) result.recreatedAfterLapse++
      else result.renewed++
    }
    return result
  }

  /** Providers drop notifications: mailboxes that have not synced for a while get a sync anyway. */
  async function sweep(now: Date = new Date()) {
    const rows = await db.select().from(mailboxes).where(connectedWithTokens)
    let queued = 0
    for (const row of rows) {
      const pushActive = webhookHealthOf(row, now) === 'active' || webhookHealthOf(row, now) === 'expiring_soon'
      const after = pushActive ? SWEEP_AFTER_MS.withPush : SWEEP_AFTER_MS.withoutPush
      if (row.lastSyncAt && now.getTime() - row.lastSyncAt.getTime() < after) continue
      await jobs.enqueueSync(row.id, 'poll')
      queued++
    }
    return { checked: rows.length, queued }
  }

  /**
   * The watchdog: finds stale mailboxes (push expired or failing, or no sync for STALE_AFTER_MS), checks
   * the grant, re-establishes push, and falls back to polling (the sweep) when push cannot be had.
   * Records each finding as the mailbox's heartbeat status.
   */
  async function watchdog(now: Date = new Date()): Promise<WatchdogStats> {
    const stats: WatchdogStats = {
      staleUsersFound: 0,
      reconnectionsAttempted: 0,
      reconnectionsSucceeded: 0,
      reconnectionsFailed: 0,
      fallbacksTriggered: 0,
      systemicIssuesDetected: 0,
      details: [],
    }
    const rows = await db.select().from(mailboxes).where(connectedWithTokens)
    for (const row of rows) {
      const health = webhookHealthOf(row, now)
      const syncStale = !row.lastSyncAt ? now.getTime() - row.connectedAt.getTime() > STALE_AFTER_MS : now.getTime() - row.lastSyncAt.getTime() > STALE_AFTER_MS
      const pushBroken = mailboxService.pushAvailable(row.provider) && (health === 'expired' || health === 'error' || health === 'inactive')
      if (!syncStale && !pushBroken) {
        if (row.heartbeatStatus && row.heartbeatStatus !== 'healthy') await record(row.id, 'healthy', now)
        continue
      }
      stats.staleUsersFound++
      const outcome = await reconnect(row, now, stats)
      stats.details.push({ provider: row.provider, mailboxId: row.id, outcome })
      await record(row.id, outcome, now)
    }
    return stats
  }

  async function reconnect(row: MailboxRow, now: Date, stats: WatchdogStats): Promise<HeartbeatStatus> {
    if ((await breakers.state(row.provider)).open) {
      stats.systemicIssuesDetected++
      return 'circuit_breaker_open'
    }
    stats.reconnectionsAttempted++
    // The grant first: without it nothing else can work.
    try {
      await mailboxService.adapterFor(row).getAddress()
    } catch {
      stats.reconnectionsFailed++
      const [after] = await db.select({ status: mailboxes.status }).from(mailboxes).where(eq(mailboxes.id, row.id))
      return after?.status === 'connected' ? 'reconnection_failed_unknown' : 'reconnection_failed_token'
    }
    if (!mailboxService.pushAvailable(row.provider)) {
      stats.reconnectionsSucceeded++
      stats.fallbacksTriggered++
      await jobs.enqueueSync(row.id, 'poll')
      return 'polling_fallback_triggered'
    }
    const outcome = await mailboxService.ensurePush(row, now)
    // Catch up either way: whatever arrived while push was down is read from the cursor.
    await jobs.enqueueSync(row.id, 'poll')
    if (outcome.ok) {
      stats.reconnectionsSucceeded++
      return 'healthy'
    }
    stats.reconnectionsFailed++
    if (outcome.reason === 'systemic') {
      stats.systemicIssuesDetected++
      return 'reconnection_failed_systemic'
    }
    if (outcome.reason === 'token') return 'reconnection_failed_token'
    stats.fallbacksTriggered++
    return 'polling_fallback_triggered'
  }

  async function record(mailboxId: number, status: HeartbeatStatus, now: Date) {
    await db.update(mailboxes).set({ heartbeatStatus: status, heartbeatAt: now }).where(eq(mailboxes.id, mailboxId))
  }

  /** SPEC 4 "Webhook health" for one mailbox (docs/decisions/014). */
  function webhookHealthOf(row: MailboxRow, now: Date): WebhookHealth {
    if (!mailboxService.pushAvailable(row.provider) || (!row.pushExpiresAt && !row.pushError)) return 'inactive'
    if (row.pushError && (!row.pushExpiresAt || row.pushExpiresAt <= now)) return 'error'
    if (!row.pushExpiresAt || row.pushExpiresAt <= now) return 'expired'
    if (row.pushError) return 'error'
    return row.pushExpiresAt.getTime() - now.getTime() < RENEW_WHEN_LESS_THAN_MS ? 'expiring_soon' : 'active'
  }

  /** GET /_api/webhooks/status: the caller's mailbox; null for the provider not connected. */
  async function webhookStatus(userId: number, now: Date = new Date()) {
    const row = await userMailbox(userId)
    const entry = (provider: MailProviderName) =>
      row && row.provider === provider && row.status !== 'disconnected'
        ? { healthStatus: row.status === 'connected' ? webhookHealthOf(row, now) : 'error', expiration: row.pushExpiresAt?.toISOString() ?? null }
        : null
    return { gmail: entry('gmail'), outlook: entry('outlook') }
  }

  async function userMailbox(userId: number) {
    const [row] = await db.select().from(mailboxes).where(eq(mailboxes.userId, userId)).limit(1)
    return row
  }

  /** GET /_api/heartbeat/status: is filtering alive for the caller, and if not, why (docs/decisions/014). */
  async function heartbeat(userId: number, now: Date = new Date()) {
    const row = await userMailbox(userId)
    const [latest] = await db.select({ at: decisions.decidedAt }).from(decisions).where(eq(decisions.userId, userId)).orderBy(desc(decisions.decidedAt)).limit(1)
    const base = { lastEmailProcessedAt: latest?.at.toISOString() ?? null, lastSyncAt: row?.lastSyncAt?.toISOString() ?? null }
    const answer = (heartbeatStatus: HeartbeatStatus, message: string) => ({ heartbeatStatus, message, ...base })
    if (!row || row.status === 'disconnected') return answer('unknown_provider', 'No mailbox is connected: connect Gmail or Outlook to start filtering.')
    const name = label(row.provider)
    if (row.status !== 'connected' || !row.refreshToken) {
      return answer('token_validation_failed', `Access to ${name} ended, so new mail is not being filtered. Reconnect ${name} on this page.`)
    }
    const breaker = await breakers.state(row.provider)
    if (breaker.open) return answer('circuit_breaker_open', `${name} is having problems right now. New mail will be filtered as soon as it recovers; nothing is lost.`)
    const finding = row.heartbeatAt && now.getTime() - row.heartbeatAt.getTime() < FINDING_TTL_MS ? (row.heartbeatStatus as HeartbeatStatus | null) : null
    const stale = row.lastSyncAt ? now.getTime() - row.lastSyncAt.getTime() > STALE_AFTER_MS : now.getTime() - row.connectedAt.getTime() > STALE_AFTER_MS
    if (stale) return answer('stale', `New mail has not been checked for a while. Inbox Guard is trying to reconnect to ${name}; use Repair below if it stays like this.`)
    if (finding && finding !== 'healthy' && finding !== 'ok') return answer(finding, findingMessage(finding, name))
    const health = webhookHealthOf(row, now)
    if (mailboxService.pushAvailable(row.provider) && (health === 'error' || health === 'expired')) {
      return answer('polling_fallback_triggered', `${name} is not sending notifications right now, so new mail is checked every few minutes instead. Use Repair below to restore instant filtering.`)
    }
    return answer('healthy', mailboxService.pushAvailable(row.provider) ? 'Filtering is running: new mail is checked as it arrives.' : 'Filtering is running: new mail is checked every few minutes.')
  }

  function findingMessage(status: HeartbeatStatus, name: string): string {
    switch (status) {
      case 'polling_fallback_triggered':
        return `${name} is not sending notifications right now, so new mail is checked every few minutes instead. Use Repair below to restore instant filtering.`
      case 'reconnection_failed_token':
        return `Access to ${name} ended. Reconnect ${name} on this page.`
      case 'reconnection_failed_systemic':
      case 'circuit_breaker_open':
        return `${name} is having problems right now. New mail will be filtered as soon as it recovers; nothing is lost.`
      default:
        return `Inbox Guard found a problem reaching ${name} and is retrying. Use Repair below if it stays like this.`
    }
  }

  /** POST /_api/webhooks/setup: re-establishes the caller's push; 'Not attempted.' for the other provider. */
  async function setup(userId: number, provider: 'gmail' | 'outlook' | 'all', now: Date = new Date()) {
    const row = await userMailbox(userId)
    const result: Record<MailProviderName, { success: boolean; message: string }> = {
      gmail: { success: false, message: NOT_ATTEMPTED },
      outlook: { success: false, message: NOT_ATTEMPTED },
    }
    const targets: MailProviderName[] = provider === 'all' ? (row && row.status !== 'disconnected' ? [row.provider] : []) : [provider]
    for (const target of targets) {
      if (!row || row.provider !== target || row.status === 'disconnected') {
        result[target] = { success: false, message: `No ${label(target)} mailbox is connected.` }
        continue
      }
      if (row.status !== 'connected' || !row.refreshToken) {
        result[target] = { success: false, message: `Access to ${label(target)} ended: reconnect your mailbox first.` }
        continue
      }
      const outcome = await mailboxService.ensurePush(row, now)
      if (outcome.ok) {
        await record(row.id, 'healthy', now)
        await jobs.enqueueSync(row.id, 'poll')
        result[target] = { success: true, message: `${label(target)} notifications are set up until ${outcome.expiresAt.toUTCString()}.` }
      } else {
        result[target] = { success: false, message: outcome.message }
      }
    }
    return result
  }

  return { renewDuePush, sweep, watchdog, heartbeat, webhookStatus, setup, webhookHealthOf }
}

export type HealthService = ReturnType<typeof createHealthService>
