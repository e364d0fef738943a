import { toast } from 'sonner'
import type { MailboxProvider } from '#shared/api/mailboxes.ts'
import { ApiError } from '#client/lib/api-client.ts'
import { MAILBOX_MESSAGES } from '../messages.ts'

/** SPEC 9 "Timing": warnings stay 8 s. */
export const WARNING_TOAST_MS = 8_000

const warningOf = (body: unknown): string | undefined => {
  if (typeof body !== 'object' || body === null) return undefined
  const warning = (body as { warning?: unknown }).warning
  return typeof warning === 'string' && warning !== '' ? warning : undefined
}

/**
 * SPEC 8 "Mailboxes": 'Gmail account disconnected successfully.' with the backup ID if present; a
 * warning (in a success or a failure answer) is shown as info for 8 s.
 */
export function announceDisconnected(provider: MailboxProvider, result: { backupId?: string; warning?: string } | undefined) {
  toast.success(MAILBOX_MESSAGES.disconnected(provider, result?.backupId))
  const warning = warningOf(result)
  if (warning) toast.info(warning, { duration: WARNING_TOAST_MS })
}

/** Failure: the server's error, else 'Failed to disconnect Gmail account.' (set as the call's fallback). */
export function announceDisconnectFailed(provider: MailboxProvider, error: Error) {
  toast.error(error.message || MAILBOX_MESSAGES.disconnectFailed(provider))
  const warning = error instanceof ApiError ? warningOf(error.body) : undefined
  if (warning) toast.info(warning, { duration: WARNING_TOAST_MS })
}
