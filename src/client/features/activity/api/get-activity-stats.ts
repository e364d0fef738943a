import { queryOptions, useQuery } from '@tanstack/react-query'
import { activityStatsContract } from '#shared/api/activity.ts'
import { callApi } from '#client/lib/api-client.ts'
import { activityRootKey } from './get-activity.ts'

/** The chart covers 30 days (issue 13). */
export const STATS_DAYS = 30

/** GET /_api/activity/stats?days=N: messages per UTC day and category, oldest first, every day present. */
export const getActivityStats = (days: number) => callApi(activityStatsContract, { query: { days } })

export const activityStatsQueryOptions = (days: number = STATS_DAYS) =>
  queryOptions({
    queryKey: [...activityRootKey, 'stats', days] as const,
    queryFn: () => getActivityStats(days),
  })

export const useActivityStats = (days: number = STATS_DAYS) => useQuery(activityStatsQueryOptions(days))
