import { queryOptions, useQuery } from '@tanstack/react-query'
import type { SessionUser, sessionContract } from '#shared/api/auth.ts'
import { SIGN_IN_MESSAGES } from '#shared/messages.ts'
import { ApiError, apiClient } from '#client/lib/api-client.ts'

type SessionResponse = { user?: SessionUser | null; error?: string }

/** GET /_api/auth/session: the signed-in user, or null (SPEC 7 "Authentication"). */
export async function getSession(): Promise<SessionUser | null> {
  const path: (typeof sessionContract)['path'] = '/_api/auth/session'
  const data = await apiClient.get<SessionResponse | undefined>(path, { fallbackError: SIGN_IN_MESSAGES.sessionCheckFailed })
  // The call answers with an error field or a user field (SPEC 7).
  if (data?.error) throw new ApiError(data.error, { status: 200, error: data.error })
  return data?.user ?? null
}

/** The session query never goes stale and is retried once (SPEC 7, SPEC 9). */
export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'session'] as const,
    queryFn: getSession,
    staleTime: Infinity,
    retry: 1,
  })

export const useSession = () => useQuery(sessionQueryOptions())
