import { toast } from 'sonner'
import { NOT_ATTEMPTED } from '#shared/api/health.ts'
import { ApiError } from '#client/lib/api-client.ts'
import type { WebhookSetupResponse } from '../api/setup-webhook.ts'
import { HEALTH_MESSAGES, WEBHOOK_PROVIDERS } from '../messages.ts'

/** SPEC 9 "Timing": warnings stay 8 s. */
export const WARNING_TOAST_MS = 8_000

/**
 * SPEC 8 "Other loading", webhook setup: each provider's result in turn. A success shows its
 * message; an Outlook failure is an error 'Outlook: {message}'; a Gmail failure is shown as a
 * warning; a provider the request did not touch answers 'Not attempted.', which is ignored.
 */
export function announceSetupResult(result: WebhookSetupResponse) {
  for (const provider of WEBHOOK_PROVIDERS) {
    const { success, message } = result[provider]
    if (message === NOT_ATTEMPTED) continue
    if (success) toast.success(message)
    else if (provider === 'outlook') toast.error(HEALTH_MESSAGES.setupOutlookFailed(message))
    else toast.warning(message, { duration: WARNING_TOAST_MS })
  }
}

/**
 * The call itself failed (network, rate limit, session): SPEC 8's generic text, with the server's
 * own reason underneath when it sent one.
 */
export function announceSetupFailed(error: Error) {
  const reason = error instanceof ApiError ? error.error : undefined
  toast.error(HEALTH_MESSAGES.setupUnexpected, reason ? { description: reason } : undefined)
}
