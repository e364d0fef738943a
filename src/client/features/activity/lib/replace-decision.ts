import type { QueryClient } from '@tanstack/react-query'
import type { DecisionItem } from '#shared/api/activity.ts'
import { activityRootKey, type getActivity } from '../api/get-activity.ts'

type ActivityPage = Awaited<ReturnType<typeof getActivity>>

/** Puts a corrected decision into every cached page of the list, so its new state shows before the refetch. */
export function replaceDecision(queryClient: QueryClient, decision: DecisionItem) {
  queryClient.setQueriesData<ActivityPage>({ queryKey: [...activityRootKey, 'list'] }, (page) =>
    page ? { ...page, items: page.items.map((item) => (item.id === decision.id ? decision : item)) } : page,
  )
}
