import { queryOptions, useQuery } from '@tanstack/react-query'
import type { SubscriptionResponse, subscriptionContract } from '#shared/api/billing.ts'
import type { PlanId } from '#shared/plans.ts'
import { ApiError, callApi } from '#client/lib/api-client.ts'
import { contractRoute } from '#client/lib/contract-route.ts'

// The header reads it on every page: the contract's route only, so zod stays off the public pages.
const subscriptionRoute = contractRoute<typeof subscriptionContract>({ method: 'GET', path: '/_api/billing/subscription' })

/** GET /_api/billing/subscription (SPEC 7 "Billing"). An empty answer reads as no subscription data. */
export async function getSubscription(): Promise<Partial<SubscriptionResponse>> {
  const data = await callApi(subscriptionRoute, undefined, { fallbackError: 'Failed to fetch subscription data.' })
  return data ?? {}
}

/**
 * Cached 5 minutes; retried up to 3 times but not on 404 (SPEC 7). A 404 is also matched by
 * status, because a missing route may answer {error: 'Not Found'} without the number in it.
 */
export const subscriptionQueryOptions = () =>
  queryOptions({
    queryKey: ['billing', 'subscription'] as const,
    queryFn: getSubscription,
    staleTime: 5 * 60_000,
    retry: (failureCount, error) =>
      failureCount < 3 && !error.message.includes('404') && !(error instanceof ApiError && error.status === 404),
  })

export const useSubscription = ({ enabled }: { enabled: boolean }) =>
  useQuery({ ...subscriptionQueryOptions(), enabled })

/**
 * The signed-in user's plan. Free is assumed when there is no subscription data or planId is free
 * (SPEC 4 "Plan cards"), which includes a failed or missing subscription endpoint.
 * `planId` is undefined when signed out or while the first answer is pending.
 */
export function useCurrentPlan({ signedIn }: { signedIn: boolean }): { planId: PlanId | undefined; isLoading: boolean } {
  const subscription = useSubscription({ enabled: signedIn })
  if (!signedIn) return { planId: undefined, isLoading: false }
  if (subscription.isPending) return { planId: undefined, isLoading: true }
  return { planId: subscription.data?.subscription?.planId ?? 'free', isLoading: false }
}
