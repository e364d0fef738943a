/**
 * The mail provider layer (DESIGN "integrations/mail", issue 12): one narrow interface of intents that
 * the rest of the server talks to, with a Gmail and an Outlook adapter behind it. Only this folder
 * knows which provider it is talking to; nothing outside it branches on a provider's name.
 *
 * Never delete mail: no adapter may call an endpoint that destroys mail or sends it to the bin or the
 * spam folder. `assertNeverDestroys` (mail-safety.ts) lists them and enforces it in code, and the
 * fakes fail any test that tries.
 */

export const MAIL_PROVIDERS = ['gmail', 'outlook'] as const
export type MailProviderName = (typeof MAIL_PROVIDERS)[number]

/** The classifier's categories (src/classifier/types.ts), repeated here so the server owns its folder names. */
export type MailCategory = 'genuine' | 'informational' | 'promotional' | 'transactional' | 'unwanted'

/** OAuth tokens of one mailbox, as stored (encrypted) by the mailboxes feature. */
export interface MailTokens {
  accessToken: string
  refreshToken: string
  /** When the access token stops working. */
  expiresAt: Date
  /** Space-separated scopes the provider actually granted. */
  scope: string
}

/**
 * How an adapter gets a working access token. The mailboxes feature implements it: it decrypts the
 * stored tokens, refreshes them (serialized per mailbox, storing Microsoft's rotated refresh token)
 * and marks the mailbox revoked on invalid_grant.
 */
export interface MailCredentials {
  /** A valid access token (refreshed first if it expires within a minute). */
  accessToken(): Promise<string>
  /** Refreshes now, after the provider answered 401; throws MailAuthRevokedError on invalid_grant. */
  refresh(): Promise<string>
}

/** One message as the classifier needs it. */
export interface FetchedMessage {
  /** Provider message id (Outlook: immutable id). */
  id: string
  /** The full RFC 822 message. Lives in memory only: never stored, never logged. */
  raw: string
  receivedAt: Date
  /** Gmail threadId / Outlook conversationId. */
  threadId: string | null
}

export type NewMessagesResult =
  | { kind: 'ok'; ids: string[]; nextCursor: string }
  /** Gmail 404 on a too-old historyId, Graph 410 / resyncRequired: recover with listRecentInboxIds. */
  | { kind: 'cursor_expired' }

export interface PushSubscription {
  /** Outlook subscription id; Gmail has none (one watch per mailbox). */
  id: string | null
  expiresAt: Date
  /** Gmail: the historyId the watch started at. */
  historyId?: string
}

export interface PushTarget {
  /** Gmail: the Pub/Sub topic (`projects/{p}/topics/{t}`). */
  gmailTopic?: string
  /** Outlook: where change notifications go, and lifecycle notifications. */
  notificationUrl?: string
  lifecycleNotificationUrl?: string
  /** Outlook: secret echoed in every notification, compared in constant time by the receiver. */
  clientState?: string
}

export interface MailProvider {
  readonly name: MailProviderName
  /** The mailbox's own address. */
  getAddress(): Promise<string>
  /** Cursor for "everything after now": Gmail historyId; Outlook delta link of the Inbox. */
  currentCursor(): Promise<string>
  /** Ids of messages that arrived in the Inbox since the cursor, oldest first, and the next cursor. */
  listNewMessageIds(cursor: string): Promise<NewMessagesResult>
  /** Recovery when a cursor expired: Inbox message ids received after `since`, oldest first, at most `max`. */
  listRecentInboxIds(since: Date, max: number): Promise<string[]>
  /** The message as raw RFC 822, or null when it no longer exists (deleted by the user meanwhile). */
  fetchMessage(id: string): Promise<FetchedMessage | null>
  /**
   * Files a message away under its category: Gmail adds our label and removes INBOX; Outlook moves it
   * to our folder. Creates the label/folder if needed (idempotently). Returns the message id afterwards
   * (unchanged for both providers: Outlook ids are immutable).
   */
  fileAway(id: string, category: MailCategory): Promise<{ id: string }>
  /** Puts a filed message back in the Inbox (and removes our label). */
  restore(id: string, category: MailCategory): Promise<{ id: string }>
  /**
   * Whether the message is in the Inbox now, or null when it no longer exists. A move that was
   * interrupted (the process died after asking the provider, before recording that it had) is
   * finished by looking first, so it is never sent twice.
   */
  isInInbox(id: string): Promise<boolean | null>
  /** Whether the person has sent mail to this address, or to anyone at this domain (prior correspondence). */
  hasWrittenTo(addressOrDomain: string): Promise<boolean>
  startPush(target: PushTarget): Promise<PushSubscription>
  renewPush(subscription: PushSubscription, target: PushTarget): Promise<PushSubscription>
  stopPush(subscription: PushSubscription): Promise<void>
}

/** The grant is dead (invalid_grant): the mailbox needs the person to reconnect. */
export class MailAuthRevokedError extends Error {
  override name = 'MailAuthRevokedError'
}

/** The provider kept refusing after the retries (429/5xx), or answered an error that retrying cannot fix. */
export class MailProviderError extends Error {
  override name = 'MailProviderError'
  constructor(
    message: string,
    readonly status: number,
    /** Provider error code/reason (e.g. rateLimitExceeded, MailboxNotEnabledForRESTAPI). */
    readonly code: string | undefined,
  ) {
    super(message)
  }
}

/** Our label (Gmail) / folder (Outlook) names: "Inbox Guard/Unwanted" etc. */
export const CATEGORY_FOLDER_ROOT = 'Inbox Guard'
export const CATEGORY_FOLDER_NAMES: Record<MailCategory, string> = {
  genuine: 'Genuine',
  informational: 'Informational',
  promotional: 'Promotional',
  transactional: 'Transactional',
  unwanted: 'Unwanted',
}
