import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { auditLogsContract, type AuditLogQuery } from '#shared/api/admin.ts'
import type { ContractResponse } from '#shared/api/contract.ts'
import { callApi } from '#client/lib/api-client.ts'
import { ADMIN_MESSAGES } from '../messages.ts'
import { adminRootKey } from './admin-keys.ts'

export type AuditLogsResponse = ContractResponse<typeof auditLogsContract>

/** SPEC 7 "Admin", SPEC 9 "Timing": the audit query is cached 60 s. */
export const AUDIT_LOGS_STALE_MS = 60_000

/** The root of every audit log page's key: invalidating it refreshes them all. */
export const auditLogsRootKey = [...adminRootKey, 'auditLogs'] as const

/**
 * GET /_api/audit-logs?page&limit&userId&eventType&eventCategory&severity&success&startDate&endDate
 * → {logs, pagination} (SPEC 5 "Audit log query", SPEC 7 "Admin"). Unset filters are left out of
 * the query. A failure without an error field reads 'Failed to fetch audit logs' (SPEC 8 "Admin").
 */
export const getAuditLogs = (query: AuditLogQuery): Promise<AuditLogsResponse> =>
  callApi(auditLogsContract, { query }, { fallbackError: ADMIN_MESSAGES.auditFetchFallback })

/** The previous page stays on screen (marked busy) while the next one loads. */
export const auditLogsQueryOptions = (query: AuditLogQuery) =>
  queryOptions({
    queryKey: [...auditLogsRootKey, query] as const,
    queryFn: () => getAuditLogs(query),
    staleTime: AUDIT_LOGS_STALE_MS,
    placeholderData: keepPreviousData,
  })

export const useAuditLogs = (query: AuditLogQuery) => useQuery(auditLogsQueryOptions(query))
