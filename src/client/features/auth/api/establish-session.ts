import { useMutation, useQueryClient } from '@tanstack/react-query'
import { establishSessionContract, type EstablishSessionBody } from '#shared/api/auth.ts'
import { callApi } from '#client/lib/api-client.ts'
import { sessionQueryOptions } from './get-session.ts'

/** POST /_api/auth/establish_session: exchanges the popup's one-time tempToken for a session. */
export const establishSession = (body: EstablishSessionBody) => callApi(establishSessionContract, { body })

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
