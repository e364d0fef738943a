import { z } from 'zod'
import { defineContract, errorResponses } from './contract.ts'

/** SPEC 3 "Waitlist submission", SPEC 5 validation messages word for word. */
export const WaitlistBodySchema = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200, 'Name is too long'),
  email: z.email({ error: 'Please enter a valid email address' }).max(320, 'Please enter a valid email address'),
})
export type WaitlistBody = z.infer<typeof WaitlistBodySchema>

/** POST /_api/team/waitlist (SPEC 7 "Team waitlist"): signed-in users only; repeats are idempotent. */
export const joinWaitlistContract = defineContract({
  method: 'POST',
  path: '/_api/team/waitlist',
  secure: true,
  body: WaitlistBodySchema,
  responses: {
    200: z.object({ success: z.literal(true) }),
    ...errorResponses(400, 401, 403, 429),
  },
})
