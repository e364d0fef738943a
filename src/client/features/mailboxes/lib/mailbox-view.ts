import type { UseQueryResult } from '@tanstack/react-query'
import type { GmailStatus, MailboxProvider, OutlookStatus } from '#shared/api/mailboxes.ts'
import { MAILBOX_MESSAGES } from '../messages.ts'

/**
 * What one provider card shows (SPEC 4 "Mailbox connection"). Gmail understands connected,
 * disconnected, action_required and revoked; Outlook connected, disconnected and action_required;
 * any other value, and a failed check, is an error.
 */
export type MailboxView =
  | { kind: 'pending' }
  | { kind: 'connected'; email: string | null; holdsTokens: true }
  | { kind: 'disconnected'; message: string; holdsTokens: false }
  | { kind: 'reconnect'; status: 'action_required' | 'revoked'; message: string; email: string | null; holdsTokens: true }
  | { kind: 'error'; title: string; detail: string; email: string | null; holdsTokens: boolean }

const RECONNECT_STATUSES: Record<MailboxProvider, readonly string[]> = {
  gmail: ['action_required', 'revoked'],
  outlook: ['action_required'],
}

type StatusData = GmailStatus | OutlookStatus

const emailOf = (data: StatusData): string | null => ('gmailEmail' in data ? data.gmailEmail : data.outlookEmail) ?? null

export function toMailboxView(provider: MailboxProvider, query: Pick<UseQueryResult<StatusData>, 'data' | 'error' | 'isPending'>): MailboxView {
  const { data } = query
  if (!data) {
    if (query.error) {
      return { kind: 'error', title: MAILBOX_MESSAGES.statusCheckFailed(provider), detail: query.error.message, email: null, holdsTokens: false }
    }
    return { kind: 'pending' }
  }
  const status: string = data.status
  const email = emailOf(data)
  if (status === 'connected') return { kind: 'connected', email, holdsTokens: true }
  if (status === 'disconnected') return { kind: 'disconnected', message: data.message, holdsTokens: false }
  if (RECONNECT_STATUSES[provider].includes(status)) {
    return { kind: 'reconnect', status: status as 'action_required' | 'revoked', message: data.message, email, holdsTokens: true }
  }
  // The server answers anything but disconnected only for the provider that holds the tokens, so an
  // error status still means "this provider holds them" and the card must offer to clear them.
  const detail = data.details ? `${data.message} (${data.details})` : data.message
  return { kind: 'error', title: MAILBOX_MESSAGES.statusCheckFailed(provider), detail, email, holdsTokens: true }
}

/** Only one provider may hold tokens (SPEC 4); the other card is disabled until they are cleared. */
export function tokenHolder(views: Record<MailboxProvider, MailboxView>): MailboxProvider | null {
  const holders = (Object.keys(views) as MailboxProvider[]).filter((provider) => {
    const view = views[provider]
    return view.kind !== 'pending' && view.holdsTokens
  })
  return holders.length === 1 ? holders[0]! : null
}
