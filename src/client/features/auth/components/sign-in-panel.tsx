import { AlertCircle } from 'lucide-react'
import { useOAuthPopup } from '../hooks/use-oauth-popup.ts'
import { AccountExistsCard } from './account-exists-card.tsx'
import { GoogleIcon, MicrosoftIcon } from './provider-icons.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { useIsClient } from '#client/lib/use-is-client.ts'

/** The two provider buttons with the popup flow, its inline error and the account-exists card. */
export function SignInPanel() {
  const { signIn, busy, error, accountLinking, dismissAccountLinking } = useOAuthPopup()
  // On the prerendered /login the buttons are on screen before the app runs (decision 020): until
  // it does, they say they are unavailable rather than ignore a click.
  const starting = !useIsClient()

  if (accountLinking) return <AccountExistsCard prompt={accountLinking} onDismiss={dismissAccountLinking} />

  return (
    <div className="flex flex-col gap-3">
      <Button variant="outline" size="lg" className="w-full" disabled={busy} aria-disabled={starting || undefined} onClick={() => signIn('google')}>
        <GoogleIcon />
        Continue with Google
      </Button>
      <Button variant="outline" size="lg" className="w-full" disabled={busy} aria-disabled={starting || undefined} onClick={() => signIn('microsoft')}>
        <MicrosoftIcon />
        Continue with Microsoft
      </Button>
      <p aria-live="polite" className="min-h-5 text-center text-sm text-ink-muted">
        {busy ? 'Waiting for the sign-in window… Finish signing in there.' : ''}
      </p>
      {error && (
        <div role="alert" className="flex items-start gap-2 rounded-lg border border-danger-200 bg-danger-50 p-3 text-sm text-danger-700">
          <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>{error}</span>
        </div>
      )}
    </div>
  )
}
