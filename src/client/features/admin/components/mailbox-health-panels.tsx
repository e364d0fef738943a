import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { useMailboxHealth } from '../api/get-mailbox-health.ts'
import { ADMIN_MESSAGES } from '../messages.ts'
import { AttentionPanel } from './attention-panel.tsx'
import { HeartbeatHealthPanel } from './heartbeat-health-panel.tsx'
import { LoadError, SubPanel } from './sub-panel.tsx'
import { WebhookHealthPanel } from './webhook-health-panel.tsx'

/**
 * The webhook and heartbeat sub-panels and the mailboxes needing attention (SPEC 2 Admin Panel),
 * all from one GET /_api/admin/mailbox-health; while it loads or when it fails, one sub-panel says
 * so for the three.
 */
export function MailboxHealthPanels({ now }: { now: number }) {
  const health = useMailboxHealth()
  if (health.data) {
    return (
      <>
        <WebhookHealthPanel data={health.data} />
        <HeartbeatHealthPanel data={health.data} />
        <AttentionPanel data={health.data} now={now} />
      </>
    )
  }
  return (
    <SubPanel title={ADMIN_MESSAGES.mailboxHealthTitle} className="md:col-span-2">
      {health.error ? (
        <LoadError text={ADMIN_MESSAGES.mailboxLoadError(health.error.message)} retrying={health.isFetching} onRetry={() => void health.refetch()} />
      ) : (
        <div role="status" aria-label={ADMIN_MESSAGES.mailboxLoading} className="grid grid-cols-2 gap-2 sm:grid-cols-3">
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} className="h-14 w-full" />
          ))}
        </div>
      )}
    </SubPanel>
  )
}
