import type { CronStatus, ServiceName } from '#shared/api/admin.ts'
import type { WebhookHealth } from '#shared/api/health.ts'

/** What a provider's circuit breaker says (SPEC 4 "Circuit breaker"); see lib/provider-health.ts. */
export type CircuitState = 'healthy' | 'degraded' | 'open'

/** The webhook health counts of the mailbox-health call: SPEC 4 "Webhook health" plus no webhook at all. */
export type WebhookHealthCount = WebhookHealth | 'not_configured'

/**
 * Every user-facing text of the Admin Panel (SPEC 2 "/dashboard" Admin Panel), in one place. Texts
 * quoted in SPEC 4 ("Circuit breaker", "Cron health", "Webhook health", "Relative time display" via
 * src/client/lib/relative-time.ts) and SPEC 8 ("Admin", "Other loading") are word for word; the
 * rest is ours.
 */
export const ADMIN_MESSAGES = {
  panelTitle: 'Admin Panel',
  panelDescription: 'Operator tools: provider and job health, mailbox push health, maintenance actions and the security audit trail.',
  retry: 'Try again',
  cancel: 'Cancel',
  notAvailable: 'N/A',
  subPanelFailed: 'This section could not be shown. The rest of the Admin Panel still works.',

  /** SPEC 4 "Circuit breaker" and "Cron health" overall texts, word for word. */
  overall: {
    operational: 'All Systems Operational',
    systemic: 'Systemic Issues Detected',
    degraded: 'Degraded Performance',
    loading: 'Loading',
  },

  // ---- Provider Health Status (SPEC 3 "Provider health entry", SPEC 4 "Circuit breaker") ----
  providersTitle: 'Provider Health Status',
  providersDescription: 'Circuit breakers of the mail providers and the classifier. An open circuit pauses calls to that service until the time shown.',
  providersLoading: 'Loading provider health',
  providersLoadError: (message: string) => `Error loading provider health: ${message}`,
  providersEmpty: 'No provider is being tracked yet.',
  providerLabel: { gmail: 'Gmail', outlook: 'Outlook', openai_classification: 'OpenAI classification' } satisfies Record<ServiceName, string>,
  circuitState: { healthy: 'Healthy', degraded: 'Degraded', open: 'Circuit Open' } satisfies Record<CircuitState, string>,
  failureCount: 'Failures',
  lastFailure: 'Last failure',
  openUntil: 'Open until',
  reset: 'Reset',
  resetLabel: (provider: string) => `Reset ${provider} circuit breaker`,
  resetFailed: (message: string) => `Reset failed: ${message}`,

  // ---- Cron Job Health (SPEC 3 "Cron job entry", SPEC 4 "Cron health") ----
  cronTitle: 'Cron Job Health',
  cronDescription: 'Scheduled jobs and when each last ran. Refreshed every 30 seconds.',
  cronLoading: 'Loading cron health',
  cronLoadError: (message: string) => `Error loading cron health: ${message}`,
  cronEmpty: 'No cron jobs are being monitored.',
  cronJobsLabel: 'Cron jobs',
  cronColumns: { job: 'Job', schedule: 'Schedule', lastRun: 'Last run', status: 'Status' },
  cronStatus: { OK: 'OK', Stale: 'Stale', 'Not Run': 'Not Run' } satisfies Record<CronStatus, string>,
  cronLastRunFailed: 'Last run failed',
  cronEvery: (minutes: number) => `expected every ${minutes} min`,

  // ---- Webhook and heartbeat sub-panels (GET /_api/admin/mailbox-health) ----
  /** The one sub-panel standing for the three below while their shared call loads or has failed. */
  mailboxHealthTitle: 'Webhook and Heartbeat Health',
  mailboxLoading: 'Loading mailbox health',
  mailboxLoadError: (message: string) => `Error loading mailbox health: ${message}`,
  webhooksTitle: 'Webhook Health',
  webhooksDescription: (total: number) => `Push notification health across all ${total} connected ${total === 1 ? 'mailbox' : 'mailboxes'}.`,
  webhookHealth: {
    active: 'Active',
    expiring_soon: 'Expiring soon',
    expired: 'Expired',
    error: 'Error',
    inactive: 'Inactive',
    not_configured: 'Not Configured',
  } satisfies Record<WebhookHealthCount, string>,
  heartbeatsTitle: 'Heartbeat Health',
  heartbeatsDescription: 'Mailboxes by heartbeat status.',
  heartbeatsEmpty: 'No heartbeat has been recorded yet.',
  attentionTitle: 'Mailboxes Needing Attention',
  attentionDescription: 'Mailboxes whose connection, webhook or heartbeat is not healthy.',
  attentionEmpty: 'No mailbox needs attention.',
  attentionLabel: 'Mailboxes needing attention',
  attentionColumns: { userId: 'User ID', provider: 'Provider', status: 'Status', since: 'Since' },
  mailProvider: { gmail: 'Gmail', outlook: 'Outlook' } as Record<string, string>,

  // ---- Admin Controls (SPEC 2 Admin Controls, SPEC 8 "Admin") ----
  controlsTitle: 'Admin Controls',
  controlsDescription: 'Maintenance actions. Each runs right away on the server; the result is shown under its button.',
  watchdogTitle: 'Heartbeat watchdog',
  watchdogDescription: 'Checks every mailbox for a stale heartbeat and tries to reconnect it.',
  triggerWatchdog: 'Trigger Watchdog',
  watchdogDone: 'Watchdog run complete.',
  watchdogFailed: (message: string) => `Error triggering watchdog: ${message}`,
  watchdogNotSuccessful: 'The watchdog did not complete.',
  watchdogStats: {
    staleUsersFound: 'Stale users found',
    reconnectionsAttempted: 'Reconnections attempted',
    reconnectionsSucceeded: 'Reconnections succeeded',
    reconnectionsFailed: 'Reconnections failed',
    fallbacksTriggered: 'Fallbacks triggered',
    systemicIssuesDetected: 'Systemic issues detected',
  },
  cleanupTitle: 'Database cleanup',
  cleanupDescription: 'Deletes expired support records and finished queue entries.',
  runCleanup: 'Run Cleanup',
  cleanupConfirmTitle: 'Run the database cleanup?',
  cleanupConfirmDescription: 'Expired support records and finished queue entries are deleted for good.',
  cleanupDone: (supportRecordsDeleted: number, queueEntriesDeleted: number) =>
    `Cleanup complete: ${supportRecordsDeleted} support records and ${queueEntriesDeleted} queue entries deleted.`,
  cleanupFailed: (error: string) => `Cleanup failed: ${error}`,
  cleanupNotSuccessful: 'The cleanup did not complete.',
  sessionsTitle: 'Session maintenance',
  sessionsDescription: 'Backfills device details of older sessions, and deletes expired sessions and sessions older than 90 days.',
  backfillSessions: 'Backfill Sessions',
  cleanUpSessions: 'Clean Up Sessions',
  fullMaintenance: 'Full Maintenance',
  /** SPEC 8 "Admin", word for word, by action. */
  sessionMaintenanceFailed: { backfill: 'Backfill failed', cleanup: 'Cleanup failed', both: 'Full maintenance failed' },
  testModalsTitle: 'Test modals',
  testModalsDescription: 'Opens the onboarding or plan dialog as a user would see it. The plan dialog opened here does not close by itself.',
  testOnboarding: 'Test Onboarding Modal',
  testBillingPrompt: 'Test Billing Prompt',
  redactionTitle: 'Token redaction',
  redactionDescription: 'Removes tokens that older audit events recorded in their details.',
  redactTokens: 'Redact Audit Tokens',
  redactionConfirmTitle: 'Redact tokens in audit events?',
  redactionConfirmDescription: 'Token values stored in audit event details are replaced by a redaction mark. This cannot be undone.',
  redactionFailed: (message: string) => `Redaction failed: ${message}`,
  migrationTitle: 'Gmail webhook migration',
  migrationDescription: 'Re-creates every Gmail user’s push subscription on the current topic.',
  migrateWebhooks: 'Migrate Gmail Webhooks',
  migrationConfirmTitle: 'Migrate every Gmail webhook?',
  migrationConfirmDescription: 'Each Gmail user’s push subscription is stopped and created again. New mail may arrive a little late while this runs.',
  migrationDone: (successful: number, total: number) => `Migration Complete: ${successful}/${total} users successfully migrated`,
  migrationErrorsLabel: 'Migration errors',
  migrationFailed: (message: string) => `Migration failed: ${message}`,

  // ---- Team waitlist ----
  waitlistTitle: 'Team Waitlist',
  waitlistDescription: 'People who asked to hear when the Team plan is available, newest first.',
  waitlistLoading: 'Loading the Team waitlist',
  waitlistLoadError: (message: string) => `Error loading the Team waitlist: ${message}`,
  waitlistEmpty: 'No one has joined the Team waitlist yet.',
  waitlistLabel: 'Team waitlist',
  waitlistColumns: { name: 'Name', email: 'Email', userId: 'User ID', joined: 'Joined' },

  // ---- Security Audit Logs (SPEC 2, SPEC 3 "Audit log entry", SPEC 4 "Audit log filters", SPEC 8, SPEC 9) ----
  auditTitle: 'Security Audit Logs',
  /** SPEC 2: the panel states that audit events are immutable. */
  auditImmutable: 'Audit events are immutable.',
  auditDescription: 'Sign-ins, account changes and data access, newest first.',
  auditLoading: 'Loading audit logs',
  auditLoadError: 'Failed to load audit logs',
  auditUnknownError: 'An unknown error occurred.',
  auditFetchFallback: 'Failed to fetch audit logs',
  auditEmpty: 'No audit logs found',
  auditEmptyHint: 'Try adjusting your filters or check back later.',
  auditTableLabel: 'Security audit events, newest first',
  /** SPEC 2 columns, word for word and in this order. */
  auditColumns: ['Timestamp', 'Event', 'Category', 'Severity', 'User ID', 'Action', 'Status', 'IP Address', 'Details'] as const,
  auditStatus: { success: 'Success', failure: 'Failure' },
  showDetails: 'Show',
  hideDetails: 'Hide',
  detailsLabel: (expanded: boolean, id: number) => `${expanded ? 'Hide' : 'Show'} details of event ${id}`,
  detailFields: {
    sessionId: 'Session ID',
    resource: 'Resource',
    authenticationMethod: 'Authentication method',
    errorCode: 'Error code',
    userAgent: 'User agent',
    metadata: 'Metadata',
  },
  filtersLabel: 'Audit log filters',
  filterUserId: 'User ID',
  filterEventType: 'Event type',
  filterCategory: 'Category',
  filterSeverity: 'Severity',
  filterStatus: 'Status',
  filterStartDate: 'Start date',
  filterEndDate: 'End date',
  filterPageSize: 'Page size',
  filterAll: 'All',
  clearFilters: 'Clear Filters',
  pagesLabel: 'Audit log pages',
  firstPage: 'First',
  previousPage: 'Previous',
  nextPage: 'Next',
  lastPage: 'Last',
  firstPageLabel: 'First page',
  previousPageLabel: 'Previous page',
  nextPageLabel: 'Next page',
  lastPageLabel: 'Last page',
  pageOf: (page: number, totalPages: number) => `Page ${page} of ${totalPages}`,
  totalRecords: (count: number) => `Total records: ${count}`,
} as const
