import { Component, type ErrorInfo, type ReactNode } from 'react'
import { AlertTriangle } from 'lucide-react'
import { Button } from '#client/components/ui/button.tsx'

type Props = { children: ReactNode; fallback?: (reset: () => void) => ReactNode }
type State = { error: Error | null }

/**
 * Catches render errors so one failing page (or, later, one dashboard card) does not blank the
 * whole app (STYLE.md 17).
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
