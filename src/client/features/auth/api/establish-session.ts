import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { EstablishSessionBody, SessionUser, establishSessionContract } from '#shared/api/auth.ts'
import { apiClient } from '#client/lib/api-client.ts'
import { sessionQueryOptions } from './get-session.ts'

type EstablishSessionResponse = { user?: SessionUser; error?: string }

/** POST /_api/auth/establish_session: exchanges the popup's one-time tempToken for a session. */
export async function establishSession(body: EstablishSessionBody): Promise<EstablishSessionResponse> {
  const path: (typeof establishSessionContract)['path'] = '/_api/auth/establish_session'
  return (await apiClient.post<EstablishSessionResponse | undefined>(path, body, { secure: true })) ?? {}
}

/**
 * Login sets the cached user directly (SPEC 4 "Auth state"), so the dashboard renders at once
 * without a second session round trip. Not retried: the temporary token is single-use.
 */
export function useEstablishSession() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: establishSession,
    retry: false,
    onSuccess: (data) => {
      if (data.user) queryClient.setQueryData(sessionQueryOptions().queryKey, data.user)
    },
  })
}
