import type { SessionUser } from '#shared/api/auth.ts'
import { SIGN_IN_MESSAGES } from '#shared/messages.ts'
import { useSession } from '../api/get-session.ts'

export type AuthState =
  | { status: 'loading'; user: null; error: null }
  | { status: 'authenticated'; user: SessionUser; error: null }
  | { status: 'unauthenticated'; user: null; error: string | null }

/**
 * SPEC 4 "Auth state": loading while the session check is pending; authenticated when a user
 * exists; unauthenticated when there is none or the check failed (with its message, default
 * 'Session check failed').
 */
export function useAuth(): AuthState {
  const session = useSession()
  if (session.isPending) return { status: 'loading', user: null, error: null }
  if (session.isError) {
    return {
      status: 'unauthenticated',
      user: null,
      error: session.error.message || SIGN_IN_MESSAGES.sessionCheckFailed,
    }
  }
  if (session.data) return { status: 'authenticated', user: session.data, error: null }
  return { status: 'unauthenticated', user: null, error: null }
}
