import { useEffect, useRef, useState } from 'react'
import { Filter, KeyRound, ListChecks, Mail } from 'lucide-react'
import { PRODUCT_NAME } from '#shared/product.ts'
import { Button } from '#client/components/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#client/components/ui/dialog.tsx'
import { useCompleteOnboarding } from '../api/complete-onboarding.ts'

/** The dialog closes this long after completing (SPEC 9 "Timing"). */
export const ONBOARDING_CLOSE_DELAY_MS = 300

const STEPS = [
  { icon: Mail, title: 'Connect your email', text: 'Connect Gmail or Outlook in the Email Provider Integrations card.' },
  { icon: KeyRound, title: 'Authorize permissions', text: `Allow ${PRODUCT_NAME} to read and label your mail. Setting up takes 1-2 minutes.` },
  { icon: Filter, title: 'Configure filtering', text: 'Choose in Filter Settings which kinds of mail stay in your inbox.' },
  {
    icon: ListChecks,
    title: 'Use the whitelist',
    text: `${PRODUCT_NAME} is still in testing: add the domains you always want to hear from to your whitelist, and their mail is never moved.`,
  },
] as const

export interface OnboardingDialogProps {
  /** The signed-in user has not completed onboarding (SPEC 4 "Onboarding"). */
  open: boolean
  /** Called once the server has it, ONBOARDING_CLOSE_DELAY_MS after completing: the page marks the cached user. */
  onCompleted: () => void
}

/**
 * The welcome dialog (SPEC 2 "Modals", 4 "Onboarding"): the product name, four steps and 'Get
 * Started', which marks onboarding complete and closes the dialog 300 ms later. Closing it another
 * way counts as done too: it is a welcome, not a gate, and does not come back on every visit.
 */
export function OnboardingDialog({ open, onCompleted }: OnboardingDialogProps) {
  const complete = useCompleteOnboarding()
  const [closing, setClosing] = useState(false)
  const timer = useRef<number | undefined>(undefined)
  useEffect(() => () => window.clearTimeout(timer.current), [])

  const finish = () => {
    if (complete.isPending || closing) return
    complete.mutate(undefined, {
      onSuccess: () => {
        setClosing(true)
        timer.current = window.setTimeout(onCompleted, ONBOARDING_CLOSE_DELAY_MS)
      },
    })
  }

  return (
    <Dialog open={open && !closing} onOpenChange={(next) => !next && finish()}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle className="text-2xl">Welcome to {PRODUCT_NAME}</DialogTitle>
          <DialogDescription>Four steps, and cold outreach stops landing in your inbox.</DialogDescription>
        </DialogHeader>
        <ol className="flex flex-col gap-4" aria-label="Getting started">
          {STEPS.map(({ icon: Icon, title, text }, index) => (
            <li key={title} className="flex gap-3">
              <span aria-hidden className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                <Icon className="size-4" />
              </span>
              <div className="flex flex-col gap-0.5">
                <span className="text-sm font-semibold text-ink">
                  {index + 1}. {title}
                </span>
                <span className="text-sm text-ink-muted">{text}</span>
              </div>
            </li>
          ))}
        </ol>
        {complete.isError && (
          <p role="alert" className="text-sm text-danger-700">
            {complete.error.message}
          </p>
        )}
        <Button size="lg" className="w-full" loading={complete.isPending} onClick={finish}>
          Get Started
        </Button>
      </DialogContent>
    </Dialog>
  )
}
