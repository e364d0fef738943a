import { useMutation, useQueryClient } from '@tanstack/react-query'
import { continueFreeContract, type SubscriptionResponse } from '#shared/api/billing.ts'
import { callApi } from '#client/lib/api-client.ts'
import { subscriptionQueryOptions } from './get-subscription.ts'

/** POST /_api/billing/continue-free {} → {planPrompt}: the plan dialog's free choice, remembered by the server. */
export async function continueFree() {
  const data = await callApi(continueFreeContract, { body: {} }, { fallbackError: 'Request failed' })
  if (!data) throw new Error('Request failed')
  return data
}

/** Stores the choice and updates the cached subscription at once, so the dialog closes without a refetch. */
export function useContinueFree() {
  const queryClient = useQueryClient()
  const { queryKey } = subscriptionQueryOptions()
  return useMutation({
    mutationFn: continueFree,
    onSuccess: ({ planPrompt }) => {
      queryClient.setQueryData(queryKey, (current: Partial<SubscriptionResponse> | undefined) => (current ? { ...current, planPrompt } : current))
    },
  })
}
