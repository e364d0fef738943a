import { useEffect, useState } from 'react'
import { Clock } from 'lucide-react'
import type { MailboxProvider } from '#shared/api/mailboxes.ts'
import { Button } from '#client/components/ui/button.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { MAILBOX_MESSAGES } from '../messages.ts'

/** SPEC 9 "Timing": status-check timeout notice after 30 s. */
export const STATUS_TIMEOUT_NOTICE_MS = 30_000

/**
 * The card body while the first status check runs: a skeleton the size of a loaded card (no
 * layout shift), and after 30 s a notice that still allows clearing the tokens (SPEC 4). Mounted
 * only while pending, so the 30 s start again for the next pending check.
 */
export function PendingMailbox({ provider, onSwitch }: { provider: MailboxProvider; onSwitch: () => void }) {
  const [timedOut, setTimedOut] = useState(false)

  useEffect(() => {
    const timer = window.setTimeout(() => setTimedOut(true), STATUS_TIMEOUT_NOTICE_MS)
    return () => window.clearTimeout(timer)
  }, [])

  if (timedOut) {
    return (
      <div className="flex flex-1 flex-col gap-3">
        <p role="status" className="flex items-start gap-2 rounded-lg border border-warning-200 bg-warning-50 p-3 text-sm text-warning-800">
          <Clock aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>{MAILBOX_MESSAGES.statusTimeout(provider)}</span>
        </p>
        <div className="mt-auto">
          <Button variant="outline" onClick={onSwitch}>
            {MAILBOX_MESSAGES.switchEmail}
          </Button>
        </div>
      </div>
    )
  }

  return (
    <div role="status" aria-label={MAILBOX_MESSAGES.checkingStatus(provider)} className="flex flex-1 flex-col gap-3">
      <Skeleton className="h-4 w-3/4" />
      <Skeleton className="h-4 w-1/2" />
      <Skeleton className="mt-auto h-10 w-36 rounded-lg" />
    </div>
  )
}
