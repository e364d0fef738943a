import { useId, useState } from 'react'
import { ChevronDown, Inbox, Snowflake } from 'lucide-react'
import type { DecisionItem } from '#shared/api/activity.ts'
import { Badge } from '#client/components/ui/badge.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { cn } from '#client/lib/cn.ts'
import { formatDateTime, formatRelativeTime } from '../lib/relative-time.ts'
import { ACTIVITY_MESSAGES, DECIDED_BY_LABEL, STATE_LABEL } from '../messages.ts'
import { CategoryBadge } from './category-badge.tsx'

const STATE_TONE = {
  kept: 'success',
  filed: 'warning',
  restored: 'soft',
  flagged: 'warning',
  skipped: 'neutral',
} as const satisfies Record<DecisionItem['state'], 'success' | 'warning' | 'soft' | 'neutral'>

export interface DecisionRowProps {
  decision: DecisionItem
  now: number
  /** Ids of the texts that say the sender is remembered (described by the buttons). */
  restoreHelpId: string
  flagHelpId: string
  pending: 'restore' | 'flag' | null
  onRestore: () => void
  onFlag: () => void
}

/**
 * One decision in Filtered Mail: when, from whom, the subject, the category, the confidence, the
 * state and the reasons (expandable). Restore on messages out of the inbox (filed, flagged);
 * "This is cold" on messages in it (kept, restored). Skipped messages were never decided.
 */
export function DecisionRow({ decision, now, restoreHelpId, flagHelpId, pending, onRestore, onFlag }: DecisionRowProps) {
  const [open, setOpen] = useState(false)
  const reasonsId = useId()
  const subject = decision.subject.trim() === '' ? ACTIVITY_MESSAGES.noSubject : decision.subject
  const canRestore = decision.state === 'filed' || decision.state === 'flagged'
  const canFlag = decision.state === 'kept' || decision.state === 'restored'

  return (
    <li data-decision-id={decision.id} className="flex flex-col gap-2 px-4 py-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="flex min-w-0 flex-wrap items-baseline gap-x-2 text-sm">
            <span className="truncate font-medium text-ink" title={decision.senderAddress}>
              {decision.senderName || decision.senderAddress}
            </span>
            {decision.senderName && <span className="truncate text-xs text-ink-subtle">{decision.senderAddress}</span>}
            <time dateTime={decision.receivedAt} title={ACTIVITY_MESSAGES.receivedAt(formatDateTime(decision.receivedAt))} className="shrink-0 text-xs text-ink-muted">
              {formatRelativeTime(decision.receivedAt, now)}
            </time>
          </p>
          <p className="truncate text-sm text-ink" title={subject}>
            {subject}
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <CategoryBadge category={decision.category} />
            <span className="text-xs tabular-nums text-ink-muted">{ACTIVITY_MESSAGES.confidence(decision.confidence)}</span>
            <Badge tone={STATE_TONE[decision.state]} data-state={decision.state}>
              {STATE_LABEL[decision.state]}
            </Badge>
          </div>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          {canRestore && (
            <Button variant="outline" size="sm" aria-describedby={restoreHelpId} loading={pending === 'restore'} disabled={pending !== null} onClick={onRestore}>
              {pending !== 'restore' && <Inbox aria-hidden className="size-4" />}
              {ACTIVITY_MESSAGES.restore}
            </Button>
          )}
          {canFlag && (
            <Button variant="outline" size="sm" aria-describedby={flagHelpId} loading={pending === 'flag'} disabled={pending !== null} onClick={onFlag}>
              {pending !== 'flag' && <Snowflake aria-hidden className="size-4" />}
              {ACTIVITY_MESSAGES.flag}
            </Button>
          )}
        </div>
      </div>
      <div>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={reasonsId}
          onClick={() => setOpen((value) => !value)}
          className="inline-flex items-center gap-1 rounded text-xs font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          <ChevronDown aria-hidden className={cn('size-3.5 transition-transform', open && 'rotate-180')} />
          {open ? ACTIVITY_MESSAGES.hideReasons : ACTIVITY_MESSAGES.showReasons}
        </button>
        <div id={reasonsId} hidden={!open} className="mt-2 rounded-lg bg-canvas/60 p-3 text-sm">
          <p className="text-xs font-medium text-ink-muted">{DECIDED_BY_LABEL[decision.decidedBy]}</p>
          {decision.reasons.length > 0 ? (
            <ul className="mt-1 list-disc pl-5 text-ink">
              {decision.reasons.map((reason, index) => (
                <li key={index}>{reason}</li>
              ))}
            </ul>
          ) : (
            <p className="mt-1 text-ink-muted">{ACTIVITY_MESSAGES.noReasons}</p>
          )}
        </div>
      </div>
    </li>
  )
}
