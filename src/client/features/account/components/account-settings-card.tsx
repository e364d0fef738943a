import { useId, useState, type ReactNode } from 'react'
import { ChevronDown } from 'lucide-react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { cn } from '#client/lib/cn.ts'
import { ACCOUNT_MESSAGES } from '../messages.ts'

/** Local storage key of the card's open state (SPEC 2). */
export const ACCOUNT_SETTINGS_EXPANDED_KEY = 'accountSettingsExpanded'

function readExpanded(): boolean {
  try {
    return window.localStorage.getItem(ACCOUNT_SETTINGS_EXPANDED_KEY) === 'true'
  } catch {
    return false
  }
}

/**
 * The collapsible Account Settings card (SPEC 2): collapsed by default, its open state kept in local
 * storage. It holds what the page hands it: Active Sessions, Data Retention Policy, Danger Zone.
 */
export function AccountSettingsCard({ className, children }: { className?: string; children: ReactNode }) {
  const [expanded, setExpanded] = useState(readExpanded)
  const contentId = useId()
  const toggle = () => {
    const next = !expanded
    setExpanded(next)
    try {
      window.localStorage.setItem(ACCOUNT_SETTINGS_EXPANDED_KEY, String(next))
    } catch {
      // Private windows may refuse storage: the card still opens, just not remembered.
    }
  }
  return (
    <Card role="region" aria-labelledby="account-settings-title" className={className}>
      <CardHeader className="pb-6">
        <CardTitle id="account-settings-title">
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={contentId}
            onClick={toggle}
            className="flex w-full items-center justify-between gap-3 rounded-md text-left focus-visible:outline-2 focus-visible:outline-brand-500"
          >
            {ACCOUNT_MESSAGES.cardTitle}
            <ChevronDown aria-hidden className={cn('size-5 text-ink-muted transition-transform', expanded && 'rotate-180')} />
          </button>
        </CardTitle>
        <CardDescription>{ACCOUNT_MESSAGES.cardDescription}</CardDescription>
      </CardHeader>
      {expanded && (
        <CardContent id={contentId} className="flex flex-col gap-8 pt-0">
          {children}
        </CardContent>
      )}
    </Card>
  )
}
