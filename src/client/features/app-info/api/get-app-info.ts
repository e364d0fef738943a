import { queryOptions, useQuery } from '@tanstack/react-query'
import type { AppInfo, appInfoContract } from '#shared/api/auth.ts'
import { apiClient } from '#client/lib/api-client.ts'

/** GET /_api/app/info: how the server runs (demo mode, product name, support address). */
export async function getAppInfo(): Promise<AppInfo> {
  const path: (typeof appInfoContract)['path'] = '/_api/app/info'
  return apiClient.get<AppInfo>(path)
}

/** Fixed for the life of a server process, so it never goes stale. */
export const appInfoQueryOptions = () =>
  queryOptions({ queryKey: ['app', 'info'] as const, queryFn: getAppInfo, staleTime: Infinity })

export const useAppInfo = () => useQuery(appInfoQueryOptions())
