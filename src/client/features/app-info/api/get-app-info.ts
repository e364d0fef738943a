import { queryOptions, useQuery } from '@tanstack/react-query'
import type { appInfoContract } from '#shared/api/app-info.ts'
import { callApi } from '#client/lib/api-client.ts'
import { contractRoute } from '#client/lib/contract-route.ts'

// The layout of every page reads it: the contract's route only, so zod stays off the public pages.
const appInfoRoute = contractRoute<typeof appInfoContract>({ method: 'GET', path: '/_api/app/info' })

/** GET /_api/app/info: how the server runs (demo mode, product name, support address). */
export const getAppInfo = () => callApi(appInfoRoute)

/** Fixed for the life of a server process, so it never goes stale. */
export const appInfoQueryOptions = () =>
  queryOptions({ queryKey: ['app', 'info'] as const, queryFn: getAppInfo, staleTime: Infinity })

export const useAppInfo = () => useQuery(appInfoQueryOptions())
