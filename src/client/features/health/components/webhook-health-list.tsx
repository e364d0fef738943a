import { AlertCircle, Radio } from 'lucide-react'
import type { WebhookHealth } from '#shared/api/health.ts'
import { Badge } from '#client/components/ui/badge.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { formatDateTime } from '#client/lib/relative-time.ts'
import { useWebhookStatus, type WebhookStatusResponse } from '../api/get-webhook-status.ts'
import { useSetupWebhook } from '../api/setup-webhook.ts'
import { describeExpiration, isKnownHealth, webhookAction } from '../lib/webhook-view.ts'
import { HEALTH_MESSAGES, PROVIDER_LABEL, WEBHOOK_PROVIDERS, type WebhookProvider } from '../messages.ts'

const HEALTH_TONE = {
  active: 'success',
  expiring_soon: 'warning',
  expired: 'danger',
  error: 'danger',
  inactive: 'neutral',
} as const satisfies Record<WebhookHealth, 'success' | 'warning' | 'danger' | 'neutral'>

type ProviderWebhook = WebhookStatusResponse[WebhookProvider]

/** One provider's push health (SPEC 4 "Webhook health"): a badge, the expiration, and Setup or Repair. */
function WebhookRow({ provider, webhook, now }: { provider: WebhookProvider; webhook: ProviderWebhook; now: number }) {
  const setup = useSetupWebhook()
  const label = PROVIDER_LABEL[provider]
  const titleId = `webhook-${provider}-title`

  let badge
  let details = null
  let button = null
  if (!webhook) {
    badge = <Badge tone="neutral">{HEALTH_MESSAGES.notConfigured}</Badge>
  } else {
    // Typed as the contract's enum; a value this client does not know still gets a badge and Repair.
    const health: string = webhook.healthStatus
    badge = isKnownHealth(health) ? <Badge tone={HEALTH_TONE[health]}>{HEALTH_MESSAGES.health[health]}</Badge> : <Badge tone="neutral">{health}</Badge>
    const expiration = describeExpiration(webhook.expiration, now)
    if (expiration) {
      details = (
        <p className="text-sm text-ink-muted">
          <time dateTime={webhook.expiration ?? undefined} title={formatDateTime(webhook.expiration)}>
            {expiration}
          </time>
        </p>
      )
    }
    const action = webhookAction(health)
    const text = action === 'setup' ? HEALTH_MESSAGES.setup : HEALTH_MESSAGES.repair
    button = (
      // Named "Repair Gmail": two rows may both show Repair. The name starts with the visible word.
      <Button
        variant={action === 'setup' ? 'primary' : 'outline'}
        size="sm"
        aria-label={`${text} ${label}`}
        loading={setup.isPending}
        onClick={() => setup.mutate(provider)}
      >
        {text}
      </Button>
    )
  }

  return (
    <li aria-labelledby={titleId} data-provider={provider} className="flex items-center justify-between gap-3 px-4 py-3">
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span id={titleId} className="font-medium text-ink">
            {label}
          </span>
          {badge}
        </div>
        {details}
      </div>
      {button}
    </li>
  )
}

/**
 * The webhook half of the System Status card (SPEC 3 "Webhook status", SPEC 4 "Webhook health"):
 * a row per provider; a provider the status leaves null shows Not Configured.
 */
export function WebhookHealthList({ now }: { now: number }) {
  const webhooks = useWebhookStatus()
  const data = webhooks.data

  let body
  if (data) {
    body = (
      <ul aria-labelledby="webhooks-heading" className="divide-y divide-line rounded-xl border border-line">
        {WEBHOOK_PROVIDERS.map((provider) => (
          <WebhookRow key={provider} provider={provider} webhook={data[provider]} now={now} />
        ))}
      </ul>
    )
  } else if (webhooks.error) {
    body = (
      <div className="flex flex-col items-start gap-3">
        <p role="alert" className="flex items-start gap-2 rounded-lg border border-danger-200 bg-danger-50 p-3 text-sm text-danger-700">
          <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>{HEALTH_MESSAGES.webhooksLoadFailed(webhooks.error.message)}</span>
        </p>
        <Button variant="outline" size="sm" loading={webhooks.isFetching} onClick={() => void webhooks.refetch()}>
          {HEALTH_MESSAGES.retry}
        </Button>
      </div>
    )
  } else {
    body = (
      <div role="status" aria-label={HEALTH_MESSAGES.webhooksLoading} className="flex flex-col gap-2">
        <Skeleton className="h-14 w-full rounded-xl" />
        <Skeleton className="h-14 w-full rounded-xl" />
      </div>
    )
  }

  return (
    <section aria-labelledby="webhooks-heading" className="flex flex-col gap-2">
      <h3 id="webhooks-heading" className="flex items-center gap-2 text-sm font-semibold text-ink">
        <Radio aria-hidden className="size-4 text-brand-600" />
        {HEALTH_MESSAGES.webhooksHeading}
      </h3>
      <p className="text-sm text-ink-muted">{HEALTH_MESSAGES.webhooksDescription}</p>
      {body}
    </section>
  )
}
