import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { restoreContract } from '#shared/api/activity.ts'
import { callApi } from '#client/lib/api-client.ts'
import { replaceDecision } from '../lib/replace-decision.ts'
import { ACTIVITY_MESSAGES } from '../messages.ts'
import { activityRootKey } from './get-activity.ts'

/** POST /_api/activity/restore {decisionId}: back to the inbox; the sender is trusted from then on. */
export const restoreDecision = (decisionId: number) => callApi(restoreContract, { body: { decisionId } })

/**
 * Toasts the server's message (or why it failed), shows the new state at once and refreshes the
 * list and the chart. Retried once like every mutation (SPEC 7).
 */
export function useRestoreDecision() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: restoreDecision,
    onSuccess: ({ decision, message }) => {
      replaceDecision(queryClient, decision)
      toast.success(message)
    },
    onError: (error) => toast.error(ACTIVITY_MESSAGES.restoreFailed(error.message)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: activityRootKey }),
  })
}
