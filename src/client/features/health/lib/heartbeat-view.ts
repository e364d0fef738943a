import type { HeartbeatStatus } from '#shared/api/health.ts'
import type { HeartbeatFamily } from '../messages.ts'

/**
 * SPEC 4 "Heartbeat statuses", grouped by what they mean for the person: filtering runs; it runs
 * late or is being brought back by itself (the stale, reconnecting and fallback family); it has
 * stopped until something is fixed; there is no mailbox to filter. Anything else is unknown.
 * What each status means exactly is in the server's `message`, shown under the headline.
 */
export const HEARTBEAT_FAMILY = {
  healthy: 'running',
  ok: 'running',
  stale_detected: 'delayed',
  checking_prerequisites: 'delayed',
  stale_reconnecting: 'delayed',
  polling_fallback_triggered: 'delayed',
  stale: 'delayed',
  token_validation_failed: 'stopped',
  circuit_breaker_open: 'stopped',
  user_action_conflict: 'stopped',
  subscription_validation_failed: 'stopped',
  reconnection_failed_token: 'stopped',
  reconnection_failed_webhook: 'stopped',
  reconnection_failed_systemic: 'stopped',
  reconnection_failed_unknown: 'stopped',
  error: 'stopped',
  unknown_provider: 'noMailbox',
} as const satisfies Record<HeartbeatStatus, Exclude<HeartbeatFamily, 'unknown'>>

/** The family of any status string: a value the client does not know (a newer server) is 'unknown'. */
export function heartbeatFamily(status: string): HeartbeatFamily {
  return Object.hasOwn(HEARTBEAT_FAMILY, status) ? HEARTBEAT_FAMILY[status as HeartbeatStatus] : 'unknown'
}
