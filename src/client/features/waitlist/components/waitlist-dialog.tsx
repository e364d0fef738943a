import { useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { CheckCircle2 } from 'lucide-react'
import { Button } from '#client/components/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#client/components/ui/dialog.tsx'
import { Input } from '#client/components/ui/input.tsx'
import { Label } from '#client/components/ui/label.tsx'
import { WaitlistBodySchema, type WaitlistBody } from '#shared/api/waitlist.ts'
import { useJoinWaitlist } from '../api/join-waitlist.ts'


export const WAITLIST_UNEXPECTED_ERROR = 'An unexpected error occurred. Please try again.'
/** The form resets this long after the dialog closes, once its exit is over (SPEC 9). */
export const WAITLIST_RESET_DELAY_MS = 300

type Step = 'form' | 'submitting' | 'success'

export interface WaitlistDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Prefill from the signed-in user. */
  defaultName?: string
  defaultEmail?: string
}

/** The Team plan waitlist: form → submitting → 'You're on the list!' (SPEC 4 "Waitlist dialog"). */
export function WaitlistDialog({ open, onOpenChange, defaultName = '', defaultEmail = '' }: WaitlistDialogProps) {
  const [step, setStep] = useState<Step>('form')
  const joinWaitlist = useJoinWaitlist()
  const resetTimer = useRef<number | undefined>(undefined)
  const form = useForm<WaitlistBody>({
    // The server validates with the same schema (SPEC 5 "Waitlist" messages, word for word).
    resolver: zodResolver(WaitlistBodySchema),
    mode: 'onBlur',
    defaultValues: { name: defaultName, email: defaultEmail },
  })
  const { errors } = form.formState

  const handleOpenChange = (next: boolean) => {
    window.clearTimeout(resetTimer.current)
    if (!next) {
      resetTimer.current = window.setTimeout(() => {
        form.reset({ name: defaultName, email: defaultEmail })
        setStep('form')
        joinWaitlist.reset()
      }, WAITLIST_RESET_DELAY_MS)
    }
    onOpenChange(next)
  }

  const onSubmit = form.handleSubmit(async (values) => {
    setStep('submitting')
    try {
      await joinWaitlist.mutateAsync(values)
      setStep('success')
    } catch (error) {
      setStep('form')
      form.setError('email', { message: error instanceof Error ? error.message : WAITLIST_UNEXPECTED_ERROR })
    }
  })

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent>
        {step === 'success' ? (
          <div className="flex flex-col items-center gap-3 py-4 text-center">
            <CheckCircle2 aria-hidden className="size-12 text-success-600" />
            <DialogTitle>You're on the list!</DialogTitle>
            <DialogDescription>
              We'll email you as soon as the Team plan is available. Nothing else, promise.
            </DialogDescription>
            <Button className="mt-2" onClick={() => handleOpenChange(false)}>
              Done
            </Button>
          </div>
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Join the Team plan waitlist</DialogTitle>
              <DialogDescription>
                Company-wide protection is coming soon. Leave your details and we'll tell you when it's ready.
              </DialogDescription>
            </DialogHeader>
            <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
              <div className="flex flex-col gap-1.5">
                <Label htmlFor="waitlist-name">Name</Label>
                <Input
                  id="waitlist-name"
                  autoComplete="name"
                  aria-invalid={errors.name ? true : undefined}
                  aria-describedby={errors.name ? 'waitlist-name-error' : undefined}
                  {...form.register('name')}
                />
                {errors.name && (
                  <p id="waitlist-name-error" role="alert" className="text-sm text-danger-600">
                    {errors.name.message}
                  </p>
                )}
              </div>
              <div className="flex flex-col gap-1.5">
                <Label htmlFor="waitlist-email">Email</Label>
                <Input
                  id="waitlist-email"
                  type="email"
                  autoComplete="email"
                  inputMode="email"
                  aria-invalid={errors.email ? true : undefined}
                  aria-describedby={errors.email ? 'waitlist-email-error' : undefined}
                  {...form.register('email')}
                />
                {errors.email && (
                  <p id="waitlist-email-error" role="alert" className="text-sm text-danger-600">
                    {errors.email.message}
                  </p>
                )}
              </div>
              <Button type="submit" size="lg" loading={step === 'submitting'} className="mt-2 w-full">
                {step === 'submitting' ? 'Joining…' : 'Join the waitlist'}
              </Button>
            </form>
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}
