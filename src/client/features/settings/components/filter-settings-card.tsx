import { useId, useState } from 'react'
import { AlertCircle, Check, Lock } from 'lucide-react'
import { STRICTNESS_LEVELS, type SettingsResponse } from '#shared/api/settings.ts'
import { Badge } from '#client/components/ui/badge.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { Checkbox } from '#client/components/ui/checkbox.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { Slider } from '#client/components/ui/slider.tsx'
import { Switch } from '#client/components/ui/switch.tsx'
import { cn } from '#client/lib/cn.ts'
import { useSettings } from '../api/get-settings.ts'
import { useUpdateSettings, type SettingsChange } from '../api/update-settings.ts'
import { SETTINGS_MESSAGES, TOGGLE_FIELD, type ToggleCategory } from '../messages.ts'

/** SPEC 3 / 5: the threshold runs from 0.1 to 1; steps of 0.05. */
export const THRESHOLD_MIN = 0.1
export const THRESHOLD_MAX = 1
export const THRESHOLD_STEP = 0.05

const TOGGLES = ['informational', 'promotional', 'transactional'] as const satisfies readonly ToggleCategory[]

function SettingsSkeleton() {
  return (
    <div role="status" aria-label={SETTINGS_MESSAGES.loading} className="flex flex-col gap-4">
      <Skeleton className="h-6 w-2/3" />
      {Array.from({ length: 5 }, (_, index) => (
        <Skeleton key={index} className="h-4 w-3/4" />
      ))}
      <Skeleton className="h-6 w-full" />
      <Skeleton className="h-16 w-full" />
    </div>
  )
}

function FixedCategory({ label, state, hint, kept }: { label: string; state: string; hint: string; kept: boolean }) {
  return (
    <li className="flex items-start gap-3">
      <Lock aria-hidden className="mt-0.5 size-4 shrink-0 text-ink-subtle" />
      <div className="flex min-w-0 flex-col gap-0.5">
        <span className="flex flex-wrap items-center gap-2 text-sm font-medium text-ink">
          {label}
          <Badge tone={kept ? 'success' : 'warning'}>{state}</Badge>
        </span>
        <span className="text-sm text-ink-muted">{hint}</span>
      </div>
    </li>
  )
}

function SettingsForm({ settings: saved }: { settings: SettingsResponse }) {
  const update = useUpdateSettings()
  // A click shows its change in the same event, before the optimistic cache update arrives (a
  // controlled input would otherwise snap back for a moment); each save's own value is dropped once
  // it settles, and the cache (its answer, or the rollback after a failure) shows through again.
  const [shown, setShown] = useState<SettingsChange>({})
  const settings: SettingsResponse = { ...saved, ...shown }
  const save = (change: SettingsChange) => {
    setShown((current) => ({ ...current, ...change }))
    void update
      .mutateAsync(change)
      .catch(() => undefined)
      .finally(() =>
        setShown((current) => {
          const next = { ...current }
          for (const field of Object.keys(change) as (keyof SettingsChange)[]) if (next[field] === change[field]) delete next[field]
          return next
        }),
      )
  }
  // The threshold follows the thumb while it moves and is saved once, when it is let go.
  const [draftThreshold, setDraftThreshold] = useState<number | null>(null)
  const threshold = draftThreshold ?? settings.confidenceThreshold
  const ids = { prefix: useId(), master: useId(), masterHint: useId(), threshold: useId(), thresholdHint: useId(), categoriesHint: useId() }

  return (
    <div className="flex flex-col gap-6">
      <div className="flex items-start justify-between gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.master} className="text-sm font-medium text-ink">
            {SETTINGS_MESSAGES.masterSwitch}
          </label>
          <p id={ids.masterHint} className="text-sm text-ink-muted">
            {settings.filteringEnabled ? SETTINGS_MESSAGES.masterSwitchOn : SETTINGS_MESSAGES.masterSwitchOff}
          </p>
        </div>
        <Switch
          id={ids.master}
          aria-describedby={ids.masterHint}
          checked={settings.filteringEnabled}
          onCheckedChange={(checked) => save({ filteringEnabled: checked })}
        />
      </div>

      <fieldset className="flex flex-col gap-3" aria-describedby={ids.categoriesHint}>
        <legend className="text-sm font-semibold text-ink">{SETTINGS_MESSAGES.categoriesLegend}</legend>
        <p id={ids.categoriesHint} className="-mt-1 text-sm text-ink-muted">
          {SETTINGS_MESSAGES.categoriesHint}
        </p>
        <ul className="flex flex-col gap-3">
          {TOGGLES.map((category) => {
            const field = TOGGLE_FIELD[category]
            const text = SETTINGS_MESSAGES.categories[category]
            const id = `${ids.prefix}-${category}`
            return (
              <li key={category} className="flex items-start gap-3">
                <Checkbox
                  id={id}
                  aria-describedby={`${id}-hint`}
                  className="mt-0.5"
                  checked={settings[field]}
                  onChange={(event) => save({ [field]: event.currentTarget.checked })}
                />
                <div className="flex min-w-0 flex-col gap-0.5">
                  <label htmlFor={id} className="cursor-pointer text-sm font-medium text-ink">
                    {text.label}
                  </label>
                  <span id={`${id}-hint`} className="text-sm text-ink-muted">
                    {text.hint}
                  </span>
                </div>
              </li>
            )
          })}
          <FixedCategory {...SETTINGS_MESSAGES.fixedGenuine} kept />
          <FixedCategory {...SETTINGS_MESSAGES.fixedUnwanted} kept={false} />
        </ul>
      </fieldset>

      <div className="flex flex-col gap-2">
        <div className="flex items-baseline justify-between gap-3">
          <span id={ids.threshold} className="text-sm font-semibold text-ink">
            {SETTINGS_MESSAGES.thresholdLabel}
          </span>
          <output aria-labelledby={ids.threshold} className="text-sm font-semibold tabular-nums text-brand-700">
            {SETTINGS_MESSAGES.thresholdValue(threshold)}
          </output>
        </div>
        <Slider
          thumbLabel={SETTINGS_MESSAGES.thresholdLabel}
          valueText={SETTINGS_MESSAGES.thresholdValue(threshold)}
          thumbProps={{ 'aria-describedby': ids.thresholdHint }}
          min={THRESHOLD_MIN}
          max={THRESHOLD_MAX}
          step={THRESHOLD_STEP}
          value={[threshold]}
          onValueChange={([value]) => setDraftThreshold(value ?? null)}
          onValueCommit={([value]) => {
            setDraftThreshold(null)
            if (value !== undefined && value !== settings.confidenceThreshold) save({ confidenceThreshold: value })
          }}
        />
        <p id={ids.thresholdHint} className="text-sm text-ink-muted">
          {SETTINGS_MESSAGES.thresholdHint}
        </p>
      </div>

      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-semibold text-ink">{SETTINGS_MESSAGES.strictnessLegend}</legend>
        {STRICTNESS_LEVELS.map((level) => {
          const text = SETTINGS_MESSAGES.strictness[level]
          const id = `${ids.prefix}-strictness-${level}`
          const selected = settings.strictnessLevel === level
          return (
            <div
              key={level}
              className={cn('flex items-start gap-3 rounded-lg border p-3', selected ? 'border-brand-300 bg-brand-50/60' : 'border-line')}
            >
              <input
                type="radio"
                id={id}
                name={`${ids.prefix}-strictness`}
                value={level}
                aria-describedby={`${id}-hint`}
                className="mt-0.5 size-4 shrink-0 cursor-pointer accent-brand-600"
                checked={selected}
                onChange={() => save({ strictnessLevel: level })}
              />
              <div className="flex min-w-0 flex-col gap-0.5">
                <label htmlFor={id} className="cursor-pointer text-sm font-medium text-ink">
                  {text.label}
                </label>
                <span id={`${id}-hint`} className="text-sm text-ink-muted">
                  {text.hint}
                </span>
              </div>
            </div>
          )
        })}
      </fieldset>

      <p aria-live="polite" className="flex min-h-5 items-center gap-1.5 text-sm text-ink-muted">
        {update.isPending ? (
          SETTINGS_MESSAGES.saving
        ) : update.isSuccess ? (
          <>
            <Check aria-hidden className="size-4 text-success-600" />
            {SETTINGS_MESSAGES.saved}
          </>
        ) : null}
      </p>
    </div>
  )
}

/**
 * The Filter Settings card (SPEC 2 "/dashboard", SPEC 3 "Settings"): the master filtering switch,
 * the three category toggles (genuine and unwanted shown as fixed), the confidence threshold and the
 * strictness. Every change is saved at once, optimistically (api/update-settings.ts).
 */
export function FilterSettingsCard({ className }: { className?: string }) {
  const settings = useSettings()
  return (
    <Card role="region" aria-labelledby="filter-settings-title" className={className}>
      <CardHeader>
        <CardTitle id="filter-settings-title">{SETTINGS_MESSAGES.filterSettingsTitle}</CardTitle>
        <CardDescription>{SETTINGS_MESSAGES.filterSettingsDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        {settings.data ? (
          <SettingsForm settings={settings.data} />
        ) : settings.error ? (
          <div className="flex flex-col items-start gap-3">
            <p role="alert" className="flex items-start gap-2 rounded-lg border border-danger-200 bg-danger-50 p-3 text-sm text-danger-700">
              <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
              <span>{SETTINGS_MESSAGES.loadFailed(settings.error.message)}</span>
            </p>
            <Button variant="outline" size="sm" loading={settings.isFetching} onClick={() => void settings.refetch()}>
              {SETTINGS_MESSAGES.retry}
            </Button>
          </div>
        ) : (
          <SettingsSkeleton />
        )}
      </CardContent>
    </Card>
  )
}
