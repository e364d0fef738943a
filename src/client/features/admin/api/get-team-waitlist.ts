import { queryOptions, useQuery } from '@tanstack/react-query'
import { adminWaitlistContract } from '#shared/api/admin.ts'
import type { ContractResponse } from '#shared/api/contract.ts'
import { callApi } from '#client/lib/api-client.ts'
import { TEAM_WAITLIST_QUERY_KEY } from '#client/lib/team-waitlist-key.ts'

export type TeamWaitlistEntry = ContractResponse<typeof adminWaitlistContract>['entries'][number]

export { TEAM_WAITLIST_QUERY_KEY }

const newestFirst = (a: TeamWaitlistEntry, b: TeamWaitlistEntry) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id

/** GET /_api/admin/waitlist: the Team waitlist. The server sends it newest first; the order is kept even if it did not. */
export async function getTeamWaitlist(): Promise<TeamWaitlistEntry[]> {
  const data = await callApi(adminWaitlistContract)
  return [...data.entries].sort(newestFirst)
}

export const teamWaitlistQueryOptions = () =>
  queryOptions({
    queryKey: TEAM_WAITLIST_QUERY_KEY,
    queryFn: getTeamWaitlist,
  })

export const useTeamWaitlist = () => useQuery(teamWaitlistQueryOptions())
