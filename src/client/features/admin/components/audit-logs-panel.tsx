import { AlertCircle, ShieldCheck } from 'lucide-react'
import { Button } from '#client/components/ui/button.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { useAuditLogs } from '../api/get-audit-logs.ts'
import { useAuditLogFilters } from '../hooks/use-audit-log-filters.ts'
import { toAuditLogQuery } from '../lib/audit-log-query.ts'
import { ADMIN_MESSAGES } from '../messages.ts'
import { AuditLogFiltersForm } from './audit-log-filters.tsx'
import { AuditLogPagination } from './audit-log-pagination.tsx'
import { AuditLogTable } from './audit-log-table.tsx'
import { SubPanel } from './sub-panel.tsx'

/** SPEC 9 "Audit log": ten placeholder rows while the table loads. */
export const AUDIT_SKELETON_ROWS = 10

function TableSkeleton() {
  return (
    <div role="status" aria-label={ADMIN_MESSAGES.auditLoading} className="flex flex-col divide-y divide-line rounded-lg border border-line">
      {Array.from({ length: AUDIT_SKELETON_ROWS }, (_, index) => (
        <div key={index} data-testid="audit-log-skeleton" className="flex items-center gap-3 px-3 py-2.5">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-4 w-20" />
          <Skeleton className="h-4 flex-1" />
        </div>
      ))}
    </div>
  )
}

/**
 * Security Audit Logs (SPEC 2, SPEC 3 "Audit log entry", SPEC 4 "Audit log filters", SPEC 8
 * "Admin", SPEC 9 "Audit log"): the immutable audit trail with filters (kept in the URL) and
 * first/previous/next/last pagination.
 */
export function AuditLogsPanel() {
  const { filters, update, clear } = useAuditLogFilters()
  const logs = useAuditLogs(toAuditLogQuery(filters))
  const data = logs.data

  let body
  if (data) {
    body = (
      <>
        {data.logs.length === 0 ? (
          <div className="rounded-lg border border-dashed border-line p-6 text-center">
            <p className="font-medium text-ink">{ADMIN_MESSAGES.auditEmpty}</p>
            <p className="text-sm text-ink-muted">{ADMIN_MESSAGES.auditEmptyHint}</p>
          </div>
        ) : (
          <AuditLogTable logs={data.logs} busy={logs.isPlaceholderData} />
        )}
        <AuditLogPagination page={filters.page} totalPages={data.pagination.totalPages} totalRecords={data.pagination.totalRecords} onPage={(page) => update({ page })} />
      </>
    )
  } else if (logs.error) {
    body = (
      <div className="flex flex-col items-start gap-3">
        <div role="alert" className="flex items-start gap-2 rounded-lg border border-danger-200 bg-danger-50 p-3 text-sm text-danger-700">
          <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
          <div>
            <p className="font-medium">{ADMIN_MESSAGES.auditLoadError}</p>
            <p>{logs.error.message || ADMIN_MESSAGES.auditUnknownError}</p>
          </div>
        </div>
        <Button variant="outline" size="sm" loading={logs.isFetching} onClick={() => void logs.refetch()}>
          {ADMIN_MESSAGES.retry}
        </Button>
      </div>
    )
  } else {
    body = <TableSkeleton />
  }

  return (
    <SubPanel
      title={ADMIN_MESSAGES.auditTitle}
      className="md:col-span-2"
      description={
        <>
          <p className="flex items-center gap-1.5 font-medium text-ink">
            <ShieldCheck aria-hidden className="size-4 text-brand-600" />
            {ADMIN_MESSAGES.auditImmutable}
          </p>
          <p>{ADMIN_MESSAGES.auditDescription}</p>
        </>
      }
    >
      <AuditLogFiltersForm filters={filters} onChange={update} onClear={clear} />
      {body}
    </SubPanel>
  )
}
