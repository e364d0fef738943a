import { queryOptions, useQuery } from '@tanstack/react-query'
import type { ContractResponse } from '#shared/api/contract.ts'
import { webhookStatusContract } from '#shared/api/health.ts'
import { callApi } from '#client/lib/api-client.ts'

export type WebhookStatusResponse = ContractResponse<typeof webhookStatusContract>

/** SPEC 9 "Timing": webhook status stale 30 s, refetch 5 min, retry delay exponential capped at 30 s. */
export const WEBHOOK_STATUS_STALE_TIME_MS = 30_000
export const WEBHOOK_STATUS_REFETCH_INTERVAL_MS = 5 * 60_000
const RETRY_DELAY_CAP_MS = 30_000

/** 1 s, 2 s, 4 s, … doubling per attempt, never more than 30 s (SPEC 9). */
export const webhookStatusRetryDelay = (attemptIndex: number) => Math.min(1_000 * 2 ** attemptIndex, RETRY_DELAY_CAP_MS)

/** GET /_api/webhooks/status: push health per provider, null for a provider not connected (SPEC 3, SPEC 7 "Health"). */
export const getWebhookStatus = (): Promise<WebhookStatusResponse> => callApi(webhookStatusContract)

/**
 * Stale after 30 s; refetched every 5 minutes and when the window regains focus (SPEC 7 "Health"),
 * unlike the app's default of no refetch on focus. Retries follow the default rule, with the
 * exponential delay SPEC 9 gives this query.
 */
export const webhookStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['health', 'webhooks'] as const,
    queryFn: getWebhookStatus,
    staleTime: WEBHOOK_STATUS_STALE_TIME_MS,
    refetchInterval: WEBHOOK_STATUS_REFETCH_INTERVAL_MS,
    refetchOnWindowFocus: true,
    retryDelay: webhookStatusRetryDelay,
  })

export const useWebhookStatus = () => useQuery(webhookStatusQueryOptions())
