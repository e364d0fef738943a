import { sql } from 'drizzle-orm'
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'

/**
 * One schema for both drivers (PGlite and PostgreSQL, docs/decisions/002-database-drivers.md).
 * Change it, then run `npx drizzle-kit generate` and commit the new file under drizzle/.
 */

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    displayName: text('display_name').notNull(),
    email: text('email').notNull(),
    role: text('role', { enum: ['user', 'admin'] }).notNull().default('user'),
    hasCompletedOnboarding: boolean('has_completed_onboarding').notNull().default(false),
    /** When the user chose "Continue with the free plan" in the plan dialog (issue 16). */
    freePlanChosenAt: ts('free_plan_chosen_at'),
    /** The UTC month ('2026-11') in which the user last dismissed the plan dialog with the free limit reached. */
    planPromptDismissedMonth: text('plan_prompt_dismissed_month'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  // One account per email address (SPEC 1, 5): enforced case-insensitively by the database.
  (t) => [uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`)],
)

export const identities = pgTable(
  'identities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['google', 'microsoft'] }).notNull(),
    /** Google `sub`; Microsoft `${tid}:${oid}` (reference B1: key users on tid+oid). */
    providerSubject: text('provider_subject').notNull(),
    email: text('email').notNull(),
    /** Whether the provider vouched for `email` at sign-up (Google email_verified, Microsoft xms_edov). */
    emailVerified: boolean('email_verified').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('identities_provider_subject_idx').on(t.provider, t.providerSubject),
    index('identities_user_id_idx').on(t.userId),
  ],
)

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    /** SHA-256 of the random cookie token: a database leak does not hand out live sessions. */
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceType: text('device_type').notNull(),
    browser: text('browser').notNull(),
    os: text('os').notNull(),
    ipAddress: text('ip_address'),
    location: text('location').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastAccessed: ts('last_accessed').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_idx').on(t.tokenHash),
    index('sessions_user_id_idx').on(t.userId),
    index('sessions_expires_at_idx').on(t.expiresAt),
  ],
)

export const tempTokens = pgTable(
  'temp_tokens',
  {
    hash: text('hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Which provider signed the user in; recorded as the audit authenticationMethod at establish time. */
    provider: text('provider', { enum: ['google', 'microsoft'] }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('temp_tokens_expires_at_idx').on(t.expiresAt)],
)

export const oauthStates = pgTable(
  'oauth_states',
  {
    state: text('state').primaryKey(),
    /** Sign-in: google | microsoft. Mailbox connect: gmail | outlook. */
    provider: text('provider', { enum: ['google', 'microsoft', 'gmail', 'outlook'] }).notNull(),
    /** Mailbox connect only: who is connecting, and whether the flow runs in a popup or a full-page redirect. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    mode: text('mode', { enum: ['popup', 'redirect'] }),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    /** SHA-256 of the random value in the HttpOnly binding cookie set on the browser that started the flow. */
    browserBindingHash: text('browser_binding_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('oauth_states_expires_at_idx').on(t.expiresAt)],
)

/**
 * The one mailbox a user connects (SPEC 1, issue 12): Gmail or Outlook, tokens encrypted at rest
 * (src/server/lib/token-cipher.ts, context `mailbox:<id>:<field>`). Disconnecting clears the tokens
 * and keeps the row (settings and lists belong to the user, not the mailbox).
 */
export const mailboxes = pgTable(
  'mailboxes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['gmail', 'outlook'] }).notNull(),
    emailAddress: text('email_address').notNull(),
    /** SPEC 4 "Mailbox connection": connected | action_required | revoked | disconnected. */
    status: text('status', { enum: ['connected', 'action_required', 'revoked', 'disconnected'] }).notNull(),
    /** Why the status is what it is, in words the user can act on. */
    statusMessage: text('status_message'),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    tokenExpiresAt: ts('token_expires_at'),
    grantedScope: text('granted_scope'),
    /** Gmail historyId / Outlook delta link: where the next sync starts. */
    syncCursor: text('sync_cursor'),
    /** Outlook subscription id (Gmail watches have none). */
    pushSubscriptionId: text('push_subscription_id'),
    pushExpiresAt: ts('push_expires_at'),
    /** SHA-256 of the Outlook subscription's clientState; the secret itself is not kept. */
    pushClientStateHash: text('push_client_state_hash'),
    lastPushAt: ts('last_push_at'),
    /** When the last sync finished, and the received time of the newest message it decided (cursor recovery starts there). */
    lastSyncAt: ts('last_sync_at'),
    lastProcessedAt: ts('last_processed_at'),
    /** When push was last (re)established or renewed, and why the last attempt failed (null when it worked). */
    pushRenewedAt: ts('push_renewed_at'),
    pushError: text('push_error'),
    /** The watchdog's last finding (SPEC 4 heartbeat status) and when; docs/decisions/014. */
    heartbeatStatus: text('heartbeat_status'),
    heartbeatAt: ts('heartbeat_at'),
    /** This mailbox alone is throttled (429) until then: its syncs wait, nobody else's do. */
    syncBackoffUntil: ts('sync_backoff_until'),
    connectedAt: ts('connected_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // One mailbox per user (SPEC 4: only one provider may hold tokens).
    uniqueIndex('mailboxes_user_id_idx').on(t.userId),
    // Gmail push names the mailbox by address.
    index('mailboxes_email_lower_idx').on(sql`lower(${t.emailAddress})`),
    index('mailboxes_push_subscription_idx').on(t.pushSubscriptionId),
  ],
)

/**
 * Push notifications received, one row per provider message (Pub/Sub message id; Graph subscription
 * + resource + change), so a redelivery enqueues nothing twice. Also what "webhook events today" counts.
 */
export const pushReceipts = pgTable(
  'push_receipts',
  {
    id: serial('id').primaryKey(),
    /** Push notifications, or `poll`: a poll the client asked for (POST /_api/gmail/poll). */
    source: text('source', { enum: ['gmail', 'outlook', 'outlook_lifecycle', 'poll'] }).notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    mailboxId: integer('mailbox_id').references(() => mailboxes.id, { onDelete: 'cascade' }),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('push_receipts_source_key_idx').on(t.source, t.dedupeKey),
    index('push_receipts_mailbox_received_idx').on(t.mailboxId, t.receivedAt),
    // The daily retention purge finds rows by age (docs/decisions/016-data-retention.md).
    index('push_receipts_received_idx').on(t.receivedAt),
  ],
)

/** SPEC 3 "Settings": one row per user, created with the defaults (src/shared/api/settings.ts) on first read. */
export const userSettings = pgTable('user_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  filteringEnabled: boolean('filtering_enabled').notNull(),
  confidenceThreshold: real('confidence_threshold').notNull(),
  strictnessLevel: text('strictness_level', { enum: ['balanced', 'relaxed', 'strict'] }).notNull(),
  allowInformational: boolean('allow_informational').notNull(),
  allowPromotional: boolean('allow_promotional').notNull(),
  allowTransactional: boolean('allow_transactional').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
})

/** SPEC 3 "Whitelist / blacklist entry": lowercased domains, one list each. */
export const domainListEntries = pgTable(
  'domain_list_entries',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['whitelist', 'blacklist'] }).notNull(),
    domain: text('domain').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('domain_list_entries_user_kind_domain_idx').on(t.userId, t.kind, t.domain)],
)

/**
 * The person's own corrections, per sender address (issue 13): `trust` after a restore (the sender's
 * mail stays in the inbox), `file` after "This is cold" (filed away). Checked after the domain lists
 * and before the classifier.
 */
export const senderRules = pgTable(
  'sender_rules',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    action: text('action', { enum: ['trust', 'file'] }).notNull(),
    /** restore | flag (in the app) | mail_app (moved in Gmail or Outlook itself). */
    source: text('source', { enum: ['restore', 'flag', 'mail_app'] }).notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sender_rules_user_address_idx').on(t.userId, t.address)],
)

/**
 * One row per message the pipeline decided (issue 13): metadata only, never the body (SPEC 1). Unique
 * per mailbox and provider message id: a message is decided exactly once. A filed decision is written
 * before the provider is asked to move the message (`appliedAt` null until it has), so a crash in
 * between is finished by the next sync, never decided again.
 */
export const decisions = pgTable(
  'decisions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mailboxId: integer('mailbox_id')
      .notNull()
      .references(() => mailboxes.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['gmail', 'outlook'] }).notNull(),
    providerMessageId: text('provider_message_id').notNull(),
    receivedAt: ts('received_at').notNull(),
    decidedAt: ts('decided_at').notNull().defaultNow(),
    senderAddress: text('sender_address').notNull(),
    senderName: text('sender_name'),
    /** Cut to 120 characters. */
    subject: text('subject').notNull(),
    category: text('category', { enum: ['genuine', 'informational', 'promotional', 'transactional', 'unwanted'] }).notNull(),
    confidence: real('confidence').notNull(),
    action: text('action', { enum: ['kept', 'filed', 'skipped'] }).notNull(),
    state: text('state', { enum: ['kept', 'filed', 'restored', 'flagged', 'skipped'] }).notNull(),
    reasons: jsonb('reasons').$type<string[]>().notNull(),
    decidedBy: text('decided_by', { enum: ['whitelist', 'blacklist', 'sender_rule', 'classifier', 'error'] }).notNull(),
    /** When the provider confirmed the move (filed/flagged/restored); null while it is pending. */
    appliedAt: ts('applied_at'),
    applyAttempts: integer('apply_attempts').notNull().default(0),
    /**
     * Whoever is moving the message holds it until then (the sync that decided it, a later sync finishing
     * a pending move, or the person's restore), so two of them never move one message twice.
     */
    applyClaimedUntil: ts('apply_claimed_until'),
  },
  (t) => [
    uniqueIndex('decisions_mailbox_message_idx').on(t.mailboxId, t.providerMessageId),
    index('decisions_user_decided_idx').on(t.userId, t.decidedAt),
    // The daily retention purge finds rows by age (docs/decisions/016-data-retention.md).
    index('decisions_decided_idx').on(t.decidedAt),
    index('decisions_pending_idx').on(t.mailboxId, t.appliedAt),
  ],
)

/** Messages that failed to process, counted per try; after the last try a skipped decision is written. */
export const messageFailures = pgTable(
  'message_failures',
  {
    mailboxId: integer('mailbox_id')
      .notNull()
      .references(() => mailboxes.id, { onDelete: 'cascade' }),
    providerMessageId: text('provider_message_id').notNull(),
    attempts: integer('attempts').notNull(),
    lastError: text('last_error').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.mailboxId, t.providerMessageId] })],
)

/** Decided messages per user per UTC calendar month (SPEC 9 plans: the free plan's monthly limit). */
export const usageCounts = pgTable(
  'usage_counts',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `2026-11` */
    month: text('month').notNull(),
    emailsProcessed: integer('emails_processed').notNull().default(0),
    /** New messages left untouched because the plan's monthly limit was reached (issue 16). */
    emailsLeftAlone: integer('emails_left_alone').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.month] })],
)

/**
 * Prior correspondence per mailbox and sender (issue 13: "cached per sender"): whether the person has
 * written to that address, and to that organisation's domain, asked of the provider at most once a week.
 */
export const correspondenceCache = pgTable(
  'correspondence_cache',
  {
    mailboxId: integer('mailbox_id')
      .notNull()
      .references(() => mailboxes.id, { onDelete: 'cascade' }),
    /** A lowercased address or an organisation domain. */
    subject: text('subject').notNull(),
    hasWritten: boolean('has_written').notNull(),
    checkedAt: ts('checked_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.mailboxId, t.subject] })],
)

/**
 * SPEC 3 "Provider health entry": one circuit breaker per provider, persisted so every process sees
 * it (gmail, outlook, openai_classification). Open while circuitOpenUntil is in the future.
 */
export const providerHealth = pgTable(
  'provider_health',
  {
    id: serial('id').primaryKey(),
    serviceName: text('service_name', { enum: ['gmail', 'outlook', 'openai_classification'] }).notNull(),
    isHealthy: boolean('is_healthy').notNull().default(true),
    failureCount: integer('failure_count').notNull().default(0),
    lastFailureAt: ts('last_failure_at'),
    circuitOpenUntil: ts('circuit_open_until'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('provider_health_service_idx').on(t.serviceName)],
)

/** One row per sync run (which process, when), for operations and the proof that one mailbox never syncs twice at once. */
export const syncRuns = pgTable(
  'sync_runs',
  {
    id: serial('id').primaryKey(),
    mailboxId: integer('mailbox_id')
      .notNull()
      .references(() => mailboxes.id, { onDelete: 'cascade' }),
    worker: text('worker').notNull(),
    reason: text('reason').notNull(),
    startedAt: ts('started_at').notNull(),
    finishedAt: ts('finished_at'),
    outcome: text('outcome'),
    decided: integer('decided').notNull().default(0),
  },
  (t) => [index('sync_runs_mailbox_started_idx').on(t.mailboxId, t.startedAt), index('sync_runs_started_idx').on(t.startedAt)],
)

/** SPEC 3 "Audit log entry". Append-only: the application never updates or deletes these rows. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: serial('id').primaryKey(),
    timestamp: ts('timestamp').notNull().defaultNow(),
    eventType: text('event_type').notNull(),
    eventCategory: text('event_category').notNull(),
    severity: text('severity').notNull(),
    // No foreign key: audit rows outlive the users they mention (retention 7 years, SPEC 9).
    userId: integer('user_id'),
    action: text('action').notNull(),
    success: boolean('success').notNull(),
    ipAddress: text('ip_address'),
    sessionId: text('session_id'),
    resourceType: text('resource_type'),
    resourceId: text('resource_id'),
    authenticationMethod: text('authentication_method'),
    errorCode: text('error_code'),
    userAgent: text('user_agent'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('audit_events_timestamp_idx').on(t.timestamp),
    index('audit_events_user_id_idx').on(t.userId),
    index('audit_events_event_type_idx').on(t.eventType),
  ],
)

export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('waitlist_entries_email_lower_idx').on(sql`lower(${t.email})`)],
)

/** One row per scheduled job run; the admin cron-health panel reads these (SPEC 2 "Cron Job Health"). */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: serial('id').primaryKey(),
    jobName: text('job_name').notNull(),
    startedAt: ts('started_at').notNull(),
    finishedAt: ts('finished_at'),
    status: text('status', { enum: ['success', 'failed'] }).notNull(),
    result: jsonb('result').$type<Record<string, unknown>>(),
  },
  (t) => [index('job_runs_job_name_started_at_idx').on(t.jobName, t.startedAt)],
)

export type UserRow = typeof users.$inferSelect
export type MailboxRow = typeof mailboxes.$inferSelect

/**
 * A user's Stripe customer and current subscription, as last read from Stripe (issue 16). Billing
 * records outlive the account (seven years): the user id is cleared, the row stays.
 */
export const billingAccounts = pgTable(
  'billing_accounts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    stripeCustomerId: text('stripe_customer_id').notNull(),
    stripeSubscriptionId: text('stripe_subscription_id'),
    planId: text('plan_id', { enum: ['free', 'standard'] }).notNull().default('free'),
    /** Stripe's subscription status ('active', 'past_due', 'canceled', …), or 'none' before any. */
    status: text('status').notNull().default('none'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    currentPeriodEnd: ts('current_period_end'),
    /** When the subscription became past_due: filtering continues for PAST_DUE_GRACE_MS from then. */
    pastDueSince: ts('past_due_since'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('billing_accounts_user_idx').on(t.userId), uniqueIndex('billing_accounts_customer_idx').on(t.stripeCustomerId)],
)

/** Stripe events already handled, by event id: a redelivered event has no second effect. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: ts('received_at').notNull().defaultNow(),
})

/** Invoices as Stripe reported them; kept seven years, the user id cleared when the account goes. */
export const invoices = pgTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    stripeCustomerId: text('stripe_customer_id').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    createdAt: ts('created_at').notNull(),
    hostedUrl: text('hosted_url'),
  },
  (t) => [index('invoices_customer_idx').on(t.stripeCustomerId, t.createdAt)],
)

/**
 * Fixed-window request counters of @fastify/rate-limit, shared by every web process on the database
 * (src/server/plugins/rate-limit-store.ts, docs/decisions/021-session-cache-and-shared-rate-limits.md).
 * `key` is the route plus the limit's own key (an address or a user id); a row whose window has ended
 * restarts at the next hit and is deleted within a minute. No index beyond the key: the counter
 * updates stay HOT, and the minutely cleanup scans a table of at most the last minute's keys.
 */
export const rateLimitWindows = pgTable('rate_limit_windows', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  expiresAt: ts('expires_at').notNull(),
})
