import { useId } from 'react'
import { AlertCircle, ChevronLeft, ChevronRight, MailCheck, RefreshCw } from 'lucide-react'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { Checkbox } from '#client/components/ui/checkbox.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { cn } from '#client/lib/cn.ts'
import { useActivity } from '../api/get-activity.ts'
import { useFlagDecision } from '../api/flag-decision.ts'
import { useRestoreDecision } from '../api/restore-decision.ts'
import { useActivityFilters } from '../hooks/use-activity-filters.ts'
import { useNow } from '#client/lib/use-now.ts'
import { CATEGORY_ORDER } from '../lib/categories.ts'
import { ACTIVITY_MESSAGES, CATEGORY_LABEL } from '../messages.ts'
import { DecisionRow } from './decision-row.tsx'

function ListSkeleton() {
  return (
    <div role="status" aria-label={ACTIVITY_MESSAGES.loading} className="flex flex-col divide-y divide-line rounded-xl border border-line">
      {Array.from({ length: 4 }, (_, index) => (
        <div key={index} className="flex flex-col gap-2 px-4 py-3">
          <Skeleton className="h-4 w-1/3" />
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-5 w-1/2" />
        </div>
      ))}
    </div>
  )
}

/**
 * Filtered Mail (issue 13): the latest decisions, 25 a page, newest first, refreshed every 30 s
 * while the page is visible; filters (category, filed away only) live in the URL. One click
 * corrects a decision: Restore or "This is cold", and the sender is remembered.
 */
export function FilteredMailCard({ className }: { className?: string }) {
  const { filters, update } = useActivityFilters()
  const activity = useActivity(filters)
  const restore = useRestoreDecision()
  const flag = useFlagDecision()
  const now = useNow()
  const restoreHelpId = useId()
  const flagHelpId = useId()
  const categoryId = useId()
  const filedId = useId()
  const filtered = filters.category !== null || filters.filedOnly

  const pendingFor = (id: number) =>
    restore.isPending && restore.variables === id ? 'restore' : flag.isPending && flag.variables === id ? 'flag' : null

  let body
  if (activity.data) {
    const { items, pagination } = activity.data
    body =
      items.length === 0 ? (
        <p className="flex items-center gap-3 rounded-xl border border-dashed border-line p-6 text-sm text-ink-muted">
          <MailCheck aria-hidden className="size-5 shrink-0 text-brand-600" />
          {filtered ? ACTIVITY_MESSAGES.emptyFiltered : ACTIVITY_MESSAGES.empty}
        </p>
      ) : (
        <>
          <ul
            aria-label={ACTIVITY_MESSAGES.listLabel}
            aria-busy={activity.isPlaceholderData || undefined}
            className={cn('flex flex-col divide-y divide-line rounded-xl border border-line', activity.isPlaceholderData && 'opacity-60')}
          >
            {items.map((decision) => (
              <DecisionRow
                key={decision.id}
                decision={decision}
                now={now}
                restoreHelpId={restoreHelpId}
                flagHelpId={flagHelpId}
                pending={pendingFor(decision.id)}
                onRestore={() => restore.mutate(decision.id)}
                onFlag={() => flag.mutate(decision.id)}
              />
            ))}
          </ul>
          <nav aria-label={ACTIVITY_MESSAGES.pagesLabel} className="flex flex-wrap items-center justify-between gap-3 text-sm text-ink-muted">
            <span>
              {ACTIVITY_MESSAGES.page(pagination.page, pagination.totalPages)} · {ACTIVITY_MESSAGES.total(pagination.totalRecords)}
            </span>
            <div className="flex gap-2">
              <Button variant="outline" size="sm" disabled={pagination.page <= 1} onClick={() => update({ page: pagination.page - 1 })}>
                <ChevronLeft aria-hidden className="size-4" />
                {ACTIVITY_MESSAGES.previous}
              </Button>
              <Button
                variant="outline"
                size="sm"
                disabled={pagination.page >= pagination.totalPages}
                onClick={() => update({ page: pagination.page + 1 })}
              >
                {ACTIVITY_MESSAGES.next}
                <ChevronRight aria-hidden className="size-4" />
              </Button>
            </div>
          </nav>
        </>
      )
  } else if (activity.error) {
    body = (
      <div className="flex flex-col items-start gap-3">
        <p role="alert" className="flex items-start gap-2 rounded-lg border border-danger-200 bg-danger-50 p-3 text-sm text-danger-700">
          <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>{ACTIVITY_MESSAGES.loadFailed(activity.error.message)}</span>
        </p>
        <Button variant="outline" size="sm" loading={activity.isFetching} onClick={() => void activity.refetch()}>
          {ACTIVITY_MESSAGES.retry}
        </Button>
      </div>
    )
  } else {
    body = <ListSkeleton />
  }

  return (
    <Card role="region" aria-labelledby="filtered-mail-title" className={className}>
      <CardHeader>
        <div className="flex items-start justify-between gap-3">
          <CardTitle id="filtered-mail-title">{ACTIVITY_MESSAGES.cardTitle}</CardTitle>
          <Button
            variant="ghost"
            size="sm"
            disabled={activity.isFetching}
            aria-busy={activity.isFetching || undefined}
            onClick={() => void activity.refetch()}
          >
            <RefreshCw aria-hidden className={cn('size-4', activity.isFetching && 'animate-spin')} />
            {ACTIVITY_MESSAGES.refresh}
          </Button>
        </div>
        <CardDescription>{ACTIVITY_MESSAGES.cardDescription}</CardDescription>
        <CardDescription id={restoreHelpId}>{ACTIVITY_MESSAGES.restoreHelp}</CardDescription>
        <CardDescription id={flagHelpId}>{ACTIVITY_MESSAGES.flagHelp}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
          <div className="flex items-center gap-2">
            <label htmlFor={categoryId} className="text-sm font-medium text-ink">
              {ACTIVITY_MESSAGES.categoryFilter}
            </label>
            <select
              id={categoryId}
              value={filters.category ?? ''}
              onChange={(event) => update({ category: event.currentTarget.value === '' ? null : (event.currentTarget.value as (typeof CATEGORY_ORDER)[number]) })}
              className="h-9 rounded-lg border border-line bg-surface px-2 text-sm text-ink shadow-xs focus-visible:outline-2 focus-visible:outline-brand-500"
            >
              <option value="">{ACTIVITY_MESSAGES.allCategories}</option>
              {CATEGORY_ORDER.map((category) => (
                <option key={category} value={category}>
                  {CATEGORY_LABEL[category]}
                </option>
              ))}
            </select>
          </div>
          <div className="flex items-center gap-2">
            <Checkbox id={filedId} checked={filters.filedOnly} onChange={(event) => update({ filedOnly: event.currentTarget.checked })} />
            <label htmlFor={filedId} className="cursor-pointer text-sm font-medium text-ink">
              {ACTIVITY_MESSAGES.filedOnly}
            </label>
          </div>
        </div>
        {body}
      </CardContent>
    </Card>
  )
}
