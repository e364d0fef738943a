import { queryOptions, useQuery } from '@tanstack/react-query'
import type { SessionUser, sessionContract } from '#shared/api/auth.ts'
import { SIGN_IN_MESSAGES } from '#shared/messages.ts'
import { callApi } from '#client/lib/api-client.ts'
import { contractRoute } from '#client/lib/contract-route.ts'

// Every page checks the session: the contract's route only, so zod stays off the public pages.
const sessionRoute = contractRoute<typeof sessionContract>({ method: 'GET', path: '/_api/auth/session' })

/** GET /_api/auth/session: the signed-in user, or null (SPEC 7 "Authentication"). */
export async function getSession(): Promise<SessionUser | null> {
  const data = await callApi(sessionRoute, undefined, { fallbackError: SIGN_IN_MESSAGES.sessionCheckFailed })
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
