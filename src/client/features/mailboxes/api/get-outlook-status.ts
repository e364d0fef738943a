import { queryOptions, useQuery } from '@tanstack/react-query'
import { outlookStatusContract, type OutlookStatus } from '#shared/api/mailboxes.ts'
import { callApi } from '#client/lib/api-client.ts'
import { shouldRetryStatusCheck, STATUS_STALE_TIME_MS } from '../lib/status-retry.ts'

/** GET /_api/outlook/test: a live check of the Outlook connection (SPEC 3, SPEC 7 "Mailboxes"). */
export const getOutlookStatus = (): Promise<OutlookStatus> => callApi(outlookStatusContract)

/** Cached 5 minutes (SPEC 9); not retried on 401 or 'Unauthenticated' (SPEC 7). */
export const outlookStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['mailboxes', 'outlook', 'status'] as const,
    queryFn: getOutlookStatus,
    staleTime: STATUS_STALE_TIME_MS,
    retry: shouldRetryStatusCheck,
  })

export const useOutlookStatus = () => useQuery(outlookStatusQueryOptions())
