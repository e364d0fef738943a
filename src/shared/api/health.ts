import { z } from 'zod'
import { defineContract, errorResponses } from './contract.ts'

/**
 * SPEC 4 "Heartbeat statuses" (anything else shows as unknown). Which condition gives which status:
 * docs/decisions/014-keeping-push-alive.md.
 */
export const HEARTBEAT_STATUSES = [
  'healthy',
  'ok',
  'stale_detected',
  'checking_prerequisites',
  'token_validation_failed',
  'circuit_breaker_open',
  'user_action_conflict',
  'subscription_validation_failed',
  'stale_reconnecting',
  'reconnection_failed_token',
  'reconnection_failed_webhook',
  'reconnection_failed_systemic',
  'reconnection_failed_unknown',
  'polling_fallback_triggered',
  'unknown_provider',
  'stale',
  'error',
] as const
export type HeartbeatStatus = (typeof HEARTBEAT_STATUSES)[number]

/** SPEC 3 "Heartbeat status". */
export const heartbeatStatusContract = defineContract({
  method: 'GET',
  path: '/_api/heartbeat/status',
  responses: {
    200: z.object({
      heartbeatStatus: z.enum(HEARTBEAT_STATUSES),
      /** When the newest message was decided, or null before the first one. */
      lastEmailProcessedAt: z.string().nullable(),
      /** A sentence saying what the status means and what to do (not in SPEC 3; shown under it). */
      message: z.string(),
      /** When the mailbox last finished a sync. */
      lastSyncAt: z.string().nullable(),
    }),
    ...errorResponses(401),
  },
})

/** SPEC 4 "Webhook health": inactive offers Setup; the others offer Repair; a missing provider shows Not Configured. */
export const WEBHOOK_HEALTH = ['active', 'expiring_soon', 'expired', 'error', 'inactive'] as const
export type WebhookHealth = (typeof WEBHOOK_HEALTH)[number]

export const WebhookStatusSchema = z.object({ healthStatus: z.enum(WEBHOOK_HEALTH), expiration: z.string().nullable() })

/** SPEC 3 "Webhook status" per provider; null for the provider the user has not connected. */
export const webhookStatusContract = defineContract({
  method: 'GET',
  path: '/_api/webhooks/status',
  responses: {
    200: z.object({ gmail: WebhookStatusSchema.nullable(), outlook: WebhookStatusSchema.nullable() }),
    ...errorResponses(401),
  },
})

const SetupResultSchema = z.object({ success: z.boolean(), message: z.string() })

/** POST /_api/webhooks/setup {provider}: re-establishes push for the caller's mailbox ('Not attempted.' for the other provider). */
export const webhookSetupContract = defineContract({
  method: 'POST',
  path: '/_api/webhooks/setup',
  secure: true,
  body: z.object({ provider: z.enum(['gmail', 'outlook', 'all'], { error: 'provider must be gmail, outlook or all' }) }),
  responses: {
    200: z.object({ gmail: SetupResultSchema, outlook: SetupResultSchema }),
    ...errorResponses(400, 401, 403, 429),
  },
})

/** SPEC 8 "webhook setup texts": a provider the request did not touch. */
export const NOT_ATTEMPTED = 'Not attempted.'
