import { useId, useState, type KeyboardEvent } from 'react'
import type { MailCategoryName } from '#shared/api/activity.ts'
import { cn } from '#client/lib/cn.ts'
import { CATEGORY_COLOR, CATEGORY_ORDER } from '../lib/categories.ts'
import { niceScale } from '../lib/chart-scale.ts'
import { ACTIVITY_MESSAGES, CATEGORY_LABEL } from '../messages.ts'

export interface ChartDay {
  /** A UTC day, YYYY-MM-DD. */
  date: string
  counts: Partial<Record<MailCategoryName, number>>
  filed: number
}

// The drawing's own units; the SVG scales to the card's width.
const WIDTH = 720
const HEIGHT = 240
const MARGIN = { top: 12, right: 8, bottom: 28, left: 40 }
const PLOT_WIDTH = WIDTH - MARGIN.left - MARGIN.right
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom
const BAR_SHARE = 0.68

const shortDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' })
const longDate = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
const numberFormat = new Intl.NumberFormat('en')
const utc = (date: string) => new Date(`${date}T00:00:00Z`)

const countOf = (day: ChartDay, category: MailCategoryName) => day.counts[category] ?? 0
const totalOf = (day: ChartDay) => CATEGORY_ORDER.reduce((sum, category) => sum + countOf(day, category), 0)

function dayDescription(day: ChartDay): string {
  const parts = CATEGORY_ORDER.filter((category) => countOf(day, category) > 0).map(
    (category) => `${CATEGORY_LABEL[category]} ${numberFormat.format(countOf(day, category))}`,
  )
  return [longDate.format(utc(day.date)), ACTIVITY_MESSAGES.chartDayTotal(totalOf(day)), ...parts, ACTIVITY_MESSAGES.chartDayFiled(day.filed)].join(', ')
}

/**
 * Messages per day, stacked by category (issue 13): an SVG drawn by hand, as no charting library
 * is installed; loaded lazily with React.lazy so neither the home page nor the dashboard's first
 * paint carries it. Hover, or focus the chart and use the arrow keys, to read a day's totals; the
 * legend gives each category's 30-day total, and a table (for screen readers) holds every number.
 */
export default function StackedBarChart({ days }: { days: ChartDay[] }) {
  const [active, setActive] = useState<number | null>(null)
  const [keyboard, setKeyboard] = useState(false)
  const hintId = useId()
  const totals = days.map(totalOf)
  const grandTotal = totals.reduce((sum, total) => sum + total, 0)
  const filedTotal = days.reduce((sum, day) => sum + day.filed, 0)
  const { top, ticks } = niceScale(Math.max(0, ...totals))
  const slot = days.length > 0 ? PLOT_WIDTH / days.length : PLOT_WIDTH
  const barWidth = slot * BAR_SHARE
  const y = (value: number) => MARGIN.top + PLOT_HEIGHT - (value / top) * PLOT_HEIGHT
  const summary = ACTIVITY_MESSAGES.chartSummary(days.length, grandTotal, filedTotal)
  const activeDay = active === null ? undefined : days[active]
  const labelEvery = Math.max(1, Math.ceil(days.length / 6))

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (days.length === 0) return
    const last = days.length - 1
    const current = active ?? last
    const next =
      event.key === 'ArrowLeft' ? Math.max(0, current - 1) : event.key === 'ArrowRight' ? Math.min(last, current + 1) : event.key === 'Home' ? 0 : event.key === 'End' ? last : null
    if (next === null) return
    event.preventDefault()
    setKeyboard(true)
    setActive(next)
  }

  return (
    <figure className="flex flex-col gap-3">
      <div
        role="group"
        aria-label={summary}
        aria-describedby={hintId}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onFocus={() => {
          setKeyboard(true)
          setActive((current) => current ?? (days.length > 0 ? days.length - 1 : null))
        }}
        onBlur={() => {
          setKeyboard(false)
          setActive(null)
        }}
        onMouseLeave={() => {
          if (!keyboard) setActive(null)
        }}
        className="relative rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-brand-500"
      >
        <span id={hintId} className="sr-only">
          {ACTIVITY_MESSAGES.chartKeyboardHint}
        </span>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="block h-auto w-full" aria-hidden focusable="false" data-testid="stacked-bar-chart">
          {ticks.map((tick) => (
            <g key={tick}>
              <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(tick)} y2={y(tick)} stroke="var(--color-line)" strokeDasharray={tick === 0 ? undefined : '3 3'} />
              <text x={MARGIN.left - 8} y={y(tick)} dy="0.32em" textAnchor="end" fontSize="11" fill="var(--color-ink-muted)">
                {numberFormat.format(tick)}
              </text>
            </g>
          ))}
          {days.map((day, index) => {
            const x = MARGIN.left + index * slot + (slot - barWidth) / 2
            let base = 0
            return (
              <g key={day.date} data-date={day.date} opacity={active === null || active === index ? 1 : 0.45}>
                {CATEGORY_ORDER.map((category) => {
                  const count = countOf(day, category)
                  if (count === 0) return null
                  const y1 = y(base + count)
                  const height = y(base) - y1
                  base += count
                  return (
                    <rect
                      key={category}
                      data-category={category}
                      data-count={count}
                      x={x}
                      y={y1}
                      width={barWidth}
                      height={height}
                      fill={CATEGORY_COLOR[category]}
                      stroke="white"
                      strokeWidth={height > 2 ? 0.75 : 0}
                    />
                  )
                })}
                {(days.length - 1 - index) % labelEvery === 0 && (
                  <text x={x + barWidth / 2} y={HEIGHT - 8} textAnchor="middle" fontSize="11" fill="var(--color-ink-muted)">
                    {shortDate.format(utc(day.date))}
                  </text>
                )}
                {/* The whole column answers the pointer, not only the coloured part. */}
                <rect
                  x={MARGIN.left + index * slot}
                  y={MARGIN.top}
                  width={slot}
                  height={PLOT_HEIGHT}
                  fill="transparent"
                  onMouseEnter={() => {
                    setKeyboard(false)
                    setActive(index)
                  }}
                />
              </g>
            )
          })}
        </svg>
        {grandTotal === 0 && (
          <p className="pointer-events-none absolute inset-0 flex items-center justify-center text-sm text-ink-muted">{ACTIVITY_MESSAGES.chartEmpty}</p>
        )}
        {activeDay && active !== null && (
          <div
            data-testid="chart-tooltip"
            className={cn(
              'pointer-events-none absolute top-0 z-10 min-w-44 rounded-lg border border-line bg-surface p-3 text-xs shadow-lg',
              active < days.length / 3 ? 'translate-x-0' : active > (days.length * 2) / 3 ? '-translate-x-full' : '-translate-x-1/2',
            )}
            style={{ left: `${((MARGIN.left + (active + 0.5) * slot) / WIDTH) * 100}%` }}
          >
            <p className="font-semibold text-ink">{longDate.format(utc(activeDay.date))}</p>
            <p className="mb-1 text-ink-muted">
              {ACTIVITY_MESSAGES.chartDayTotal(totalOf(activeDay))} · {ACTIVITY_MESSAGES.chartDayFiled(activeDay.filed)}
            </p>
            <ul className="flex flex-col gap-0.5">
              {CATEGORY_ORDER.map((category) => (
                <li key={category} className="flex items-center justify-between gap-3">
                  <span className="flex items-center gap-1.5 text-ink">
                    <span aria-hidden className="size-2 rounded-full" style={{ backgroundColor: CATEGORY_COLOR[category] }} />
                    {CATEGORY_LABEL[category]}
                  </span>
                  <span className="tabular-nums text-ink">{numberFormat.format(countOf(activeDay, category))}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {/* What a keyboard user is reading, for screen readers. */}
        <p aria-live="polite" className="sr-only">
          {keyboard && activeDay ? dayDescription(activeDay) : ''}
        </p>
      </div>

      <figcaption>
        <ul aria-label={ACTIVITY_MESSAGES.legendLabel} className="flex flex-wrap gap-x-4 gap-y-1.5 text-sm">
          {CATEGORY_ORDER.map((category) => (
            <li key={category} data-legend={category} className="flex items-center gap-1.5 text-ink">
              <span aria-hidden className="size-3 rounded-sm" style={{ backgroundColor: CATEGORY_COLOR[category] }} />
              {CATEGORY_LABEL[category]}
              <span className="tabular-nums text-ink-muted">{numberFormat.format(days.reduce((sum, day) => sum + countOf(day, category), 0))}</span>
            </li>
          ))}
        </ul>
      </figcaption>

      <table className="sr-only">
        <caption>{ACTIVITY_MESSAGES.chartTableCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{ACTIVITY_MESSAGES.chartDayColumn}</th>
            {CATEGORY_ORDER.map((category) => (
              <th key={category} scope="col">
                {CATEGORY_LABEL[category]}
              </th>
            ))}
            <th scope="col">{ACTIVITY_MESSAGES.chartTotalColumn}</th>
            <th scope="col">{ACTIVITY_MESSAGES.chartFiledColumn}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day, index) => (
            <tr key={day.date}>
              <th scope="row">{longDate.format(utc(day.date))}</th>
              {CATEGORY_ORDER.map((category) => (
                <td key={category}>{countOf(day, category)}</td>
              ))}
              <td>{totals[index]}</td>
              <td>{day.filed}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
