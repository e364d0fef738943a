import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { flagContract } from '#shared/api/activity.ts'
import { callApi } from '#client/lib/api-client.ts'
import { replaceDecision } from '../lib/replace-decision.ts'
import { ACTIVITY_MESSAGES } from '../messages.ts'
import { activityRootKey } from './get-activity.ts'

/** POST /_api/activity/flag {decisionId}: "This is cold": filed away; the sender's mail is filed away from then on. */
export const flagDecision = (decisionId: number) => callApi(flagContract, { body: { decisionId } })

/**
 * Toasts the server's message (or why it failed), shows the new state at once and refreshes the
 * list and the chart. Retried once like every mutation (SPEC 7).
 */
export function useFlagDecision() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: flagDecision,
    onSuccess: ({ decision, message }) => {
      replaceDecision(queryClient, decision)
      toast.success(message)
    },
    onError: (error) => toast.error(ACTIVITY_MESSAGES.flagFailed(error.message)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: activityRootKey }),
  })
}
