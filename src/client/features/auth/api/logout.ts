import { useMutation, useQueryClient } from '@tanstack/react-query'
import { logoutContract } from '#shared/api/auth.ts'
import { callApi } from '#client/lib/api-client.ts'
import { sessionQueryOptions } from './get-session.ts'

/** POST /_api/auth/logout with an empty object (SPEC 7). */
export const logout = () => callApi(logoutContract, { body: {} })

/** Logout empties the cached user, calls logout, then re-checks the session (SPEC 4 "Auth state"). */
export function useLogout() {
  const queryClient = useQueryClient()
  const sessionKey = sessionQueryOptions().queryKey
  return useMutation({
    mutationFn: async () => {
      queryClient.setQueryData(sessionKey, null)
      return logout()
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKey }),
  })
}
