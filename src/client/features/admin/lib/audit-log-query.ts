import { AUDIT_CATEGORIES, AUDIT_EVENT_TYPES, AUDIT_PAGE_SIZES, AUDIT_SEVERITIES, type AuditLogQuery } from '#shared/api/admin.ts'

export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number]
export type AuditCategory = (typeof AUDIT_CATEGORIES)[number]
export type AuditSeverity = (typeof AUDIT_SEVERITIES)[number]
export type AuditPageSize = (typeof AUDIT_PAGE_SIZES)[number]
export type AuditStatusFilter = 'success' | 'failure'

/** SPEC 9 "Audit log": the first page is 1; 50 a page unless another size is chosen. */
export const FIRST_PAGE = 1
export const DEFAULT_PAGE_SIZE: AuditPageSize = 50

/** What the Security Audit Logs filters hold. Dates are the date inputs' YYYY-MM-DD values. */
export interface AuditLogFilters {
  page: number
  limit: AuditPageSize
  userId: number | null
  eventType: AuditEventType | null
  eventCategory: AuditCategory | null
  severity: AuditSeverity | null
  status: AuditStatusFilter | null
  startDate: string | null
  endDate: string | null
}

export const DEFAULT_AUDIT_FILTERS: AuditLogFilters = {
  page: FIRST_PAGE,
  limit: DEFAULT_PAGE_SIZE,
  userId: null,
  eventType: null,
  eventCategory: null,
  severity: null,
  status: null,
  startDate: null,
  endDate: null,
}

const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: string | null | undefined): value is T =>
    value !== null && value !== undefined && (values as readonly string[]).includes(value)

export const isAuditEventType = oneOf(AUDIT_EVENT_TYPES)
export const isAuditCategory = oneOf(AUDIT_CATEGORIES)
export const isAuditSeverity = oneOf(AUDIT_SEVERITIES)
export const isAuditStatus = oneOf<AuditStatusFilter>(['success', 'failure'])

export function parsePageSize(value: string | null | undefined): AuditPageSize {
  const size = Number(value)
  return (AUDIT_PAGE_SIZES as readonly number[]).includes(size) ? (size as AuditPageSize) : DEFAULT_PAGE_SIZE
}

export function parsePage(value: string | null | undefined): number {
  const page = Number(value)
  return Number.isInteger(page) && page >= FIRST_PAGE ? page : FIRST_PAGE
}

/**
 * SPEC 5: the User ID filter is numeric, parsed to an integer, and empty means no filter. The server
 * takes positive integers only, so anything else (0, -3, text) is no filter rather than a 400.
 */
export function parseUserId(text: string | null | undefined): number | null {
  if (text === null || text === undefined || text.trim() === '') return null
  const value = Number.parseInt(text.trim(), 10)
  return Number.isInteger(value) && value >= 1 ? value : null
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

/** A date input's value, or null when it is not a real YYYY-MM-DD date. */
export function parseDateInput(value: string | null | undefined): string | null {
  if (!value || !DATE_ONLY.test(value)) return null
  return Number.isNaN(Date.parse(`${value}T00:00:00`)) ? null : value
}

/**
 * SPEC 5: date filters are converted to ISO timestamps. Both ends are inclusive local days: the
 * start date from its first millisecond, the end date up to its last.
 */
export function dateToIso(date: string | null, edge: 'start' | 'end'): string | undefined {
  if (!parseDateInput(date)) return undefined
  const local = new Date(`${date}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}`)
  return local.toISOString()
}

/** The GET /_api/audit-logs query of these filters (SPEC 5 "Audit log query"); unset filters are left out. */
export function toAuditLogQuery(filters: AuditLogFilters): AuditLogQuery {
  return {
    page: filters.page,
    limit: filters.limit,
    userId: filters.userId ?? undefined,
    eventType: filters.eventType ?? undefined,
    eventCategory: filters.eventCategory ?? undefined,
    severity: filters.severity ?? undefined,
    success: filters.status === null ? undefined : filters.status === 'success' ? 'true' : 'false',
    startDate: dateToIso(filters.startDate, 'start'),
    endDate: dateToIso(filters.endDate, 'end'),
  }
}
