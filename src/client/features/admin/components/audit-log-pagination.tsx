import { ChevronFirst, ChevronLast, ChevronLeft, ChevronRight } from 'lucide-react'
import { Button } from '#client/components/ui/button.tsx'
import { FIRST_PAGE } from '../lib/audit-log-query.ts'
import { ADMIN_MESSAGES } from '../messages.ts'

/**
 * First, previous, next and last (SPEC 2), with 'Page X of Y' and the total records. SPEC 4 "Audit
 * log filters": first and previous are disabled on page 1; next and last on the last page. With no
 * records there is one (empty) page.
 */
export function AuditLogPagination({ page, totalPages, totalRecords, onPage }: { page: number; totalPages: number; totalRecords: number; onPage: (page: number) => void }) {
  const lastPage = Math.max(totalPages, FIRST_PAGE)
  const onFirst = page <= FIRST_PAGE
  const onLast = page >= lastPage
  return (
    <nav aria-label={ADMIN_MESSAGES.pagesLabel} className="flex flex-wrap items-center justify-between gap-3 text-sm text-ink-muted">
      <p>
        <span>{ADMIN_MESSAGES.pageOf(page, lastPage)}</span>
        {' · '}
        <span>{ADMIN_MESSAGES.totalRecords(totalRecords)}</span>
      </p>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" aria-label={ADMIN_MESSAGES.firstPageLabel} disabled={onFirst} onClick={() => onPage(FIRST_PAGE)}>
          <ChevronFirst aria-hidden className="size-4" />
          {ADMIN_MESSAGES.firstPage}
        </Button>
        <Button variant="outline" size="sm" aria-label={ADMIN_MESSAGES.previousPageLabel} disabled={onFirst} onClick={() => onPage(Math.min(page - 1, lastPage))}>
          <ChevronLeft aria-hidden className="size-4" />
          {ADMIN_MESSAGES.previousPage}
        </Button>
        <Button variant="outline" size="sm" aria-label={ADMIN_MESSAGES.nextPageLabel} disabled={onLast} onClick={() => onPage(page + 1)}>
          {ADMIN_MESSAGES.nextPage}
          <ChevronRight aria-hidden className="size-4" />
        </Button>
        <Button variant="outline" size="sm" aria-label={ADMIN_MESSAGES.lastPageLabel} disabled={onLast} onClick={() => onPage(lastPage)}>
          {ADMIN_MESSAGES.lastPage}
          <ChevronLast aria-hidden className="size-4" />
        </Button>
      </div>
    </nav>
  )
}
