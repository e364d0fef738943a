import { queryOptions, useQuery } from '@tanstack/react-query'
import type { ContractResponse } from '#shared/api/contract.ts'
import { heartbeatStatusContract } from '#shared/api/health.ts'
import { callApi } from '#client/lib/api-client.ts'

export type HeartbeatStatusResponse = ContractResponse<typeof heartbeatStatusContract>

/** SPEC 9 "Timing": heartbeat refetch 30 s (stale 25 s). */
export const HEARTBEAT_STALE_TIME_MS = 25_000
export const HEARTBEAT_REFETCH_INTERVAL_MS = 30_000

/** GET /_api/heartbeat/status: whether filtering is alive for the caller's mailbox (SPEC 3, SPEC 7 "Health"). */
export const getHeartbeatStatus = (): Promise<HeartbeatStatusResponse> => callApi(heartbeatStatusContract)

/** Stale after 25 s, refetched every 30 s while the page is visible (SPEC 7, SPEC 9); default retries. */
export const heartbeatStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['health', 'heartbeat'] as const,
    queryFn: getHeartbeatStatus,
    staleTime: HEARTBEAT_STALE_TIME_MS,
    refetchInterval: HEARTBEAT_REFETCH_INTERVAL_MS,
  })

export const useHeartbeatStatus = () => useQuery(heartbeatStatusQueryOptions())
