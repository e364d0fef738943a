import { useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { AlertTriangle } from 'lucide-react'
import { toast } from 'sonner'
import { DELETE_CONFIRMATION_PHRASE, DeleteAccountBodySchema, type DeleteAccountBody } from '#shared/api/account.ts'
import { Button } from '#client/components/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#client/components/ui/dialog.tsx'
import { Input } from '#client/components/ui/input.tsx'
import { Label } from '#client/components/ui/label.tsx'
import { useDeleteAccount } from '../api/delete-account.ts'
import { ACCOUNT_MESSAGES } from '../messages.ts'

type Step = 'closed' | 'confirm' | 'form'

export interface DangerZoneProps {
  /** The signed-in user's address: the form's Delete button waits for it, typed exactly. */
  email: string
  /** After a successful deletion (the page logs out and goes to /login). */
  onDeleted: () => void
}

/**
 * Danger Zone (SPEC 4 "Account deletion", 5, 8): a first confirmation, then a form where the user
 * types their e-mail and DELETE MY ACCOUNT; Delete is enabled only when both match exactly.
 */
export function DangerZone({ email, onDeleted }: DangerZoneProps) {
  const [step, setStep] = useState<Step>('closed')
  const deletion = useDeleteAccount()
  const form = useForm<DeleteAccountBody>({
    resolver: zodResolver(DeleteAccountBodySchema),
    mode: 'onBlur',
    defaultValues: { confirmationEmail: '', confirmationPhrase: '' },
  })
  const { errors } = form.formState
  const typedEmail = useWatch({ control: form.control, name: 'confirmationEmail' })
  const typedPhrase = useWatch({ control: form.control, name: 'confirmationPhrase' })
  const matches = typedEmail.trim() === email && typedPhrase.trim() === DELETE_CONFIRMATION_PHRASE

  const close = () => {
    if (deletion.isPending) return
    setStep('closed')
    form.reset()
  }

  const onSubmit = form.handleSubmit((values) => {
    if (!matches) return
    deletion.mutate(
      { confirmationEmail: values.confirmationEmail.trim(), confirmationPhrase: values.confirmationPhrase.trim() },
      {
        onSuccess: ({ message }) => {
          toast.success(message)
          setStep('closed')
          onDeleted()
        },
        onError: (error) => {
          toast.error(error.message || ACCOUNT_MESSAGES.deleteFailure)
        },
      },
    )
  })

  return (
    <section aria-labelledby="danger-zone-title" className="flex flex-col gap-3 rounded-xl border border-danger-200 bg-danger-50/40 p-4">
      <h3 id="danger-zone-title" className="flex items-center gap-2 text-base font-semibold text-danger-800">
        <AlertTriangle aria-hidden className="size-4" />
        {ACCOUNT_MESSAGES.dangerTitle}
      </h3>
      <p className="text-sm text-ink">
        Deleting your account removes your mailbox connection, settings, lists, filtered-mail history and sessions, and cancels a paid plan at once. Mail in your mailbox stays where it is.
      </p>
      <Button variant="destructive" className="self-start" onClick={() => setStep('confirm')}>
        {ACCOUNT_MESSAGES.deleteButton}
      </Button>

      <Dialog open={step === 'confirm'} onOpenChange={(open) => !open && close()}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete your account?</DialogTitle>
            <DialogDescription>
              This cannot be undone. Inbox Guard stops filtering, revokes its access to your mailbox and deletes everything it holds about you, except billing records and the audit trail, which the law makes us keep without your name or address.
            </DialogDescription>
          </DialogHeader>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={() => setStep('form')}>
              Continue
            </Button>
          </div>
        </DialogContent>
      </Dialog>

      <Dialog open={step === 'form'} onOpenChange={(open) => !open && close()}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Confirm account deletion</DialogTitle>
            <DialogDescription>
              Type your e-mail address and the phrase {DELETE_CONFIRMATION_PHRASE} to delete your account.
            </DialogDescription>
          </DialogHeader>
          <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="delete-email">Your e-mail address</Label>
              <Input
                id="delete-email"
                type="email"
                autoComplete="off"
                placeholder={email}
                aria-invalid={errors.confirmationEmail ? true : undefined}
                aria-describedby={errors.confirmationEmail ? 'delete-email-error' : undefined}
                {...form.register('confirmationEmail')}
              />
              {errors.confirmationEmail && (
                <p id="delete-email-error" role="alert" className="text-sm text-danger-700">
                  {errors.confirmationEmail.message}
                </p>
              )}
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="delete-phrase">Type {DELETE_CONFIRMATION_PHRASE}</Label>
              <Input
                id="delete-phrase"
                autoComplete="off"
                aria-invalid={errors.confirmationPhrase ? true : undefined}
                aria-describedby={errors.confirmationPhrase ? 'delete-phrase-error' : undefined}
                {...form.register('confirmationPhrase')}
              />
              {errors.confirmationPhrase && (
                <p id="delete-phrase-error" role="alert" className="text-sm text-danger-700">
                  {errors.confirmationPhrase.message}
                </p>
              )}
            </div>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button type="button" variant="outline" disabled={deletion.isPending} onClick={close}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={!matches || deletion.isPending} loading={deletion.isPending}>
                Delete my account
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>
    </section>
  )
}
