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
