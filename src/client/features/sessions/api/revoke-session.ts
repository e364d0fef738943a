import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { revokeSessionContract } from '#shared/api/sessions.ts'
import { ApiError, callApi } from '#client/lib/api-client.ts'
import { SESSION_MESSAGES } from '../messages.ts'
import { sessionsQueryOptions } from './get-sessions.ts'

/** POST /_api/sessions/revoke {sessionId} (secure; SPEC 5, SPEC 7 "Sessions and account"). */
export const revokeSession = (sessionId: string) =>
  callApi(revokeSessionContract, { body: { sessionId } }, { fallbackError: SESSION_MESSAGES.revokeFailed })

/**
 * SPEC 4 "Session revocation": after the confirmation, a success or error toast (the server's message
 * when it sent one, SPEC 8), then the list refreshes either way.
 */
export function useRevokeSession() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: revokeSession,
    onSuccess: () => {
      toast.success(SESSION_MESSAGES.revoked)
    },
    onError: (error) => {
      toast.error(error instanceof ApiError ? error.message : SESSION_MESSAGES.revokeFailed)
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  })
}
