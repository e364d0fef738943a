import { useId } from 'react'
import { AlertCircle, PauseCircle, ShieldCheck } from 'lucide-react'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { Switch } from '#client/components/ui/switch.tsx'
import { cn } from '#client/lib/cn.ts'
import { useSettings } from '../api/get-settings.ts'
import { useUpdateSettings } from '../api/update-settings.ts'
import { SETTINGS_MESSAGES } from '../messages.ts'

const numberFormat = new Intl.NumberFormat('en')

/**
 * The filtering on/off card (SPEC 2 lists it apart from Filter Settings; SPEC 4 "Filtering"): a
 * prominent "Filtering is on/off" with the switch and what it means, and today's performance metrics
 * (webhook and polling events). It shares the settings query and the optimistic save with the Filter
 * Settings card, so both switches always agree.
 */
export function FilteringStatusCard({ className }: { className?: string }) {
  const settings = useSettings()
  const update = useUpdateSettings()
  const switchId = useId()
  const textId = useId()
  const data = settings.data

  return (
    <Card role="region" aria-labelledby="filtering-status-title" className={className}>
      <CardHeader>
        <CardTitle id="filtering-status-title">{SETTINGS_MESSAGES.statusTitle}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        {data ? (
          <>
            <div
              className={cn(
                'flex items-start gap-4 rounded-xl border p-4',
                data.filteringEnabled ? 'border-success-200 bg-success-50' : 'border-warning-200 bg-warning-50',
              )}
            >
              {data.filteringEnabled ? (
                <ShieldCheck aria-hidden className="mt-0.5 size-7 shrink-0 text-success-700" />
              ) : (
                <PauseCircle aria-hidden className="mt-0.5 size-7 shrink-0 text-warning-800" />
              )}
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <p role="status" className={cn('text-xl font-semibold', data.filteringEnabled ? 'text-success-700' : 'text-warning-800')}>
                  {data.filteringEnabled ? SETTINGS_MESSAGES.statusOn : SETTINGS_MESSAGES.statusOff}
                </p>
                <p id={textId} className="text-sm text-ink">
                  {data.filteringEnabled ? SETTINGS_MESSAGES.statusOnText : SETTINGS_MESSAGES.statusOffText}
                </p>
              </div>
              <div className="flex flex-col items-center gap-1">
                <Switch
                  id={switchId}
                  aria-describedby={textId}
                  checked={data.filteringEnabled}
                  onCheckedChange={(checked) => update.mutate({ filteringEnabled: checked })}
                />
                <label htmlFor={switchId} className="text-xs font-medium text-ink-muted">
                  {SETTINGS_MESSAGES.statusSwitch}
                </label>
              </div>
            </div>
            <section aria-labelledby="filtering-performance-title" className="flex flex-col gap-2">
              <h3 id="filtering-performance-title" className="text-sm font-semibold text-ink">
                {SETTINGS_MESSAGES.performanceHeading}
              </h3>
              <dl className="grid grid-cols-2 gap-3">
                {(
                  [
                    [SETTINGS_MESSAGES.webhookEventsToday, data.performanceMetrics.webhookEventsToday],
                    [SETTINGS_MESSAGES.pollingEventsToday, data.performanceMetrics.pollingEventsToday],
                  ] as const
                ).map(([label, value]) => (
                  <div key={label} className="flex flex-col-reverse gap-0.5 rounded-lg border border-line bg-canvas/40 p-3">
                    <dt className="text-xs text-ink-muted">{label}</dt>
                    <dd className="text-2xl font-semibold tabular-nums text-ink">{numberFormat.format(value)}</dd>
                  </div>
                ))}
              </dl>
            </section>
          </>
        ) : settings.error ? (
          <div className="flex flex-col items-start gap-3">
            <p role="alert" className="flex items-start gap-2 rounded-lg border border-danger-200 bg-danger-50 p-3 text-sm text-danger-700">
              <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
              <span>{SETTINGS_MESSAGES.performanceUnavailable}</span>
            </p>
            <Button variant="outline" size="sm" loading={settings.isFetching} onClick={() => void settings.refetch()}>
              {SETTINGS_MESSAGES.retry}
            </Button>
          </div>
        ) : (
          <div role="status" aria-label={SETTINGS_MESSAGES.statusLoading} className="flex flex-col gap-3">
            <Skeleton className="h-20 w-full rounded-xl" />
            <div className="grid grid-cols-2 gap-3">
              <Skeleton className="h-16" />
              <Skeleton className="h-16" />
            </div>
          </div>
        )}
      </CardContent>
    </Card>
  )
}
