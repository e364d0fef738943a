import { useMutation, useQueryClient } from '@tanstack/react-query'
import { triggerWatchdogContract } from '#shared/api/admin.ts'
import type { ContractResponse } from '#shared/api/contract.ts'
import { callApi } from '#client/lib/api-client.ts'
import { ADMIN_MESSAGES } from '../messages.ts'
import { mailboxHealthQueryOptions } from './get-mailbox-health.ts'

export type WatchdogStats = ContractResponse<typeof triggerWatchdogContract>['stats']

/** POST /_api/admin/trigger-watchdog → {success, stats} (SPEC 3 "Watchdog stats"). A `success: false` is a failure. */
export async function triggerWatchdog(): Promise<WatchdogStats> {
  const data = await callApi(triggerWatchdogContract, { body: {} })
  if (!data.success) throw new Error(ADMIN_MESSAGES.watchdogNotSuccessful)
  return data.stats
}

/** The watchdog reconnects mailboxes, so the mailbox health is fetched again after it. */
export function useTriggerWatchdog() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: triggerWatchdog,
    onSettled: () => queryClient.invalidateQueries({ queryKey: mailboxHealthQueryOptions().queryKey }),
  })
}
