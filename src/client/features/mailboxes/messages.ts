import type { MailboxProvider } from '#shared/api/mailboxes.ts'

/**
 * Every user-facing text of the mailbox feature, in one place. The SPEC 8 "Mailboxes" and
 * "Dashboard URL errors" texts are word for word; SPEC 8 gives only the gist of the four
 * per-code explanations, so those sentences are ours and keep to that gist.
 */

export const PROVIDER_LABEL: Record<MailboxProvider, string> = { gmail: 'Gmail', outlook: 'Outlook' }

export const MAILBOX_MESSAGES = {
  cardTitle: 'Email Provider Integrations',
  cardDescription: 'Connect one mailbox, Gmail or Outlook, for Inbox Guard to filter.',

  // SPEC 8 "Mailboxes"
  connectFallback: (provider: MailboxProvider) => `Failed to connect to ${PROVIDER_LABEL[provider]}. Please try again.`,
  statusCheckFailed: (provider: MailboxProvider) =>
    `Unable to check ${PROVIDER_LABEL[provider]} connection status. Please try again later.`,
  disconnected: (provider: MailboxProvider, backupId?: string) =>
    `${PROVIDER_LABEL[provider]} account disconnected successfully.${backupId ? ` Backup ID: ${backupId}` : ''}`,
  disconnectFailed: (provider: MailboxProvider) => `Failed to disconnect ${PROVIDER_LABEL[provider]} account.`,

  // Buttons (SPEC 2, 4)
  connect: (provider: MailboxProvider) => `Connect ${PROVIDER_LABEL[provider]}`,
  reconnect: (provider: MailboxProvider) => `Reconnect ${PROVIDER_LABEL[provider]}`,
  checkAgain: 'Check again',
  switchEmail: 'Switch Email Address',
  switchConfirm: 'Clear Tokens & Switch Provider',
  switchCancel: 'Cancel',

  // Card states
  connectedAs: 'Connected as',
  connectedBadge: 'Connected',
  notConnectedBadge: 'Not connected',
  actionRequiredBadge: 'Action required',
  revokedBadge: 'Access revoked',
  errorBadge: 'Unavailable',
  checkingBadge: 'Checking…',
  checkingStatus: (provider: MailboxProvider) => `Checking the ${PROVIDER_LABEL[provider]} connection`,
  waitingForPopup: (provider: MailboxProvider) => `Waiting for the ${PROVIDER_LABEL[provider]} window… Finish connecting there.`,
  otherHoldsTokens: (provider: MailboxProvider, holder: MailboxProvider) =>
    `${PROVIDER_LABEL[holder]} is connected. Only one mailbox can be connected: use Switch Email Address on the ${PROVIDER_LABEL[holder]} card to clear its tokens before connecting ${PROVIDER_LABEL[provider]}.`,
  // SPEC 4 "Mailbox connection": a status check pending over 30 s.
  statusTimeout: (provider: MailboxProvider) =>
    `Checking the ${PROVIDER_LABEL[provider]} connection is taking longer than 30 seconds. You can keep waiting, or clear the stored tokens and connect again.`,

  // The Switch Email Address confirmation
  switchTitle: 'Switch Email Address',
  switchDescription: (provider: MailboxProvider, email: string | null) =>
    `This clears the stored ${PROVIDER_LABEL[provider]} tokens${email ? ` for ${email}` : ''} and stops filtering that mailbox. No mail is deleted. Afterwards you can connect Gmail or Outlook.`,

  // SPEC 4 "Gmail re-authentication"
  reauthToast: 'Re-authenticating Gmail',
  reauthToastDescription: 'Inbox Guard needs you to grant its Gmail permissions again.',
  reauthTitle: 'Preparing Gmail Re-authentication',
  reauthText: 'Taking you to Google to restore access to your Gmail account…',
} as const

/** SPEC 8 "Dashboard URL errors": a title and a text for the 8 s toast. */
export interface UrlErrorText {
  title: string
  text: string
}

export const URL_ERROR_MESSAGES = {
  connectionFailedTitle: 'Connection Failed',
  credentialFailure:
    'Failed to save your Gmail connection. Please try connecting again and ensure you grant all requested permissions.',
  retry: 'Retry',
  byCode: {
    access_denied: {
      title: 'Permission Denied',
      text: 'Inbox Guard needs your Gmail permissions to filter your mail. Please try again and click "Allow" when Google asks.',
    },
    invalid_scope: {
      title: 'Permission Error',
      text: 'The requested permissions could not be granted. Please contact support.',
    },
    server_error: {
      title: 'Server Error',
      text: 'Something went wrong on our side. Please try again in a few minutes.',
    },
    exchange_license_required: {
      title: 'Exchange Online License Required',
      text: 'Your Outlook work account needs an Exchange Online license. Ask your administrator to assign one, or connect a personal Outlook account instead.',
    },
  } satisfies Record<string, UrlErrorText>,
  /** Title for any other error code (SPEC 8 names only the text). */
  otherTitle: 'Connection Failed',
  otherFallback: (code: string) => `Authorization failed with error: ${code}. Please try connecting again.`,
} as const
