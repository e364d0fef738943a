import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ContractResponse } from '#shared/api/contract.ts'
import { webhookSetupContract } from '#shared/api/health.ts'
import { callApi } from '#client/lib/api-client.ts'
import { announceSetupFailed, announceSetupResult } from '../lib/setup-feedback.ts'
import type { WebhookProvider } from '../messages.ts'
import { heartbeatStatusQueryOptions } from './get-heartbeat-status.ts'
import { webhookStatusQueryOptions } from './get-webhook-status.ts'

export type WebhookSetupResponse = ContractResponse<typeof webhookSetupContract>

/** POST /_api/webhooks/setup {provider} (secure): (re-)establishes push for one provider (SPEC 7 "Health"). */
export const setupWebhook = (provider: WebhookProvider): Promise<WebhookSetupResponse> =>
  callApi(webhookSetupContract, { body: { provider } })

/**
 * Setup and Repair (SPEC 4 "Webhook health"): each provider's outcome is announced as SPEC 8 says,
 * and both the webhook and heartbeat statuses are fetched again, whatever happened. Retried once,
 * like every mutation (SPEC 7 "Retry behaviour").
 */
export function useSetupWebhook() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationKey: ['health', 'webhooks', 'setup'] as const,
    mutationFn: setupWebhook,
    onSuccess: announceSetupResult,
    onError: announceSetupFailed,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: webhookStatusQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: heartbeatStatusQueryOptions().queryKey }),
      ]),
  })
}
