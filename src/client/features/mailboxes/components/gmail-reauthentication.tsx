import { useEffect, useState } from 'react'
import { Loader2 } from 'lucide-react'
import { toast } from 'sonner'
import { MAILBOX_MESSAGES } from '../messages.ts'

/** SPEC 9 "Timing": re-authentication redirect after 1 s; toasts 3 s. */
export const REAUTH_REDIRECT_DELAY_MS = 1_000
export const REAUTH_TOAST_MS = 3_000

// SPEC 4 "Gmail re-authentication" happens once per page load: a module-level latch, which only a
// new page load (the way back from Google is one) resets.
let redirectedThisPageLoad = false

/**
 * Mounted while the Gmail status is action_required with an authorizationUrl: a toast
 * 'Re-authenticating Gmail', the 'Preparing Gmail Re-authentication' screen, and the browser goes
 * to the authorization URL 1 s later. `paused` while the dashboard shows a URL error: the person
 * has just come back from a failed attempt and must read it first (and not be sent round in a loop);
 * the toast's Retry clears the error and so resumes the redirect.
 */
export function GmailReauthentication({ authorizationUrl, paused }: { authorizationUrl: string; paused: boolean }) {
  const [redirecting, setRedirecting] = useState(false)
  const active = !paused && !redirectedThisPageLoad

  useEffect(() => {
    if (!active) return
    // A fixed id: StrictMode's second effect run updates this toast rather than adding another.
    toast(MAILBOX_MESSAGES.reauthToast, {
      id: 'gmail-reauthentication',
      description: MAILBOX_MESSAGES.reauthToastDescription,
      duration: REAUTH_TOAST_MS,
    })
    const timer = window.setTimeout(() => {
      redirectedThisPageLoad = true
      setRedirecting(true)
      window.location.assign(authorizationUrl)
    }, REAUTH_REDIRECT_DELAY_MS)
    return () => window.clearTimeout(timer)
  }, [active, authorizationUrl])

  if (!active && !redirecting) return null
  return (
    <div
      role="status"
      aria-labelledby="gmail-reauth-title"
      className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-4 bg-surface/95 px-6 text-center backdrop-blur-sm"
    >
      <Loader2 aria-hidden className="size-8 animate-spin text-brand-600" />
      <h2 id="gmail-reauth-title" className="text-xl font-semibold text-ink">
        {MAILBOX_MESSAGES.reauthTitle}
      </h2>
      <p className="max-w-sm text-ink-muted">{MAILBOX_MESSAGES.reauthText}</p>
    </div>
  )
}
