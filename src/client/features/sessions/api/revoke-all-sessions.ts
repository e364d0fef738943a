import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { revokeAllSessionsContract } from '#shared/api/sessions.ts'
import { callApi } from '#client/lib/api-client.ts'
import { SESSION_MESSAGES } from '../messages.ts'
import { sessionsQueryOptions } from './get-sessions.ts'

/** POST /_api/sessions/revoke-all, empty body (secure) → {revokedCount} (SPEC 7 "Sessions and account"). */
export async function revokeAllSessions(): Promise<{ revokedCount: number }> {
  const data = await callApi(revokeAllSessionsContract, { body: {} }, { fallbackError: SESSION_MESSAGES.revokeAllFailed })
  if (!data) throw new Error(SESSION_MESSAGES.revokeAllFailed)
  return data
}

/** "Log out other devices": a toast with the count or the failure (SPEC 8), then the list refreshes. */
export function useRevokeAllSessions() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: revokeAllSessions,
    onSuccess: ({ revokedCount }) => {
      toast.success(SESSION_MESSAGES.revokedAll(revokedCount))
    },
    onError: () => {
      toast.error(SESSION_MESSAGES.revokeAllFailed)
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  })
}
