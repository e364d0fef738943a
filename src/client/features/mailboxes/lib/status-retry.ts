import { ApiError } from '#client/lib/api-client.ts'

/**
 * SPEC 7 "Mailboxes": the connection status checks are not retried on 401 or when the message
 * says 'Unauthenticated' (a signed-out session will not heal by asking again); otherwise up to
 * 3 times like other queries.
 */
export function shouldRetryStatusCheck(failureCount: number, error: Error): boolean {
  if (failureCount >= 3) return false
  if (error instanceof ApiError && error.status === 401) return false
  return !error.message.includes('401') && !error.message.includes('Unauthenticated')
}

/** SPEC 9 "Timing": connection status cache 5 minutes. */
export const STATUS_STALE_TIME_MS = 5 * 60_000
