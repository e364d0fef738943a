import { queryOptions, useQuery } from '@tanstack/react-query'
import { providerHealthContract } from '#shared/api/admin.ts'
import type { ContractResponse } from '#shared/api/contract.ts'
import { callApi } from '#client/lib/api-client.ts'
import { adminRootKey } from './admin-keys.ts'

export type ProviderHealthResponse = ContractResponse<typeof providerHealthContract>

/** SPEC 9 "Timing": provider health stale 5 min. */
export const PROVIDER_HEALTH_STALE_MS = 5 * 60_000

/** GET /_api/health/providers → {providers}, one per service (SPEC 7 "Health"). */
export const getProviderHealth = (): Promise<ProviderHealthResponse> => callApi(providerHealthContract)

export const providerHealthQueryOptions = () =>
  queryOptions({
    queryKey: [...adminRootKey, 'providerHealth'] as const,
    queryFn: getProviderHealth,
    staleTime: PROVIDER_HEALTH_STALE_MS,
  })

export const useProviderHealth = () => useQuery(providerHealthQueryOptions())
