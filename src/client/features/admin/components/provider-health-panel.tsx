import { Badge } from '#client/components/ui/badge.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { formatDateTime, formatTimeOffset } from '#client/lib/relative-time.ts'
import type { ProviderHealth } from '#shared/api/admin.ts'
import { useProviderHealth } from '../api/get-provider-health.ts'
import { useResetCircuitBreaker } from '../api/reset-circuit-breaker.ts'
import { circuitState, providersOperational } from '../lib/provider-health.ts'
import { ADMIN_MESSAGES, type CircuitState } from '../messages.ts'
import { OverallStatus } from './overall-status.tsx'
import { RelativeTime } from './relative-time.tsx'
import { LoadError, SubPanel } from './sub-panel.tsx'

const STATE_TONE = { healthy: 'success', degraded: 'warning', open: 'danger' } as const satisfies Record<CircuitState, string>

function ProviderRow({ provider, now }: { provider: ProviderHealth; now: number }) {
  const reset = useResetCircuitBreaker()
  const name = ADMIN_MESSAGES.providerLabel[provider.serviceName] ?? provider.serviceName
  const state = circuitState(provider, now)
  const until = provider.circuitOpenUntil
  return (
    <li aria-label={name} data-service={provider.serviceName} className="flex flex-wrap items-center justify-between gap-3 px-3 py-3">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-ink">{name}</span>
          <Badge tone={STATE_TONE[state]}>{ADMIN_MESSAGES.circuitState[state]}</Badge>
        </p>
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-ink-muted">
          <div className="flex gap-1">
            <dt>{ADMIN_MESSAGES.failureCount}:</dt>
            <dd className="font-medium text-ink">{provider.failureCount}</dd>
          </div>
          <div className="flex gap-1">
            <dt>{ADMIN_MESSAGES.lastFailure}:</dt>
            <dd className="font-medium text-ink">
              <RelativeTime value={provider.lastFailureAt} now={now} />
            </dd>
          </div>
          {state === 'open' && until ? (
            <div className="flex gap-1">
              <dt>{ADMIN_MESSAGES.openUntil}:</dt>
              <dd className="font-medium text-ink">
                <time dateTime={until}>{formatDateTime(until)}</time> ({formatTimeOffset(Date.parse(until) - now)})
              </dd>
            </div>
          ) : null}
        </dl>
      </div>
      <Button variant="outline" size="sm" aria-label={ADMIN_MESSAGES.resetLabel(name)} loading={reset.isPending} onClick={() => reset.mutate(provider.serviceName)}>
        {ADMIN_MESSAGES.reset}
      </Button>
    </li>
  )
}

/**
 * Provider Health Status (SPEC 3 "Provider health entry", SPEC 4 "Circuit breaker"): each service's
 * circuit state, failure count, last failure and how long an open circuit stays open, with Reset;
 * overall 'All Systems Operational' only when every provider is healthy and no circuit is open.
 */
export function ProviderHealthPanel({ now }: { now: number }) {
  const health = useProviderHealth()
  const providers = health.data?.providers

  let overall = null
  if (health.isFetching) overall = <OverallStatus tone="neutral" text={ADMIN_MESSAGES.overall.loading} />
  else if (providers)
    overall = providersOperational(providers, now) ? (
      <OverallStatus tone="success" text={ADMIN_MESSAGES.overall.operational} />
    ) : (
      <OverallStatus tone="danger" text={ADMIN_MESSAGES.overall.systemic} />
    )

  let body
  if (providers) {
    body =
      providers.length === 0 ? (
        <p className="text-sm text-ink-muted">{ADMIN_MESSAGES.providersEmpty}</p>
      ) : (
        <ul aria-label={ADMIN_MESSAGES.providersTitle} className="flex flex-col divide-y divide-line rounded-lg border border-line">
          {providers.map((provider) => (
            <ProviderRow key={provider.serviceName} provider={provider} now={now} />
          ))}
        </ul>
      )
  } else if (health.error) {
    body = <LoadError text={ADMIN_MESSAGES.providersLoadError(health.error.message)} retrying={health.isFetching} onRetry={() => void health.refetch()} />
  } else {
    body = (
      <div role="status" aria-label={ADMIN_MESSAGES.providersLoading} className="flex flex-col gap-2">
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-full" />
      </div>
    )
  }

  return (
    <SubPanel title={ADMIN_MESSAGES.providersTitle} description={ADMIN_MESSAGES.providersDescription} status={overall}>
      {body}
    </SubPanel>
  )
}
