import { AlertCircle, CircleHelp, Clock, MailX, ShieldAlert, ShieldCheck, type LucideIcon } from 'lucide-react'
import { Button } from '#client/components/ui/button.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { cn } from '#client/lib/cn.ts'
import { formatDateTime, formatRelativeTime, parseTime } from '#client/lib/relative-time.ts'
import { useHeartbeatStatus } from '../api/get-heartbeat-status.ts'
import { heartbeatFamily } from '../lib/heartbeat-view.ts'
import { HEALTH_MESSAGES, type HeartbeatFamily } from '../messages.ts'

/** Green when filtering runs, amber while it is late or recovering, red when it stopped, grey otherwise. */
const FAMILY_STYLE: Record<HeartbeatFamily, { icon: LucideIcon; box: string; text: string }> = {
  running: { icon: ShieldCheck, box: 'border-success-200 bg-success-50', text: 'text-success-700' },
  delayed: { icon: Clock, box: 'border-warning-200 bg-warning-50', text: 'text-warning-800' },
  stopped: { icon: ShieldAlert, box: 'border-danger-200 bg-danger-50', text: 'text-danger-700' },
  noMailbox: { icon: MailX, box: 'border-line bg-canvas/40', text: 'text-ink' },
  unknown: { icon: CircleHelp, box: 'border-line bg-canvas/40', text: 'text-ink' },
}

/** A relative time (SPEC 4 "Relative time display") with the full date and time as its title. */
function RelativeTime({ value, now }: { value: string | null; now: number }) {
  const text = formatRelativeTime(value, now)
  if (typeof parseTime(value) !== 'number') return <span className="font-medium text-ink">{text}</span>
  return (
    <time dateTime={value ?? undefined} title={formatDateTime(value)} className="font-medium text-ink">
      {text}
    </time>
  )
}

/**
 * The heartbeat half of the System Status card (SPEC 3 "Heartbeat status", SPEC 4 "Heartbeat
 * statuses"): a headline saying whether filtering is alive, the server's explanation of the status
 * and what to do, when the last email was processed and when the mailbox last synced.
 */
export function HeartbeatStatus({ now }: { now: number }) {
  const heartbeat = useHeartbeatStatus()
  const data = heartbeat.data

  if (!data) {
    if (heartbeat.error) {
      return (
        <div className="flex flex-col items-start gap-3">
          <p role="alert" className="flex items-start gap-2 rounded-lg border border-danger-200 bg-danger-50 p-3 text-sm text-danger-700">
            <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
            <span>{HEALTH_MESSAGES.heartbeatLoadFailed(heartbeat.error.message)}</span>
          </p>
          <Button variant="outline" size="sm" loading={heartbeat.isFetching} onClick={() => void heartbeat.refetch()}>
            {HEALTH_MESSAGES.retry}
          </Button>
        </div>
      )
    }
    return (
      <div role="status" aria-label={HEALTH_MESSAGES.heartbeatLoading} className="flex flex-col gap-3">
        <Skeleton className="h-24 w-full rounded-xl" />
        <Skeleton className="h-4 w-1/2" />
      </div>
    )
  }

  // Typed as the contract's enum, but a newer server may send a status this client does not know.
  const status: string = data.heartbeatStatus
  const family = heartbeatFamily(status)
  const style = FAMILY_STYLE[family]
  const Icon = style.icon

  return (
    <div className="flex flex-col gap-3">
      <div data-testid="heartbeat" data-family={family} data-status={status} className={cn('flex items-start gap-4 rounded-xl border p-4', style.box)}>
        <Icon aria-hidden className={cn('mt-0.5 size-7 shrink-0', style.text)} />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <p role="status" className={cn('text-xl font-semibold', style.text)}>
            {HEALTH_MESSAGES.headline[family]}
          </p>
          {data.message && <p className="text-sm text-ink">{data.message}</p>}
        </div>
      </div>
      <div className="flex flex-col gap-1 text-sm text-ink-muted sm:flex-row sm:flex-wrap sm:gap-x-6">
        <p>
          {HEALTH_MESSAGES.lastEmailProcessed} <RelativeTime value={data.lastEmailProcessedAt} now={now} />
        </p>
        <p>
          {HEALTH_MESSAGES.lastSync} <RelativeTime value={data.lastSyncAt} now={now} />
        </p>
      </div>
    </div>
  )
}
