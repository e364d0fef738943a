import { z } from 'zod'
import { defineContract, errorResponses } from './contract.ts'

/** SPEC 3 "Subscription response". `emailLimit` null means unlimited. */
export const SubscriptionSchema = z.object({
  planId: z.enum(['free', 'standard', 'team']),
  planName: z.string(),
  status: z.string(),
  emailLimit: z.number().int().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  currentPeriodEnd: z.string().nullable(),
})
export type Subscription = z.infer<typeof SubscriptionSchema>

export const InvoiceSchema = z.object({
  amountCents: z.number().int(),
  currency: z.string(),
  status: z.string(),
  date: z.string(),
  hostedUrl: z.string().nullable(),
})

/**
 * What the 'Complete Setup - Choose Your Plan' dialog needs beyond SPEC 3 (issue 16): whether plans
 * can be bought here at all, whether the user chose to continue on the free plan, and whether they
 * dismissed the dialog this month after the free limit was reached (or a payment failed).
 */
export const PlanPromptSchema = z.object({
  billingAvailable: z.boolean(),
  freePlanChosen: z.boolean(),
  dismissedThisMonth: z.boolean(),
})
export type PlanPrompt = z.infer<typeof PlanPromptSchema>

/** GET /_api/billing/subscription (SPEC 7 "Billing"): free users get the free plan, not a 404. */
export const subscriptionContract = defineContract({
  method: 'GET',
  path: '/_api/billing/subscription',
  responses: {
    200: z.object({
      subscription: SubscriptionSchema,
      usage: z.object({
        emailsProcessed: z.number().int(),
        percentUsed: z.number(),
        /** New messages left untouched this month because the monthly limit was reached. */
        emailsLeftAlone: z.number().int(),
      }),
      invoice: InvoiceSchema.nullable(),
      planPrompt: PlanPromptSchema,
    }),
    ...errorResponses(401),
  },
})
export type SubscriptionResponse = z.infer<(typeof subscriptionContract)['responses'][200]>

/** SPEC 5 "Checkout": planId must be standard or team (team is refused by the server: it is a waitlist). */
export const CheckoutBodySchema = z.object({
  planId: z.enum(['standard', 'team'], { error: 'planId must be standard or team' }),
})

/** POST /_api/billing/create-checkout {planId} → {url} (SPEC 7 "Billing"). */
export const createCheckoutContract = defineContract({
  method: 'POST',
  path: '/_api/billing/create-checkout',
  secure: true,
  body: CheckoutBodySchema,
  responses: {
    200: z.object({ url: z.string() }),
    ...errorResponses(400, 401, 403, 502),
  },
})

/** POST /_api/billing/portal {} → {url}, opened in a new tab (SPEC 7 "Billing"). */
export const billingPortalContract = defineContract({
  method: 'POST',
  path: '/_api/billing/portal',
  secure: true,
  body: z.object({}).passthrough(),
  responses: {
    200: z.object({ url: z.string() }),
    ...errorResponses(400, 401, 403, 502),
  },
})

/** POST /_api/billing/continue-free {}: "Continue with the free plan" in the plan dialog, remembered. */
export const continueFreeContract = defineContract({
  method: 'POST',
  path: '/_api/billing/continue-free',
  secure: true,
  body: z.object({}).passthrough(),
  responses: {
    200: z.object({ planPrompt: PlanPromptSchema }),
    ...errorResponses(401, 403),
  },
})
