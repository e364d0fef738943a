import { useEffect, useState } from 'react'
import { useSearchParams } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import type { SubscriptionResponse } from '#shared/api/billing.ts'
import { subscriptionQueryOptions } from '../api/get-subscription.ts'
import { BILLING_MESSAGES } from '../messages.ts'

/** How often, and how long, the dashboard re-reads the plan after Stripe sends the payer back. */
export const CHECKOUT_CONFIRM_POLL_MS = 2_000
export const CHECKOUT_CONFIRM_TIMEOUT_MS = 60_000
const TOAST_ID = 'checkout-return'

/**
 * Back from a paid checkout (`/dashboard?checkout=success`): Stripe's webhook may land a moment after
 * the payer does, so the plan is re-read until it is paid, with a toast saying what is happening.
 * Returns true while waiting, so the plan dialog does not ask a paying user to choose a plan.
 */
export function useCheckoutReturn(): boolean {
  const [searchParams, setSearchParams] = useSearchParams()
  const returned = searchParams.get('checkout') === 'success'
  const [waiting, setWaiting] = useState(returned)
  const queryClient = useQueryClient()

  useEffect(() => {
    if (!returned) return
    setWaiting(true)
    const { queryKey } = subscriptionQueryOptions()
    const started = Date.now()
    let timer: number | undefined
    let stopped = false
    toast.loading(BILLING_MESSAGES.checkoutActivating, { id: TOAST_ID })
    const finish = (paid: boolean) => {
      if (stopped) return
      stopped = true
      if (paid) toast.success(BILLING_MESSAGES.checkoutActivated, { id: TOAST_ID })
      else toast.message(BILLING_MESSAGES.checkoutSlow, { id: TOAST_ID, duration: 10_000 })
      setWaiting(false)
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current)
          next.delete('checkout')
          return next
        },
        { replace: true },
      )
    }
    const check = async () => {
      await queryClient.invalidateQueries({ queryKey })
      const data = queryClient.getQueryData<Partial<SubscriptionResponse>>(queryKey)
      if (data?.subscription && data.subscription.planId !== 'free') return finish(true)
      if (Date.now() - started >= CHECKOUT_CONFIRM_TIMEOUT_MS) return finish(false)
      if (!stopped) timer = window.setTimeout(() => void check(), CHECKOUT_CONFIRM_POLL_MS)
    }
    void check()
    return () => {
      stopped = true
      window.clearTimeout(timer)
    }
  }, [returned, queryClient, setSearchParams])

  return returned && waiting
}
