import { queryOptions, useQuery } from '@tanstack/react-query'
import { gmailStatusContract, type GmailStatus } from '#shared/api/mailboxes.ts'
import { callApi } from '#client/lib/api-client.ts'
import { shouldRetryStatusCheck, STATUS_STALE_TIME_MS } from '../lib/status-retry.ts'

/** GET /_api/gmail/test: a live check of the Gmail connection (SPEC 3, SPEC 7 "Mailboxes"). */
export const getGmailStatus = (): Promise<GmailStatus> => callApi(gmailStatusContract)

/** Cached 5 minutes (SPEC 9); not retried on 401 or 'Unauthenticated' (SPEC 7). */
export const gmailStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['mailboxes', 'gmail', 'status'] as const,
    queryFn: getGmailStatus,
    staleTime: STATUS_STALE_TIME_MS,
    retry: shouldRetryStatusCheck,
  })

export const useGmailStatus = () => useQuery(gmailStatusQueryOptions())
