import { AlertTriangle } from 'lucide-react'
import { PLANS, type PlanId } from '#shared/plans.ts'
import { Button } from '#client/components/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#client/components/ui/dialog.tsx'
import { useContinueFree } from '../api/continue-free.ts'
import { useCreateCheckout } from '../api/create-checkout.ts'
import { useSubscription } from '../api/get-subscription.ts'
import { useOpenBillingPortal } from '../api/open-portal.ts'
import { planPromptReason, type PlanPromptReason } from '../lib/plan-prompt.ts'
import { BILLING_MESSAGES } from '../messages.ts'
import { CheckoutOverlay } from './checkout-overlay.tsx'
import { PlanCard } from './plan-card.tsx'

const FREE_LIMIT = PLANS.find((plan) => plan.id === 'free')!.emailLimit ?? 0
const OFFERED = PLANS.filter((plan) => plan.id !== 'free')
const keepOpen = (event: Event) => event.preventDefault()

export interface PlanDialogProps {
  open: boolean
  reason: PlanPromptReason
  currentPlanId: PlanId | undefined
  /** The subscription could not be loaded: say so, and still offer the plans (SPEC 8 "Billing"). */
  loadFailed?: boolean
  onJoinWaitlist: () => void
  /** Called once the user took the free plan (or put off a failed payment). */
  onChoiceMade?: () => void
  /**
   * Opened by an admin to check it (SPEC 2: auto-close disabled): it stays until this is called
   * from its own 'Close preview' button, and makes no choice for the admin's account.
   */
  onClosePreview?: () => void
}

/**
 * 'Complete Setup - Choose Your Plan' (SPEC 2, 4): the standard and team plans, and, because the
 * pricing page offers a free plan, an explicit way to carry on with it (issue 16). Escape and clicks
 * outside do not close it; a choice does.
 */
export function PlanDialog({ open, reason, currentPlanId, loadFailed = false, onJoinWaitlist, onChoiceMade, onClosePreview }: PlanDialogProps) {
  const checkout = useCreateCheckout()
  const continueFree = useContinueFree()
  const portal = useOpenBillingPortal()
  const choose = () => continueFree.mutate(undefined, { onSuccess: () => onChoiceMade?.() })

  return (
    <Dialog open={open}>
      <DialogContent
        hideClose
        aria-describedby="plan-dialog-description"
        className="max-w-3xl sm:p-8"
        onEscapeKeyDown={keepOpen}
        onPointerDownOutside={keepOpen}
        onInteractOutside={keepOpen}
      >
        <DialogHeader className="pr-0">
          <DialogTitle className="text-2xl">{BILLING_MESSAGES.planDialogTitle}</DialogTitle>
          <DialogDescription id="plan-dialog-description">{BILLING_MESSAGES.planDialogDescription}</DialogDescription>
        </DialogHeader>
        {loadFailed ? (
          <p role="alert" className="rounded-md bg-warning-50 p-3 text-sm text-warning-800">
            {BILLING_MESSAGES.planDialogLoadError}
          </p>
        ) : reason !== 'choose' ? (
          <p role="status" className="flex gap-2 rounded-md bg-warning-50 p-3 text-sm text-warning-800">
            <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
            {reason === 'past-due' ? BILLING_MESSAGES.planDialogPastDue : BILLING_MESSAGES.planDialogLimitReached(FREE_LIMIT)}
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          {OFFERED.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              signedIn
              currentPlanId={currentPlanId}
              planLoading={false}
              checkoutPending={checkout.isPending}
              onUpgrade={() => checkout.mutate({ planId: 'standard' })}
              onJoinWaitlist={onJoinWaitlist}
            />
          ))}
        </div>
        <div className="flex flex-col items-center gap-2 border-t border-line pt-4 sm:flex-row sm:justify-center">
          {reason === 'past-due' ? (
            <>
              <Button loading={portal.isPending} onClick={portal.open}>
                {BILLING_MESSAGES.updatePayment}
              </Button>
              <Button variant="ghost" loading={continueFree.isPending} onClick={choose}>
                {BILLING_MESSAGES.notNow}
              </Button>
            </>
          ) : (
            <Button variant="outline" loading={continueFree.isPending} onClick={onClosePreview ?? choose}>
              {BILLING_MESSAGES.continueFree(FREE_LIMIT)}
            </Button>
          )}
          {onClosePreview && (
            <Button variant="ghost" onClick={onClosePreview}>
              Close preview
            </Button>
          )}
        </div>
        {continueFree.isError && (
          <p role="alert" className="text-center text-sm text-danger-700">
            {BILLING_MESSAGES.continueFreeError(continueFree.error.message)}
          </p>
        )}
        {(checkout.isPending || checkout.isSuccess) && <CheckoutOverlay />}
      </DialogContent>
    </Dialog>
  )
}

/**
 * Opens the plan dialog on its own (SPEC 4 "Billing prompt modal") once the subscription and the
 * mailbox connection have loaded, and closes it as soon as the subscription is active on a paid plan.
 * `suppressed` holds it shut while a finished checkout is being confirmed.
 */
export function BillingPrompt({ mailboxConnected, suppressed = false, onJoinWaitlist }: { mailboxConnected: boolean; suppressed?: boolean; onJoinWaitlist: () => void }) {
  const subscription = useSubscription({ enabled: true })
  const reason = subscription.isSuccess ? planPromptReason(subscription.data) : null
  const open = mailboxConnected && !suppressed && reason !== null
  return (
    <PlanDialog
      open={open}
      reason={reason ?? 'choose'}
      currentPlanId={subscription.data?.subscription?.planId ?? 'free'}
      onJoinWaitlist={onJoinWaitlist}
    />
  )
}
