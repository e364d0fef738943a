import { useMutation, useQueryClient } from '@tanstack/react-query'
import { joinWaitlistContract, type WaitlistBody } from '#shared/api/waitlist.ts'
import { callApi } from '#client/lib/api-client.ts'
import { TEAM_WAITLIST_QUERY_KEY } from '#client/lib/team-waitlist-key.ts'


/**
 * POST /_api/team/waitlist {name, email} → {success: true} or {error} (SPEC 7 "Team waitlist").
 * An empty body with an OK status counts as {success: true}; failures without an error field read
 * 'An unknown error occurred.'
 */
export async function joinWaitlist(body: WaitlistBody): Promise<{ success: true }> {
  await callApi(joinWaitlistContract, { body }, { fallbackError: 'An unknown error occurred.' })
  return { success: true }
}

export function useJoinWaitlist() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: joinWaitlist,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TEAM_WAITLIST_QUERY_KEY }),
  })
}
