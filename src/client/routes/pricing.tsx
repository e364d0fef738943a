import { lazy, Suspense, useState } from 'react'
import { useSearchParams } from 'react-router'
import { Info, ShieldCheck } from 'lucide-react'
import { PLANS } from '#shared/plans.ts'
import { SUPPORT_EMAIL } from '#shared/product.ts'
import { PageMeta } from '#client/components/page-meta.tsx'
import { useAuth } from '#client/features/auth/hooks/use-auth.ts'
import { useCreateCheckout } from '#client/features/billing/api/create-checkout.ts'
import { useCurrentPlan } from '#client/features/billing/api/get-subscription.ts'
import { CheckoutOverlay } from '#client/features/billing/components/checkout-overlay.tsx'
import { PlanCard } from '#client/features/billing/components/plan-card.tsx'
import { BILLING_MESSAGES } from '#client/features/billing/messages.ts'
import { useIsClient } from '#client/lib/use-is-client.ts'

// Only signed-in visitors can open it: the prerendered page's visitors do not load its form code.
const WaitlistDialog = lazy(() =>
  import('#client/features/waitlist/components/waitlist-dialog.tsx').then((module) => ({ default: module.WaitlistDialog })),
)

const FAQ = [
  {
    q: 'What counts as an email?',
    a: 'Every new message Inbox Guard classifies in your connected mailbox. Mail already in your inbox before you connect is not counted.',
  },
  {
    q: 'What happens when I reach the free limit?',
    a: 'Filtering pauses until the next month begins, and your mail simply arrives as it did before. Nothing is lost or deleted.',
  },
  {
    q: 'Can I cancel at any time?',
    a: 'Yes. Cancellation takes effect at the end of the billing period you have paid for, and you keep Standard until then.',
  },
]

export default function PricingPage() {
  const auth = useAuth()
  const signedIn = auth.status === 'authenticated'
  const { planId, isLoading } = useCurrentPlan({ signedIn })
  const checkout = useCreateCheckout()
  const [waitlistOpen, setWaitlistOpen] = useState(false)
  // Stripe's cancel URL brings the visitor back here (create-checkout's cancel_url). The prerendered
  // page has no query, so the notice waits until it is hydrated.
  const [searchParams] = useSearchParams()
  const checkoutCanceled = useIsClient() && searchParams.get('checkout') === 'canceled'

  return (
    <>
      <PageMeta
        title="Pricing"
        description="Start free with 10 filtered emails a month, then upgrade to Standard for unlimited emails and advanced AI filtering at $4.99 a month."
        robots="index, follow"
      />
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
        <div className="mx-auto max-w-2xl text-center">
          <h1 className="text-4xl font-bold tracking-tight text-ink sm:text-5xl">Find the perfect plan</h1>
          <p className="mt-4 text-lg text-ink-muted">
            Start for free and see what Inbox Guard catches. Upgrade when you want every message filtered.
          </p>
        </div>

        {checkoutCanceled && (
          <p role="status" className="mx-auto mt-8 flex max-w-2xl items-center justify-center gap-2 rounded-xl border border-line bg-surface p-4 text-sm text-ink">
            <Info aria-hidden className="size-4 shrink-0 text-brand-600" />
            {BILLING_MESSAGES.checkoutCanceled}
          </p>
        )}

        <div className="mt-12 grid gap-6 lg:grid-cols-3">
          {PLANS.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              signedIn={signedIn}
              currentPlanId={planId}
              planLoading={isLoading}
              checkoutPending={checkout.isPending}
              onUpgrade={() => checkout.mutate({ planId: 'standard' })}
              onJoinWaitlist={() => setWaitlistOpen(true)}
            />
          ))}
        </div>

        <p className="mt-8 flex items-center justify-center gap-2 text-center text-sm text-ink-muted">
          <ShieldCheck aria-hidden className="size-4 text-brand-600" />
          Prices in USD, billed monthly in advance. Cancel any time; your plan runs to the end of the period.
        </p>

        <section aria-labelledby="faq-title" className="mx-auto mt-20 max-w-3xl">
          <h2 id="faq-title" className="text-2xl font-bold tracking-tight text-ink">
            Questions
          </h2>
          <dl className="mt-6 divide-y divide-line rounded-2xl border border-line bg-surface">
            {FAQ.map(({ q, a }) => (
              <div key={q} className="p-6">
                <dt className="font-semibold text-ink">{q}</dt>
                <dd className="mt-2 text-ink-muted">{a}</dd>
              </div>
            ))}
            <div className="p-6">
              <dt className="font-semibold text-ink">Something else?</dt>
              <dd className="mt-2 text-ink-muted">
                Write to{' '}
                <a className="text-brand-700 underline underline-offset-2" href={`mailto:${SUPPORT_EMAIL}`}>
                  {SUPPORT_EMAIL}
                </a>
                . A person reads every message.
              </dd>
            </div>
          </dl>
        </section>
      </div>

      {signedIn && (
        <Suspense fallback={null}>
          <WaitlistDialog
            key={auth.user.id}
            open={waitlistOpen}
            onOpenChange={setWaitlistOpen}
            defaultName={auth.user.displayName}
            defaultEmail={auth.user.email}
          />
        </Suspense>
      )}
      {(checkout.isPending || checkout.isSuccess) && <CheckoutOverlay />}
    </>
  )
}
