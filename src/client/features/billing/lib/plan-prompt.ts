import type { SubscriptionResponse } from '#shared/api/billing.ts'

/** Why the plan dialog asks: the first choice after connecting, the free limit reached, or a failed payment. */
export type PlanPromptReason = 'choose' | 'limit-reached' | 'past-due'

/**
 * SPEC 4 "Billing prompt modal": asks when a mailbox is connected and the subscription is not active
 * on a paid plan, once both answers have loaded. Issue 16 adds the free plan as a choice: once taken,
 * the dialog asks again only when the free limit is reached (or a payment fails), once a month.
 * Nothing is asked where no plan can be bought.
 */
export function planPromptReason(subscription: Partial<SubscriptionResponse> | undefined): PlanPromptReason | null {
  if (!subscription?.subscription || !subscription.planPrompt?.billingAvailable) return null
  const { planId, status, emailLimit } = subscription.subscription
  const paidAndActive = planId !== 'free' && (status === 'active' || status === 'trialing')
  if (paidAndActive) return null
  const prompt = subscription.planPrompt
  if (planId !== 'free' && status === 'past_due') return prompt.dismissedThisMonth ? null : 'past-due'
  const limitReached = emailLimit !== null && (subscription.usage?.emailsProcessed ?? 0) >= emailLimit
  if (!prompt.freePlanChosen) return limitReached ? 'limit-reached' : 'choose'
  return limitReached && !prompt.dismissedThisMonth ? 'limit-reached' : null
}
