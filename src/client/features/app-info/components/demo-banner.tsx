import { FlaskConical } from 'lucide-react'
import { useAppInfo } from '../api/get-app-info.ts'

export const DEMO_MODE_NOTICE = 'Demo mode: sign-in uses local demo accounts; no real mailbox is connected.'

/** A slim notice so nobody mistakes the demo for a connected mailbox. */
export function DemoBanner() {
  const { data } = useAppInfo()
  if (!data?.demoMode) return null
  return (
    // A labelled region, so it sits in a landmark like the rest of the page.
    <section aria-label="Demo mode" className="bg-warning-50 text-warning-800 border-b border-warning-200">
      <p role="note" className="mx-auto flex max-w-6xl items-center justify-center gap-2 px-4 py-1.5 text-center text-xs font-medium sm:text-sm">
        <FlaskConical aria-hidden className="size-4 shrink-0" />
        {DEMO_MODE_NOTICE}
      </p>
    </section>
  )
}
