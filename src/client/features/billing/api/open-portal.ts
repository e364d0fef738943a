import { useMutation } from '@tanstack/react-query'
import { toast } from 'sonner'
import { billingPortalContract } from '#shared/api/billing.ts'
import { callApi } from '#client/lib/api-client.ts'
import { BILLING_MESSAGES } from '../messages.ts'

/** POST /_api/billing/portal {} → {url}, opened in a new tab (SPEC 7 "Billing"). */
export async function openBillingPortal(): Promise<{ url: string }> {
  const data = await callApi(billingPortalContract, { body: {} }, { fallbackError: BILLING_MESSAGES.portalFallback })
  if (!data?.url) throw new Error(BILLING_MESSAGES.portalFallback)
  return { url: data.url }
}

export function useOpenBillingPortal() {
  return useMutation({
    mutationFn: openBillingPortal,
    onSuccess: ({ url }) => {
      window.open(url, '_blank', 'noopener')
    },
    onError: (error) => {
      toast.error(BILLING_MESSAGES.portalError(error.message))
    },
  })
}
