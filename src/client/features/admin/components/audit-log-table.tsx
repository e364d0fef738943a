import { Fragment, useState } from 'react'
import { ChevronDown, ChevronRight } from 'lucide-react'
import type { AuditLogEntry } from '#shared/api/admin.ts'
import { Badge } from '#client/components/ui/badge.tsx'
import { cn } from '#client/lib/cn.ts'
import { formatDateTime } from '#client/lib/relative-time.ts'
import { ADMIN_MESSAGES } from '../messages.ts'

/** SPEC 9 "Audit log": CRITICAL and ERROR destructive, WARNING warning, others secondary. */
export function severityTone(severity: string): 'danger' | 'warning' | 'neutral' {
  if (severity === 'CRITICAL' || severity === 'ERROR') return 'danger'
  if (severity === 'WARNING') return 'warning'
  return 'neutral'
}

const cell = 'px-3 py-2 align-top'
const orNA = (value: string | number | null | undefined) => (value === null || value === undefined || value === '' ? ADMIN_MESSAGES.notAvailable : value)

function resourceOf(entry: AuditLogEntry): string {
  if (!entry.resourceType && !entry.resourceId) return ADMIN_MESSAGES.notAvailable
  return [entry.resourceType, entry.resourceId].filter(Boolean).join(' ')
}

function Details({ entry }: { entry: AuditLogEntry }) {
  const fields = ADMIN_MESSAGES.detailFields
  const rows: [string, string][] = [
    [fields.sessionId, String(orNA(entry.sessionId))],
    [fields.resource, resourceOf(entry)],
    [fields.authenticationMethod, String(orNA(entry.authenticationMethod))],
    [fields.errorCode, String(orNA(entry.errorCode))],
    [fields.userAgent, String(orNA(entry.userAgent))],
  ]
  return (
    <div className="flex flex-col gap-3">
      <dl className="grid gap-x-4 gap-y-1 text-xs sm:grid-cols-[max-content_1fr]">
        {rows.map(([label, value]) => (
          <Fragment key={label}>
            <dt className="font-medium text-ink-muted">{label}</dt>
            <dd className="break-all text-ink">{value}</dd>
          </Fragment>
        ))}
      </dl>
      <div className="flex flex-col gap-1">
        <p className="text-xs font-medium text-ink-muted">{fields.metadata}</p>
        <pre className="max-h-80 overflow-auto rounded-md bg-canvas p-3 text-xs text-ink">{JSON.stringify(entry.metadata, null, 2)}</pre>
      </div>
    </div>
  )
}

/**
 * The audit event table (SPEC 2, SPEC 3 "Audit log entry"): the SPEC 2 columns in order; an empty
 * user id reads 'N/A'. Clicking a row, or its Details button (the keyboard's way in), expands a
 * detail row with the session, resource, authentication method, error code, user agent and the
 * metadata as formatted JSON; only one row is expanded at a time.
 */
export function AuditLogTable({ logs, busy }: { logs: readonly AuditLogEntry[]; busy: boolean }) {
  const [expandedId, setExpandedId] = useState<number | null>(null)
  const toggle = (id: number) => setExpandedId((current) => (current === id ? null : id))

  return (
    <div className={cn('overflow-x-auto rounded-lg border border-line', busy && 'opacity-60')} aria-busy={busy || undefined}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{ADMIN_MESSAGES.auditTableLabel}</caption>
        <thead className="bg-canvas text-xs text-ink-muted">
          <tr>
            {ADMIN_MESSAGES.auditColumns.map((column) => (
              <th key={column} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {logs.map((entry) => {
            const expanded = expandedId === entry.id
            const detailsId = `audit-log-details-${entry.id}`
            const Chevron = expanded ? ChevronDown : ChevronRight
            return (
              <Fragment key={entry.id}>
                <tr data-audit-id={entry.id} onClick={() => toggle(entry.id)} className={cn('cursor-pointer hover:bg-canvas/60', expanded && 'bg-canvas/60')}>
                  <td className={cn(cell, 'whitespace-nowrap')}>
                    <time dateTime={entry.timestamp}>{formatDateTime(entry.timestamp)}</time>
                  </td>
                  <td className={cell}>{entry.eventType}</td>
                  <td className={cell}>{entry.eventCategory}</td>
                  <td className={cell}>
                    <Badge tone={severityTone(entry.severity)}>{entry.severity}</Badge>
                  </td>
                  <td className={cell}>{orNA(entry.userId)}</td>
                  <td className={cell}>{entry.action}</td>
                  <td className={cell}>
                    <Badge tone={entry.success ? 'success' : 'danger'}>{entry.success ? ADMIN_MESSAGES.auditStatus.success : ADMIN_MESSAGES.auditStatus.failure}</Badge>
                  </td>
                  <td className={cn(cell, 'whitespace-nowrap')}>{orNA(entry.ipAddress)}</td>
                  <td className={cell}>
                    <button
                      type="button"
                      aria-expanded={expanded}
                      aria-controls={expanded ? detailsId : undefined}
                      aria-label={ADMIN_MESSAGES.detailsLabel(expanded, entry.id)}
                      onClick={(event) => {
                        // The row's own click would toggle it back.
                        event.stopPropagation()
                        toggle(entry.id)
                      }}
                      className="inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-500"
                    >
                      <Chevron aria-hidden className="size-3.5" />
                      {expanded ? ADMIN_MESSAGES.hideDetails : ADMIN_MESSAGES.showDetails}
                    </button>
                  </td>
                </tr>
                {expanded ? (
                  <tr id={detailsId} data-audit-details={entry.id}>
                    <td colSpan={ADMIN_MESSAGES.auditColumns.length} className="bg-canvas/40 px-3 py-3">
                      <Details entry={entry} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
