import type { MailboxProvider } from '#shared/api/mailboxes.ts'
import { Button } from '#client/components/ui/button.tsx'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#client/components/ui/dialog.tsx'
import { useDisconnectGmail } from '../api/disconnect-gmail.ts'
import { useDisconnectOutlook } from '../api/disconnect-outlook.ts'
import { MAILBOX_MESSAGES } from '../messages.ts'

export interface SwitchEmailDialogProps {
  /** Whose tokens the confirmation clears. */
  provider: MailboxProvider
  email: string | null
  open: boolean
  onOpenChange: (open: boolean) => void
}

/**
 * 'Switch Email Address' (SPEC 2, SPEC 4 "Mailbox connection"): a confirmation, then disconnect,
 * which clears the provider's tokens so either provider can be connected. The toasts are the
 * disconnect hook's (SPEC 8 "Mailboxes").
 */
export function SwitchEmailDialog({ provider, email, open, onOpenChange }: SwitchEmailDialogProps) {
  const gmail = useDisconnectGmail()
  const outlook = useDisconnectOutlook()
  const disconnect = provider === 'gmail' ? gmail : outlook

  const confirm = () => disconnect.mutate(undefined, { onSettled: () => onOpenChange(false) })

  return (
    <Dialog open={open} onOpenChange={(next) => (disconnect.isPending ? undefined : onOpenChange(next))}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{MAILBOX_MESSAGES.switchTitle}</DialogTitle>
          <DialogDescription>{MAILBOX_MESSAGES.switchDescription(provider, email)}</DialogDescription>
        </DialogHeader>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <DialogClose asChild>
            <Button variant="outline" disabled={disconnect.isPending}>
              {MAILBOX_MESSAGES.switchCancel}
            </Button>
          </DialogClose>
          <Button variant="destructive" loading={disconnect.isPending} onClick={confirm}>
            {MAILBOX_MESSAGES.switchConfirm}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  )
}
