import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { AUDIT_CATEGORIES, AUDIT_EVENT_TYPES, AUDIT_PAGE_SIZES, AUDIT_SEVERITIES } from '#shared/api/admin.ts'
import { Button } from '#client/components/ui/button.tsx'
import { Input } from '#client/components/ui/input.tsx'
import { Label } from '#client/components/ui/label.tsx'
import {
  isAuditCategory,
  isAuditEventType,
  isAuditSeverity,
  isAuditStatus,
  parsePageSize,
  parseUserId,
  type AuditLogFilters,
} from '../lib/audit-log-query.ts'
import { ADMIN_MESSAGES } from '../messages.ts'

/** SPEC 9 "Timing": the User ID filter waits 500 ms after the last keystroke. */
export const USER_ID_DEBOUNCE_MS = 500

const selectClass =
  'h-10 w-full rounded-lg border border-line bg-surface px-2 text-sm text-ink shadow-xs focus-visible:outline-2 focus-visible:outline-brand-500'

function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId()
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <Label htmlFor={id} className="text-xs">
        {label}
      </Label>
      {children(id)}
    </div>
  )
}

function Choice<T extends string>({
  label,
  value,
  options,
  isValue,
  onChange,
}: {
  label: string
  value: T | null
  options: readonly { value: T; label: string }[]
  isValue: (value: string) => value is T
  onChange: (value: T | null) => void
}) {
  return (
    <Field label={label}>
      {(id) => (
        <select id={id} value={value ?? ''} onChange={(event) => onChange(isValue(event.currentTarget.value) ? event.currentTarget.value : null)} className={selectClass}>
          <option value="">{ADMIN_MESSAGES.filterAll}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}

const asOptions = <T extends string>(values: readonly T[]) => values.map((value) => ({ value, label: value }))
const STATUS_OPTIONS = [
  { value: 'success', label: ADMIN_MESSAGES.auditStatus.success },
  { value: 'failure', label: ADMIN_MESSAGES.auditStatus.failure },
] as const

/**
 * The Security Audit Logs filters (SPEC 4 "Audit log filters", SPEC 5, SPEC 9 "Audit log"): User ID
 * (numeric, parsed to an integer, empty for none, applied 500 ms after typing stops), event type,
 * category, severity, status, start and end dates, page size, and Clear Filters. Going back to page
 * 1 on a change is `onChange`'s job (hooks/use-audit-log-filters.ts).
 */
export function AuditLogFiltersForm({
  filters,
  onChange,
  onClear,
}: {
  filters: AuditLogFilters
  onChange: (change: Partial<AuditLogFilters>) => void
  onClear: () => void
}) {
  const [userIdText, setUserIdText] = useState(() => (filters.userId === null ? '' : String(filters.userId)))
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])

  const changeUserId = (text: string) => {
    setUserIdText(text)
    clearTimeout(timer.current)
    const committed = filters.userId
    timer.current = setTimeout(() => {
      const userId = parseUserId(text)
      if (userId !== committed) onChange({ userId })
    }, USER_ID_DEBOUNCE_MS)
  }

  const clearAll = () => {
    clearTimeout(timer.current)
    setUserIdText('')
    onClear()
  }

  return (
    <form role="search" aria-label={ADMIN_MESSAGES.filtersLabel} onSubmit={(event) => event.preventDefault()} className="flex flex-col gap-3">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        <Field label={ADMIN_MESSAGES.filterUserId}>
          {(id) => (
            <Input id={id} type="number" inputMode="numeric" min={1} step={1} value={userIdText} onChange={(event) => changeUserId(event.currentTarget.value)} />
          )}
        </Field>
        <Choice
          label={ADMIN_MESSAGES.filterEventType}
          value={filters.eventType}
          options={asOptions(AUDIT_EVENT_TYPES)}
          isValue={isAuditEventType}
          onChange={(eventType) => onChange({ eventType })}
        />
        <Choice
          label={ADMIN_MESSAGES.filterCategory}
          value={filters.eventCategory}
          options={asOptions(AUDIT_CATEGORIES)}
          isValue={isAuditCategory}
          onChange={(eventCategory) => onChange({ eventCategory })}
        />
        <Choice
          label={ADMIN_MESSAGES.filterSeverity}
          value={filters.severity}
          options={asOptions(AUDIT_SEVERITIES)}
          isValue={isAuditSeverity}
          onChange={(severity) => onChange({ severity })}
        />
        <Choice label={ADMIN_MESSAGES.filterStatus} value={filters.status} options={STATUS_OPTIONS} isValue={isAuditStatus} onChange={(status) => onChange({ status })} />
        <Field label={ADMIN_MESSAGES.filterStartDate}>
          {(id) => (
            <Input
              id={id}
              type="date"
              value={filters.startDate ?? ''}
              max={filters.endDate ?? undefined}
              onChange={(event) => onChange({ startDate: event.currentTarget.value || null })}
            />
          )}
        </Field>
        <Field label={ADMIN_MESSAGES.filterEndDate}>
          {(id) => (
            <Input
              id={id}
              type="date"
              value={filters.endDate ?? ''}
              min={filters.startDate ?? undefined}
              onChange={(event) => onChange({ endDate: event.currentTarget.value || null })}
            />
          )}
        </Field>
        <Field label={ADMIN_MESSAGES.filterPageSize}>
          {(id) => (
            <select id={id} value={filters.limit} onChange={(event) => onChange({ limit: parsePageSize(event.currentTarget.value) })} className={selectClass}>
              {AUDIT_PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div>
        <Button variant="outline" size="sm" onClick={clearAll}>
          {ADMIN_MESSAGES.clearFilters}
        </Button>
      </div>
    </form>
  )
}
