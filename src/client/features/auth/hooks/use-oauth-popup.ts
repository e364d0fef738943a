import { useCallback, useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { OAuthPopupMessageSchema, type AuthProvider } from '#shared/api/auth.ts'
import { SIGN_IN_MESSAGES } from '#shared/messages.ts'
import { LOGIN_REDIRECT_DELAY_MS, OAUTH_POPUP } from '#shared/product.ts'
import { ApiError } from '#client/lib/api-client.ts'
import { useEstablishSession } from '../api/establish-session.ts'

export const OAUTH_WINDOW_NAME = 'inbox-guard-oauth'

export interface AccountLinkingPrompt {
  message: string
  email: string | undefined
}

/** window.open features for a 500x600 popup centred over the current window. */
function popupFeatures(): string {
  const { width, height } = OAUTH_POPUP
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2))
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2))
  return `width=${width},height=${height},left=${left},top=${top},resizable=yes,scrollbars=yes`
}

function closePopup(popup: Window) {
  try {
    if (!popup.closed) popup.close()
  } catch {
    // A popup on another origin can refuse; it closes itself after posting its message.
  }
}

/**
 * The popup-based sign-in of SPEC 4 "OAuth login". Busy from the click until the popup posts a
 * message, the user closes it (polled every second), or five minutes pass (then it is force-closed
 * and the timeout logged). Messages from any other origin are ignored; data is validated with the
 * shared OAuthPopupMessageSchema. On success the one-time token becomes a session, the user is put
 * in the session cache and the browser goes to /dashboard 200 ms later.
 */
export function useOAuthPopup() {
  const navigate = useNavigate()
  const { mutateAsync: establishSession } = useEstablishSession()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [accountLinking, setAccountLinking] = useState<AccountLinkingPrompt | null>(null)
  const stopWatchingRef = useRef<(() => void) | null>(null)

  // Leaving the page stops listening; a popup still open is left for the user to close.
  useEffect(() => () => stopWatchingRef.current?.(), [])

  const signIn = useCallback(
    (provider: AuthProvider) => {
      stopWatchingRef.current?.()
      setError(null)
      setAccountLinking(null)

      const url = `/_api/auth/oauth_authorize?provider=${encodeURIComponent(provider)}`
      const opened = window.open(url, OAUTH_WINDOW_NAME, popupFeatures())
      if (!opened) {
        setError(SIGN_IN_MESSAGES.popupBlocked)
        return
      }
      const popup: Window = opened
      setBusy(true)

      let watching = true
      const stopWatching = () => {
        if (!watching) return
        watching = false
        window.removeEventListener('message', onMessage)
        window.clearInterval(closedPoll)
        window.clearTimeout(timeout)
        stopWatchingRef.current = null
      }

      async function onMessage(event: MessageEvent) {
        if (event.origin !== window.location.origin) return
        const parsed = OAuthPopupMessageSchema.safeParse(event.data)
        if (!parsed.success) return // not ours (extensions, dev tools also post messages)
        stopWatching()
        const message = parsed.data

        if (message.type === 'OAUTH_ERROR') {
          closePopup(popup)
          setBusy(false)
          if (message.error.code === 'account_linking_required') {
            const email = message.error.details?.email
            setError(null)
            setAccountLinking({ message: message.error.message, email: typeof email === 'string' ? email : undefined })
          } else {
            setError(message.error.message || SIGN_IN_MESSAGES.oauthFallback)
          }
          return
        }

        try {
          const result = await establishSession({ tempToken: message.token })
          closePopup(popup)
          if (result.user) {
            window.setTimeout(() => navigate('/dashboard'), LOGIN_REDIRECT_DELAY_MS)
          } else {
            setBusy(false)
            setError(SIGN_IN_MESSAGES.establishFailed)
          }
        } catch (cause) {
          closePopup(popup)
          setBusy(false)
          // The server answered with an error: a failed establishment. Anything else is unexpected.
          setError(cause instanceof ApiError ? SIGN_IN_MESSAGES.establishFailed : SIGN_IN_MESSAGES.unexpected)
        }
      }

      const closedPoll = window.setInterval(() => {
        if (popup.closed) {
          stopWatching()
          setBusy(false)
        }
      }, OAUTH_POPUP.closedPollMs)

      const timeout = window.setTimeout(() => {
        stopWatching()
        if (!popup.closed) {
          closePopup(popup)
          console.warn(`Sign-in popup timed out after ${OAUTH_POPUP.timeoutMs} ms and was closed`)
        }
        setBusy(false)
      }, OAUTH_POPUP.timeoutMs)

      window.addEventListener('message', onMessage)
      stopWatchingRef.current = stopWatching
    },
    [establishSession, navigate],
  )

  const dismissAccountLinking = useCallback(() => setAccountLinking(null), [])

  return { signIn, busy, error, accountLinking, dismissAccountLinking }
}
