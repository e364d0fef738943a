import { Loader2 } from 'lucide-react'

/** Covers the page while a checkout session is created and the browser leaves for it. */
export function CheckoutOverlay() {
  return (
    <div
      role="status"
      aria-live="assertive"
      className="fixed inset-0 z-50 flex items-center justify-center bg-surface/80 backdrop-blur-sm animate-fade-in"
    >
      <div className="flex flex-col items-center gap-3 rounded-2xl border border-line bg-surface px-8 py-6 shadow-xl">
        <Loader2 aria-hidden className="size-8 animate-spin text-brand-600" />
        <p className="font-medium text-ink">Redirecting to checkout...</p>
      </div>
    </div>
  )
}
