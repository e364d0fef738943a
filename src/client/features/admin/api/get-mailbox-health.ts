import { queryOptions, useQuery } from '@tanstack/react-query'
import { mailboxHealthContract } from '#shared/api/admin.ts'
import type { ContractResponse } from '#shared/api/contract.ts'
import { callApi } from '#client/lib/api-client.ts'
import { adminRootKey } from './admin-keys.ts'

export type MailboxHealthResponse = ContractResponse<typeof mailboxHealthContract>

/**
 * GET /_api/admin/mailbox-health: counts by webhook health and heartbeat status, and the mailboxes
 * that need attention. One call feeds the webhook, heartbeat and attention sub-panels.
 */
export const getMailboxHealth = (): Promise<MailboxHealthResponse> => callApi(mailboxHealthContract)

export const mailboxHealthQueryOptions = () =>
  queryOptions({
    queryKey: [...adminRootKey, 'mailboxHealth'] as const,
    queryFn: getMailboxHealth,
  })

export const useMailboxHealth = () => useQuery(mailboxHealthQueryOptions())
