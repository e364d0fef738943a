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

/**
 * The new tab is opened in the click itself and sent to the portal once its URL is known: a browser
 * blocks a tab opened after a slow answer, when the click no longer counts as the person's own.
 */
function openBlankTab(): Window | null {
  const tab = window.open('about:blank', '_blank')
  // The portal must not be able to navigate this page (what 'noopener' does for a direct open).
  if (tab) tab.opener = null
  return tab
}

export function useOpenBillingPortal() {
  const mutation = useMutation({
    mutationFn: (_tab: Window | null) => openBillingPortal(),
    onSuccess: ({ url }, tab) => {
      if (tab && !tab.closed) tab.location.href = url
      else window.open(url, '_blank', 'noopener')
    },
    onError: (error, tab) => {
      tab?.close()
      toast.error(BILLING_MESSAGES.portalError(error.message))
    },
  })
  return { open: () => mutation.mutate(openBlankTab()), isPending: mutation.isPending }
}
