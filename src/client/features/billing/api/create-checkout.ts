import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { createCheckoutContract } from '#shared/api/billing.ts'
import { callApi } from '#client/lib/api-client.ts'
import { subscriptionQueryOptions } from './get-subscription.ts'

/** Checkout is for paid self-serve plans; team is a waitlist (SPEC 5 "Checkout"). */
export type CheckoutPlanId = 'standard' | 'team'

/** POST /_api/billing/create-checkout {planId} → {url} (SPEC 7 "Billing"). */
export async function createCheckout({ planId }: { planId: CheckoutPlanId }): Promise<{ url: string }> {
  const data = await callApi(createCheckoutContract, { body: { planId } }, { fallbackError: 'Failed to create checkout session.' })
  if (!data?.url) throw new Error('Failed to create checkout session.')
  return { url: data.url }
}

/** On success the browser goes to the returned url and the subscription cache is invalidated. */
export function useCreateCheckout() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createCheckout,
    onSuccess: ({ url }) => {
      void queryClient.invalidateQueries({ queryKey: subscriptionQueryOptions().queryKey })
      window.location.assign(url)
    },
    onError: (error) => {
      toast.error(`Error: ${error.message}`)
    },
  })
}
