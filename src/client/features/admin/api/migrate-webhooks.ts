import { useMutation, useQueryClient } from '@tanstack/react-query'
import { migrateWebhooksContract } from '#shared/api/admin.ts'
import { callApi } from '#client/lib/api-client.ts'
import { mailboxHealthQueryOptions } from './get-mailbox-health.ts'

/** POST /_api/admin/migrate-webhooks (empty body) → {successfulMigrations, totalUsers, errors} (SPEC 3 "Webhook migration result"). */
export const migrateWebhooks = () => callApi(migrateWebhooksContract, { body: {} })

/** Migration changes every Gmail webhook, so the mailbox health is fetched again after it. */
export function useMigrateWebhooks() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: migrateWebhooks,
    onSettled: () => queryClient.invalidateQueries({ queryKey: mailboxHealthQueryOptions().queryKey }),
  })
}
