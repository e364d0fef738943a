import { z } from 'zod'
import { defineContract, errorResponses } from './contract.ts'

/**
 * POST /_api/demo/deliver (demo mode only, from this machine only): puts one RFC 822 message into the
 * connected demo mailbox with that address as new mail, with the push notification a real provider
 * sends. Used by `npm run demo:deliver`.
 */
export const demoDeliverContract = defineContract({
  method: 'POST',
  path: '/_api/demo/deliver',
  secure: true,
  body: z.object({
    to: z.email({ error: 'to must be the address of a connected demo mailbox' }),
    raw: z.string().min(1, 'raw must be an RFC 822 message').max(10 * 1024 * 1024, 'raw is larger than 10 MB'),
  }),
  responses: {
    200: z.object({ provider: z.enum(['gmail', 'outlook']), id: z.string() }),
    ...errorResponses(400, 403, 404),
  },
})

/** Demo messages can carry attachments: larger than the app's usual 64 kB body limit. */
export const DEMO_DELIVER_BODY_LIMIT = 11 * 1024 * 1024

export const DEMO_FAULT_PROVIDERS = ['gmail', 'outlook'] as const
/** What a provider answers when it is down (500, 503) or throttling everyone (429). */
export const DEMO_FAULT_STATUSES = [500, 503, 429] as const
export const DEMO_FAULT_MAX_TIMES = 50

/**
 * POST /_api/demo/provider-fault (demo mode only, admin only): the operator's fault switch. The next
 * `times` calls the app makes to the demo Gmail or Outlook API answer `status`, so a few syncs fail
 * and the provider's circuit breaker can be seen opening in the admin panel. The adapters retry, so
 * one failing sync uses up several calls. `times: 0` clears the faults left.
 */
export const demoProviderFaultContract = defineContract({
  method: 'POST',
  path: '/_api/demo/provider-fault',
  secure: true,
  body: z.object({
    provider: z.enum(DEMO_FAULT_PROVIDERS, { error: 'provider must be gmail or outlook' }),
    status: z.literal(DEMO_FAULT_STATUSES, { error: 'status must be 500, 503 or 429' }),
    times: z
      .number({ error: `times must be a whole number from 0 to ${DEMO_FAULT_MAX_TIMES}` })
      .int(`times must be a whole number from 0 to ${DEMO_FAULT_MAX_TIMES}`)
      .min(0, `times must be a whole number from 0 to ${DEMO_FAULT_MAX_TIMES}`)
      .max(DEMO_FAULT_MAX_TIMES, `times must be a whole number from 0 to ${DEMO_FAULT_MAX_TIMES}`),
  }),
  responses: {
    200: z.object({ provider: z.enum(DEMO_FAULT_PROVIDERS), status: z.number().int(), times: z.number().int(), message: z.string() }),
    ...errorResponses(400, 401, 403),
  },
})
