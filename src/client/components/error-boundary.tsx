import { Component, type ErrorInfo, type ReactNode } from 'react'
import { AlertTriangle } from 'lucide-react'
import { Button } from '#client/components/ui/button.tsx'

type Props = { children: ReactNode; fallback?: (reset: () => void) => ReactNode }
type State = { error: Error | null }

/**
 * Catches render errors so one failing page or one dashboard card does not blank the whole app
 * (STYLE.md 17).
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null }

  static getDerivedStateFromError(error: Error): State {
    return { error }
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Render error caught by boundary', error, info.componentStack)
  }

  reset = () => this.setState({ error: null })

  override render() {
    if (!this.state.error) return this.props.children
    if (this.props.fallback) return this.props.fallback(this.reset)
    return <PageErrorFallback onRetry={this.reset} />
  }
}

export function PageErrorFallback({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 py-24 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-danger-50 text-danger-600">
        <AlertTriangle aria-hidden className="size-6" />
      </span>
      <h1 className="text-xl font-semibold text-ink">Something went wrong on this page</h1>
      <p className="text-ink-muted">
        The rest of the site still works. Try again, or reload the page if the problem continues.
      </p>
      <div className="flex gap-3">
        <Button onClick={onRetry}>Try again</Button>
        <Button variant="outline" onClick={() => window.location.reload()}>
          Reload page
        </Button>
      </div>
    </div>
  )
}

/** The fallback of one dashboard card: the rest of the dashboard keeps working. */
export function CardErrorFallback({ title, onRetry, className }: { title: string; onRetry: () => void; className?: string }) {
  return (
    <div
      role="alert"
      className={`flex flex-col items-start gap-3 rounded-2xl border border-danger-200 bg-surface p-6 ${className ?? ''}`}
    >
      <h2 className="flex items-center gap-2 font-semibold text-ink">
        <AlertTriangle aria-hidden className="size-5 text-danger-600" />
        {title}
      </h2>
      <p className="text-sm text-ink-muted">This card could not be shown. The rest of the dashboard still works.</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  )
}
