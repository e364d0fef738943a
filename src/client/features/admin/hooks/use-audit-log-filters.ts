import { useCallback } from 'react'
import { useSearchParams } from 'react-router'
import {
  FIRST_PAGE,
  DEFAULT_PAGE_SIZE,
  isAuditCategory,
  isAuditEventType,
  isAuditSeverity,
  isAuditStatus,
  parseDateInput,
  parsePage,
  parsePageSize,
  parseUserId,
  type AuditLogFilters,
} from '../lib/audit-log-query.ts'

/** The URL parameters that hold the Security Audit Logs filters (STYLE.md 16: filters live in the URL). */
export const AUDIT_PARAMS = {
  page: 'auditPage',
  limit: 'auditLimit',
  userId: 'auditUserId',
  eventType: 'auditEvent',
  eventCategory: 'auditCategory',
  severity: 'auditSeverity',
  status: 'auditStatus',
  startDate: 'auditFrom',
  endDate: 'auditTo',
} as const satisfies Record<keyof AuditLogFilters, string>

const FILTER_NAMES = Object.keys(AUDIT_PARAMS) as (keyof AuditLogFilters)[]

/** A filter's URL value: null leaves the parameter out (the default). */
function toParam<K extends keyof AuditLogFilters>(name: K, value: AuditLogFilters[K] | null): string | null {
  if (value === null) return null
  if (name === 'page') return value === FIRST_PAGE ? null : String(value)
  if (name === 'limit') return value === DEFAULT_PAGE_SIZE ? null : String(value)
  return String(value)
}

/**
 * Reads and writes the audit log filters in the URL, so a reload or a shared link keeps them; values
 * that are not valid read as unset. SPEC 4 "Audit log filters": changing any filter or the page
 * size goes back to page 1, and `clear` resets every filter and the page. Other parameters (the
 * dashboard's own) are kept.
 */
export function useAuditLogFilters() {
  const [searchParams, setSearchParams] = useSearchParams()
  const status = searchParams.get(AUDIT_PARAMS.status)
  const eventType = searchParams.get(AUDIT_PARAMS.eventType)
  const eventCategory = searchParams.get(AUDIT_PARAMS.eventCategory)
  const severity = searchParams.get(AUDIT_PARAMS.severity)
  const filters: AuditLogFilters = {
    page: parsePage(searchParams.get(AUDIT_PARAMS.page)),
    limit: parsePageSize(searchParams.get(AUDIT_PARAMS.limit)),
    userId: parseUserId(searchParams.get(AUDIT_PARAMS.userId)),
    eventType: isAuditEventType(eventType) ? eventType : null,
    eventCategory: isAuditCategory(eventCategory) ? eventCategory : null,
    severity: isAuditSeverity(severity) ? severity : null,
    status: isAuditStatus(status) ? status : null,
    startDate: parseDateInput(searchParams.get(AUDIT_PARAMS.startDate)),
    endDate: parseDateInput(searchParams.get(AUDIT_PARAMS.endDate)),
  }

  /** Applies a change; anything but a page change also goes back to page 1. */
  const update = useCallback(
    (change: Partial<AuditLogFilters>) =>
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current)
          const write = <K extends keyof AuditLogFilters>(name: K, value: AuditLogFilters[K] | null) => {
            const text = toParam(name, value)
            if (text === null) next.delete(AUDIT_PARAMS[name])
            else next.set(AUDIT_PARAMS[name], text)
          }
          for (const name of FILTER_NAMES) if (name !== 'page' && name in change) write(name, change[name] ?? null)
          write('page', 'page' in change ? (change.page ?? FIRST_PAGE) : FIRST_PAGE)
          return next
        },
        { replace: true },
      ),
    [setSearchParams],
  )

  /**
   * Clear Filters: every filter back to unset, and page 1. The page size is not a filter (SPEC 4
   * names the two apart), so it stays.
   */
  const clear = useCallback(
    () =>
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current)
          for (const name of FILTER_NAMES) if (name !== 'limit') next.delete(AUDIT_PARAMS[name])
          return next
        },
        { replace: true },
      ),
    [setSearchParams],
  )

  return { filters, update, clear }
}
