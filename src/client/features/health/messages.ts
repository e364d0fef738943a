import type { WebhookHealth } from '#shared/api/health.ts'

/** The two providers that push new mail (SPEC 3 "Webhook status"), in the order the card lists them. */
export const WEBHOOK_PROVIDERS = ['gmail', 'outlook'] as const
export type WebhookProvider = (typeof WEBHOOK_PROVIDERS)[number]

export const PROVIDER_LABEL: Record<WebhookProvider, string> = { gmail: 'Gmail', outlook: 'Outlook' }

/** How the heartbeat statuses group for the headline (lib/heartbeat-view.ts). */
export type HeartbeatFamily = 'running' | 'delayed' | 'stopped' | 'noMailbox' | 'unknown'

/**
 * Every user-facing text of the health feature (the System Status card), in one place. The SPEC 4
 * "Webhook health" words (Setup, Repair, Not Configured) and the SPEC 8 "Other loading" webhook
 * setup texts are word for word; the rest is ours. The relative times ('Unknown', 'Active now', …)
 * come from the shared helper in src/client/lib/relative-time.ts.
 */
export const HEALTH_MESSAGES = {
  cardTitle: 'System Status',
  cardDescription: 'Whether Inbox Guard is receiving and filtering your new mail.',
  retry: 'Try again',

  // Heartbeat (SPEC 3 "Heartbeat status", SPEC 4 "Heartbeat statuses")
  heartbeatLoading: 'Loading the filtering heartbeat',
  heartbeatLoadFailed: (message: string) => `Unable to load the filtering heartbeat: ${message}`,
  headline: {
    running: 'Filtering is running',
    delayed: 'Filtering is delayed',
    stopped: 'Filtering is not running',
    noMailbox: 'No mailbox connected',
    unknown: 'Unknown',
  } satisfies Record<HeartbeatFamily, string>,
  lastEmailProcessed: 'Last email processed:',
  lastSync: 'Last sync:',

  // Webhook health (SPEC 3 "Webhook status", SPEC 4 "Webhook health")
  webhooksHeading: 'Push notifications',
  webhooksDescription: 'Gmail and Outlook tell Inbox Guard about new mail the moment it arrives.',
  webhooksLoading: 'Loading the push notification status',
  webhooksLoadFailed: (message: string) => `Unable to load the push notification status: ${message}`,
  health: {
    active: 'Active',
    expiring_soon: 'Expiring soon',
    expired: 'Expired',
    error: 'Error',
    inactive: 'Inactive',
  } satisfies Record<WebhookHealth, string>,
  /** SPEC 4 "Webhook health", word for word: a provider the status does not list. */
  notConfigured: 'Not Configured',
  /** SPEC 4 "Webhook health", word for word: the button of an inactive provider, and of the others. */
  setup: 'Setup',
  repair: 'Repair',
  /** "Expires in 2 days" / "Expired 3 hours ago", around the shared relative offset. */
  expiresIn: (relative: string) => `Expires ${relative}`,
  expiredAgo: (relative: string) => `Expired ${relative}`,

  // SPEC 8 "Other loading": webhook setup, word for word
  setupOutlookFailed: (message: string) => `Outlook: ${message}`,
  setupUnexpected: 'An unexpected error occurred during webhook setup.',
} as const
