import { useMutation, useQueryClient } from '@tanstack/react-query'
import { redactAuditTokensContract } from '#shared/api/admin.ts'
import { callApi } from '#client/lib/api-client.ts'
import { auditLogsRootKey } from './get-audit-logs.ts'

/** POST /_api/admin/redact-audit-tokens (empty body) → {message, rowsChanged} (SPEC 3 "Token redaction result"). */
export const redactAuditTokens = () => callApi(redactAuditTokensContract, { body: {} })

/** Redaction rewrites audit event details, so every audit log page is fetched again. */
export function useRedactAuditTokens() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: redactAuditTokens,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: auditLogsRootKey }),
  })
}
