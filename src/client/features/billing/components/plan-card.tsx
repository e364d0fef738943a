import { Link } from 'react-router'
import { Check, Sparkles } from 'lucide-react'
import { formatPrice, type PlanDefinition, type PlanId } from '#shared/plans.ts'
import { Badge } from '#client/components/ui/badge.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { cn } from '#client/lib/cn.ts'

export const SIGN_IN_TO_UPGRADE = 'Please sign in to upgrade your plan.'

export interface PlanCardProps {
  plan: PlanDefinition
  signedIn: boolean
  /** The signed-in user's plan; undefined when signed out or still loading. */
  currentPlanId: PlanId | undefined
  planLoading: boolean
  checkoutPending: boolean
  onUpgrade: () => void
  onJoinWaitlist: () => void
}

/**
 * One plan (SPEC 4 "Plan cards"). Free: a disabled 'Your Current Plan'. Standard: 'Upgrade',
 * disabled when signed out or current ('Your Current Plan'). Team: 'Coming soon' with
 * 'Notify me when available', disabled when signed out.
 */
export function PlanCard({ plan, signedIn, currentPlanId, planLoading, checkoutPending, onUpgrade, onJoinWaitlist }: PlanCardProps) {
  const isCurrent = signedIn && currentPlanId === plan.id
  const recommended = plan.id === 'standard'
  const titleId = `plan-${plan.id}-title`

  return (
    <article
      aria-labelledby={titleId}
      className={cn(
        'relative flex flex-col rounded-2xl border bg-surface p-6 shadow-card sm:p-8',
        recommended ? 'border-brand-500 ring-1 ring-brand-500' : 'border-line',
      )}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={titleId} className="text-xl font-semibold text-ink">
          {plan.name}
        </h2>
        {recommended && (
          <Badge tone="brand">
            <Sparkles aria-hidden className="size-3" /> Recommended
          </Badge>
        )}
        {isCurrent && <Badge tone="success">Current plan</Badge>}
      </div>
      <p className="mt-2 min-h-12 text-sm text-ink-muted">{plan.description}</p>

      <p className="mt-6 flex items-baseline gap-1">
        {plan.comingSoon ? (
          <span className="text-3xl font-bold tracking-tight text-ink">Coming soon</span>
        ) : (
          <>
            <span className="text-4xl font-bold tracking-tight text-ink">{formatPrice(plan.price)}</span>
            <span className="text-ink-muted">/ month</span>
          </>
        )}
      </p>

      <ul className="mt-6 flex flex-1 flex-col gap-3 text-sm" aria-label={`${plan.name} plan features`}>
        {plan.features.map((feature) => (
          <li key={feature} className="flex items-start gap-2 text-ink">
            <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-brand-600" />
            {feature}
          </li>
        ))}
      </ul>

      <div className="mt-8 flex flex-col gap-2">
        <PlanAction
          plan={plan}
          signedIn={signedIn}
          isCurrent={isCurrent}
          planLoading={planLoading}
          checkoutPending={checkoutPending}
          onUpgrade={onUpgrade}
          onJoinWaitlist={onJoinWaitlist}
          currentPlanId={currentPlanId}
        />
      </div>
    </article>
  )
}

function PlanAction({
  plan,
  signedIn,
  isCurrent,
  currentPlanId,
  planLoading,
  checkoutPending,
  onUpgrade,
  onJoinWaitlist,
}: PlanCardProps & { isCurrent: boolean }) {
  const hintId = `plan-${plan.id}-hint`

  if (plan.id === 'free') {
    // A paying user is not on Free; everyone else (visitors included) starts there.
    const onPaidPlan = signedIn && currentPlanId !== undefined && currentPlanId !== 'free'
    return (
      <Button variant="outline" size="lg" disabled className="w-full">
        {onPaidPlan ? 'Included in every plan' : 'Your Current Plan'}
      </Button>
    )
  }

  if (plan.id === 'team') {
    return (
      <>
        <Button
          variant="secondary"
          size="lg"
          className="w-full"
          disabled={!signedIn}
          aria-describedby={signedIn ? undefined : hintId}
          onClick={onJoinWaitlist}
        >
          Notify me when available
        </Button>
        {!signedIn && <SignInHint id={hintId} text="Sign in to join the waitlist." />}
      </>
    )
  }

  if (isCurrent) {
    return (
      <Button size="lg" disabled className="w-full">
        Your Current Plan
      </Button>
    )
  }
  return (
    <>
      <Button
        size="lg"
        className="w-full"
        disabled={!signedIn || planLoading || checkoutPending}
        loading={checkoutPending}
        aria-describedby={signedIn ? undefined : hintId}
        onClick={onUpgrade}
      >
        Upgrade
      </Button>
      {!signedIn && <SignInHint id={hintId} text={SIGN_IN_TO_UPGRADE} />}
    </>
  )
}

function SignInHint({ id, text }: { id: string; text: string }) {
  return (
    <p id={id} className="text-center text-xs text-ink-subtle">
      {text}{' '}
      <Link to="/login" className="font-medium text-brand-700 underline underline-offset-2">
        Sign in
      </Link>
    </p>
  )
}
