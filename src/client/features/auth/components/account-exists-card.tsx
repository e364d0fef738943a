import { UserRoundCheck } from 'lucide-react'
import { SIGN_IN_MESSAGES } from '#shared/messages.ts'
import { Button } from '#client/components/ui/button.tsx'
import type { AccountLinkingPrompt } from '../hooks/use-oauth-popup.ts'

/** Shown instead of the sign-in buttons when the email already belongs to another sign-in method. */
export function AccountExistsCard({ prompt, onDismiss }: { prompt: AccountLinkingPrompt; onDismiss: () => void }) {
  return (
    <div
      role="alertdialog"
      aria-labelledby="account-exists-title"
      aria-describedby="account-exists-message"
      className="flex flex-col gap-4 rounded-xl border border-warning-200 bg-warning-50 p-5"
    >
      <div className="flex items-start gap-3">
        <UserRoundCheck aria-hidden className="mt-0.5 size-5 shrink-0 text-warning-800" />
        <div className="flex flex-col gap-1">
          <h2 id="account-exists-title" className="font-semibold text-ink">
            {SIGN_IN_MESSAGES.accountExistsTitle}
          </h2>
          <p id="account-exists-message" className="text-sm text-ink-muted">
            {prompt.message}
          </p>
        </div>
      </div>
      {/* Focus lands here so keyboard and screen-reader users meet the prompt at once. */}
      <Button variant="outline" onClick={onDismiss} autoFocus className="self-end">
        {SIGN_IN_MESSAGES.accountExistsDismiss}
      </Button>
    </div>
  )
}
