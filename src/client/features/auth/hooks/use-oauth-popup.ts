import { useCallback, useState } from 'react'
import { useNavigate } from 'react-router'
import { OAuthPopupMessageSchema, type AuthProvider, type OAuthPopupMessage } from '#shared/api/auth.ts'
import { SIGN_IN_MESSAGES } from '#shared/messages.ts'
import { LOGIN_REDIRECT_DELAY_MS } from '#shared/product.ts'
import { ApiError } from '#client/lib/api-client.ts'
import { POPUP_BLOCKED_MESSAGE, useOAuthPopupWindow } from '#client/lib/oauth-popup.ts'
import { useEstablishSession } from '../api/establish-session.ts'

export const OAUTH_WINDOW_NAME = 'inbox-guard-oauth'

export interface AccountLinkingPrompt {
  message: string
  email: string | undefined
}

/**
 * The popup-based sign-in of SPEC 4 "OAuth login". The popup mechanics (500x600, closed-check every
 * second, five-minute timeout, same-origin messages validated with OAuthPopupMessageSchema) are in
 * #client/lib/oauth-popup.ts. On success the one-time token becomes a session, the user is put in
 * the session cache, the popup closes and the browser goes to /dashboard 200 ms later (busy until
 * then).
 */
export function useOAuthPopup() {
  const navigate = useNavigate()
  const { mutateAsync: establishSession } = useEstablishSession()
  const popup = useOAuthPopupWindow({ schema: OAuthPopupMessageSchema, windowName: OAUTH_WINDOW_NAME })
  const openPopup = popup.open
  const [redirecting, setRedirecting] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [accountLinking, setAccountLinking] = useState<AccountLinkingPrompt | null>(null)

  const handleMessage = useCallback(
    async (message: OAuthPopupMessage) => {
      if (message.type === 'OAUTH_ERROR') {
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
        if (result.user) {
          setRedirecting(true)
          window.setTimeout(() => navigate('/dashboard'), LOGIN_REDIRECT_DELAY_MS)
        } else {
          setError(SIGN_IN_MESSAGES.establishFailed)
        }
      } catch (cause) {
        // The server answered with an error: a failed establishment. Anything else is unexpected.
        setError(cause instanceof ApiError ? SIGN_IN_MESSAGES.establishFailed : SIGN_IN_MESSAGES.unexpected)
      }
    },
    [establishSession, navigate],
  )

  const signIn = useCallback(
    (provider: AuthProvider) => {
      setError(null)
      setAccountLinking(null)
      openPopup(`/_api/auth/oauth_authorize?provider=${encodeURIComponent(provider)}`, {
        label: 'Sign-in',
        onMessage: handleMessage,
        onBlocked: () => setError(POPUP_BLOCKED_MESSAGE),
      })
    },
    [openPopup, handleMessage],
  )

  const dismissAccountLinking = useCallback(() => setAccountLinking(null), [])

  return { signIn, busy: popup.busy || redirecting, error, accountLinking, dismissAccountLinking }
}
