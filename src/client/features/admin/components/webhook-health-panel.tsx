import { WEBHOOK_HEALTH } from '#shared/api/health.ts'
import type { MailboxHealthResponse } from '../api/get-mailbox-health.ts'
import { ADMIN_MESSAGES, type WebhookHealthCount } from '../messages.ts'
import { CountGrid } from './count-grid.tsx'
import { SubPanel } from './sub-panel.tsx'

/** Every kind the panel counts, zero included: SPEC 4 "Webhook health" plus mailboxes without a webhook. */
const KINDS: readonly WebhookHealthCount[] = [...WEBHOOK_HEALTH, 'not_configured']
const ALARMING = new Set<WebhookHealthCount>(['expired', 'error'])

/** The webhook sub-panel: how many mailboxes' push subscriptions are in each health state. */
export function WebhookHealthPanel({ data }: { data: MailboxHealthResponse }) {
  const items = KINDS.map((kind) => ({ key: kind, label: ADMIN_MESSAGES.webhookHealth[kind], count: data.webhooks[kind] ?? 0, alarming: ALARMING.has(kind) }))
  return (
    <SubPanel title={ADMIN_MESSAGES.webhooksTitle} description={ADMIN_MESSAGES.webhooksDescription(data.totalMailboxes)}>
      <CountGrid label={ADMIN_MESSAGES.webhooksTitle} items={items} />
    </SubPanel>
  )
}
