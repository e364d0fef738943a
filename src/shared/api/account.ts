import { z } from 'zod'
import { defineContract, errorResponses } from './contract.ts'

/** The phrase a person types to delete the account (SPEC 5, 9). */
export const DELETE_CONFIRMATION_PHRASE = 'DELETE MY ACCOUNT'

/** POST /_api/onboarding/complete, empty body (SPEC 7 "Onboarding"): marks hasCompletedOnboarding true. */
export const completeOnboardingContract = defineContract({
  method: 'POST',
  path: '/_api/onboarding/complete',
  secure: true,
  body: z.object({}).passthrough(),
  responses: {
    200: z.object({ success: z.literal(true) }),
    ...errorResponses(401, 403),
  },
})

/** SPEC 3 "Account deletion request", SPEC 5 validation messages word for word. */
export const DeleteAccountBodySchema = z.object({
  confirmationEmail: z
    .string({ error: 'Please enter a valid email address.' })
    .trim()
    .max(320, 'Please enter a valid email address.')
    .pipe(z.email({ error: 'Please enter a valid email address.' })),
  confirmationPhrase: z.string({ error: 'Confirmation phrase is required.' }).trim().min(1, 'Confirmation phrase is required.').max(100, 'Confirmation phrase is too long.'),
})
export type DeleteAccountBody = z.infer<typeof DeleteAccountBodySchema>

/** POST /_api/account/delete (SPEC 7 "Sessions and account"): returns {message}. */
export const deleteAccountContract = defineContract({
  method: 'POST',
  path: '/_api/account/delete',
  secure: true,
  body: DeleteAccountBodySchema,
  responses: {
    200: z.object({ message: z.string() }),
    ...errorResponses(400, 401, 403, 502),
  },
})
