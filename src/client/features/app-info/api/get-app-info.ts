import { queryOptions, useQuery } from '@tanstack/react-query'
import { appInfoContract } from '#shared/api/app-info.ts'
import { callApi } from '#client/lib/api-client.ts'

/** GET /_api/app/info: how the server runs (demo mode, product name, support address). */
export const getAppInfo = () => callApi(appInfoContract)

/** Fixed for the life of a server process, so it never goes stale. */
export const appInfoQueryOptions = () =>
  queryOptions({ queryKey: ['app', 'info'] as const, queryFn: getAppInfo, staleTime: Infinity })

export const useAppInfo = () => useQuery(appInfoQueryOptions())
