import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { activityContract, type MailCategoryName } from '#shared/api/activity.ts'
import { callApi } from '#client/lib/api-client.ts'

/** Issue 13: 25 decisions a page; refreshed every 30 s while the page is visible. */
export const ACTIVITY_PAGE_SIZE = 25
export const ACTIVITY_REFETCH_MS = 30_000

/** The root of every activity query key (the list and the stats): invalidating it refreshes both. */
export const activityRootKey = ['activity'] as const

export interface ActivityFilters {
  page: number
  category: MailCategoryName | null
  /** Only messages out of the inbox now (filed away or marked cold). */
  filedOnly: boolean
}

/** GET /_api/activity?page&limit&category&filed: the decisions, newest first. */
export const getActivity = ({ page, category, filedOnly }: ActivityFilters) =>
  callApi(activityContract, {
    query: { page, limit: ACTIVITY_PAGE_SIZE, category: category ?? undefined, filed: filedOnly ? 'true' : undefined },
  })

/**
 * Refetched every 30 s; TanStack Query skips the interval while the tab is hidden (the default
 * refetchIntervalInBackground: false). The previous page stays on screen while the next one loads.
 */
export const activityQueryOptions = (filters: ActivityFilters) =>
  queryOptions({
    queryKey: [...activityRootKey, 'list', filters] as const,
    queryFn: () => getActivity(filters),
    refetchInterval: ACTIVITY_REFETCH_MS,
    placeholderData: keepPreviousData,
  })

export const useActivity = (filters: ActivityFilters) => useQuery(activityQueryOptions(filters))
