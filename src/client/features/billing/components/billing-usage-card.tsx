import { Link } from 'react-router'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { useOpenBillingPortal } from '../api/open-portal.ts'
import { useSubscription } from '../api/get-subscription.ts'
import { BILLING_MESSAGES, statusLabel } from '../messages.ts'

const dateOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })

/**
 * The dashboard's Billing & Usage card (SPEC 2, SPEC 4 "Subscription status display"): plan, status,
 * renewal or cancellation date, this month's usage against the limit or 'unlimited', and Manage
 * Billing (opening Stripe's portal in a new tab) on paid plans, Upgrade on the free one.
 */
export function BillingUsageCard({ className }: { className?: string }) {
  const subscription = useSubscription({ enabled: true })
  const portal = useOpenBillingPortal()
  const data = subscription.data
  return (
    <Card role="region" aria-labelledby="billing-usage-title" className={className}>
      <CardHeader>
        <CardTitle id="billing-usage-title">{BILLING_MESSAGES.cardTitle}</CardTitle>
        <CardDescription>{BILLING_MESSAGES.cardDescription}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {subscription.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : subscription.isError ? (
          <p role="alert" className="text-sm text-danger-700">
            {BILLING_MESSAGES.loadError(subscription.error.message)}
          </p>
        ) : (
          (() => {
            const plan = data?.subscription
            const usage = data?.usage ?? { emailsProcessed: 0, percentUsed: 0, emailsLeftAlone: 0 }
            const isFree = !plan || plan.planId === 'free'
            const limit = plan?.emailLimit ?? null
            return (
              <>
                <p className="flex items-baseline justify-between gap-2">
                  <span className="font-semibold">{plan?.planName ?? 'Free'}</span>
                  <span className="text-sm text-ink-muted">{statusLabel(plan?.status ?? 'active')}</span>
                </p>
                {!isFree && plan?.currentPeriodEnd ? (
                  <p className="text-sm text-ink-muted">{plan.cancelAtPeriodEnd ? BILLING_MESSAGES.cancels(dateOf(plan.currentPeriodEnd)) : BILLING_MESSAGES.renews(dateOf(plan.currentPeriodEnd))}</p>
                ) : null}
                <p className="text-sm">{limit === null ? BILLING_MESSAGES.usageUnlimited(usage.emailsProcessed) : BILLING_MESSAGES.usageOf(usage.emailsProcessed, limit)}</p>
                {limit !== null && usage.emailsLeftAlone > 0 ? (
                  <p role="status" className="rounded-md bg-warning-50 p-2 text-sm text-warning-800">
                    {BILLING_MESSAGES.limitReached(limit, usage.emailsLeftAlone)}
                  </p>
                ) : null}
                {limit !== null ? (
                  <div role="progressbar" aria-label="E-mails used this month" aria-valuemin={0} aria-valuemax={100} aria-valuenow={usage.percentUsed} className="h-2 w-full rounded bg-canvas">
                    <div className="h-2 rounded bg-brand-600" style={{ width: `${Math.min(100, usage.percentUsed)}%` }} />
                  </div>
                ) : null}
                {isFree ? (
                  <Button asChild variant="outline" className="self-start">
                    <Link to="/pricing">{BILLING_MESSAGES.upgrade}</Link>
                  </Button>
                ) : (
                  <Button variant="outline" className="self-start" disabled={portal.isPending} onClick={portal.open}>
                    {BILLING_MESSAGES.manageBilling}
                  </Button>
                )}
              </>
            )
          })()
        )}
      </CardContent>
    </Card>
  )
}
