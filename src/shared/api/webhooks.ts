import { z } from 'zod'

/**
 * Provider push notifications (issue 12). Called by Google Pub/Sub and Microsoft Graph, never by the
 * client, so these are request schemas only; providers.md A3 (Pub/Sub envelope) and B3 (Graph).
 */

/** Pub/Sub push envelope; `data` is base64 JSON {emailAddress, historyId (string or number)}. */
export const PubSubPushSchema = z.object({
  message: z.object({
    data: z.string().max(10_000),
    messageId: z.string().min(1).max(200).optional(),
    message_id: z.string().min(1).max(200).optional(),
    publishTime: z.string().optional(),
    attributes: z.record(z.string(), z.string()).optional(),
  }),
  subscription: z.string().max(500).optional(),
})

export const GmailNotificationDataSchema = z.object({
  emailAddress: z.email(),
  historyId: z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform(String),
})

/** Graph change notification (one item of `value`). */
export const GraphNotificationSchema = z.object({
  subscriptionId: z.string().min(1).max(200),
  clientState: z.string().max(500).optional(),
  changeType: z.string().max(50).optional(),
  resource: z.string().max(1000).optional(),
  resourceData: z.object({ id: z.string().max(500).optional() }).passthrough().optional(),
  lifecycleEvent: z.enum(['reauthorizationRequired', 'subscriptionRemoved', 'missed']).optional(),
  subscriptionExpirationDateTime: z.string().max(100).optional(),
  tenantId: z.string().max(100).optional(),
})

/** A Graph POST is either the validation handshake (empty text body) or `{value: [...]}`. */
export const GraphPushBodySchema = z.union([z.string().max(0), z.object({ value: z.array(GraphNotificationSchema).max(1000).optional() })])

export const GraphValidationQuerySchema = z.object({ validationToken: z.string().max(1000).optional() })
