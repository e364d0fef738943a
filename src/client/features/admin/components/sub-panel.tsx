import { useId, type ReactNode } from 'react'
import { AlertCircle } from 'lucide-react'
import { ErrorBoundary } from '#client/components/error-boundary.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { cn } from '#client/lib/cn.ts'
import { ADMIN_MESSAGES } from '../messages.ts'

/**
 * One sub-panel of the Admin Panel: a section named by its h3 title (the panel's own title is the
 * h2), an optional status beside the title, and its own error boundary, so one failing sub-panel
 * does not blank the others (STYLE.md 17).
 */
export function SubPanel({
  title,
  description,
  status,
  className,
  children,
}: {
  title: string
  description?: ReactNode
  status?: ReactNode
  className?: string
  children: ReactNode
}) {
  const titleId = useId()
  return (
    <section aria-labelledby={titleId} className={cn('flex min-w-0 flex-col gap-3 rounded-xl border border-line p-4', className)}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={titleId} className="text-base font-semibold text-ink">
          {title}
        </h3>
        {status}
      </div>
      {description ? <div className="text-sm text-ink-muted">{description}</div> : null}
      <ErrorBoundary
        fallback={(reset) => (
          <div role="alert" className="flex flex-col items-start gap-2 text-sm text-danger-700">
            <p>{ADMIN_MESSAGES.subPanelFailed}</p>
            <Button variant="outline" size="sm" onClick={reset}>
              {ADMIN_MESSAGES.retry}
            </Button>
          </div>
        )}
      >
        {children}
      </ErrorBoundary>
    </section>
  )
}

/** A load failure with its SPEC 8 text and a way to try again. */
export function LoadError({ text, retrying, onRetry }: { text: string; retrying: boolean; onRetry: () => void }) {
  return (
    <div className="flex flex-col items-start gap-3">
      <p role="alert" className="flex items-start gap-2 rounded-lg border border-danger-200 bg-danger-50 p-3 text-sm text-danger-700">
        <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
        <span>{text}</span>
      </p>
      <Button variant="outline" size="sm" loading={retrying} onClick={onRetry}>
        {ADMIN_MESSAGES.retry}
      </Button>
    </div>
  )
}
