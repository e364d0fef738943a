import { HEARTBEAT_STATUSES } from '#shared/api/health.ts'
import type { MailboxHealthResponse } from '../api/get-mailbox-health.ts'
import { ADMIN_MESSAGES } from '../messages.ts'
import { CountGrid } from './count-grid.tsx'
import { SubPanel } from './sub-panel.tsx'

/** 'stale_detected' → 'Stale detected': the status code, readable. */
const readable = (status: string) => {
  const words = status.replaceAll('_', ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

const RUNNING = new Set<string>(['ok', 'healthy'])

/**
 * The heartbeat sub-panel: how many mailboxes are in each heartbeat status (SPEC 4 "Heartbeat
 * statuses"), in SPEC order; statuses no mailbox is in are left out, so the list stays short.
 */
export function HeartbeatHealthPanel({ data }: { data: MailboxHealthResponse }) {
  const items = HEARTBEAT_STATUSES.filter((status) => (data.heartbeats[status] ?? 0) > 0).map((status) => ({
    key: status,
    label: readable(status),
    count: data.heartbeats[status] ?? 0,
    alarming: !RUNNING.has(status),
  }))
  return (
    <SubPanel title={ADMIN_MESSAGES.heartbeatsTitle} description={ADMIN_MESSAGES.heartbeatsDescription}>
      {items.length === 0 ? <p className="text-sm text-ink-muted">{ADMIN_MESSAGES.heartbeatsEmpty}</p> : <CountGrid label={ADMIN_MESSAGES.heartbeatsTitle} items={items} />}
    </SubPanel>
  )
}
