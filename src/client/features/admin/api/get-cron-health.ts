import { queryOptions, useQuery } from '@tanstack/react-query'
import { cronHealthContract } from '#shared/api/admin.ts'
import type { ContractResponse } from '#shared/api/contract.ts'
import { callApi } from '#client/lib/api-client.ts'
import { adminRootKey } from './admin-keys.ts'

export type CronHealthResponse = ContractResponse<typeof cronHealthContract>

/** SPEC 7 "Health", SPEC 9 "Timing": cron health is refreshed every 30 s. */
export const CRON_HEALTH_REFETCH_MS = 30_000

/** GET /_api/cron/health → {jobs, overall} (SPEC 4 "Cron health"). */
export const getCronHealth = (): Promise<CronHealthResponse> => callApi(cronHealthContract)

/** Polled every 30 s while the page is visible (TanStack Query's refetchIntervalInBackground: false). */
export const cronHealthQueryOptions = () =>
  queryOptions({
    queryKey: [...adminRootKey, 'cronHealth'] as const,
    queryFn: getCronHealth,
    refetchInterval: CRON_HEALTH_REFETCH_MS,
  })

export const useCronHealth = () => useQuery(cronHealthQueryOptions())
