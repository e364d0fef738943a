import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { useNow } from '#client/lib/use-now.ts'
import { HEALTH_MESSAGES } from '../messages.ts'
import { HeartbeatStatus } from './heartbeat-status.tsx'
import { WebhookHealthList } from './webhook-health-list.tsx'

/** Relative times count seconds ('Active now' is the first 5), so they are recomputed this often. */
const CLOCK_TICK_MS = 5_000

/**
 * The dashboard's System Status card (SPEC 2 "/dashboard", issue 14): whether filtering is alive
 * (the heartbeat) and whether Gmail and Outlook still push new mail (webhook health), with Setup
 * or Repair for each. The two halves load, fail and retry on their own.
 */
export function SystemStatusCard({ className }: { className?: string }) {
  const now = useNow(CLOCK_TICK_MS)
  return (
    <Card role="region" aria-labelledby="system-status-title" className={className}>
      <CardHeader>
        <CardTitle id="system-status-title">{HEALTH_MESSAGES.cardTitle}</CardTitle>
        <CardDescription>{HEALTH_MESSAGES.cardDescription}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <HeartbeatStatus now={now} />
        <WebhookHealthList now={now} />
      </CardContent>
    </Card>
  )
}
