import { sql } from 'drizzle-orm'
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
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
    source: text('source', { enum: ['gmail', 'outlook', 'outlook_lifecycle'] }).notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    mailboxId: integer('mailbox_id').references(() => mailboxes.id, { onDelete: 'cascade' }),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('push_receipts_source_key_idx').on(t.source, t.dedupeKey), index('push_receipts_mailbox_received_idx').on(t.mailboxId, t.receivedAt)],
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
