/**
 * SPEC 4 "Relative time display", shared by every feature that says how long ago something was:
 * 'Unknown' for an empty value, 'Invalid date' for a bad one, 'Active now' under 5 s; otherwise the
 * largest whole unit of year, month (30 days), week, day, hour, minute, second.
 */

/** SPEC 4 "Relative time display" texts, word for word. */
export const RELATIVE_TIME_TEXT = {
  unknown: 'Unknown',
  invalidDate: 'Invalid date',
  activeNow: 'Active now',
} as const

const SECOND = 1_000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** Largest first. A month is 30 days (SPEC 4), so a year is counted as 365. */
export const RELATIVE_TIME_UNITS = [
  ['year', 365 * DAY],
  ['month', 30 * DAY],
  ['week', 7 * DAY],
  ['day', DAY],
  ['hour', HOUR],
  ['minute', MINUTE],
  ['second', SECOND],
] as const satisfies readonly (readonly [Intl.RelativeTimeFormatUnit, number])[]

/** Below this a past moment is 'Active now'. */
export const ACTIVE_NOW_MS = 5 * SECOND

const relativeFormat = new Intl.RelativeTimeFormat('en', { numeric: 'always' })
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' })

/**
 * An offset from now in its largest whole unit, rounded towards zero and at least one second:
 * -180_000 is "3 minutes ago", 2 days ahead is "in 2 days".
 */
export function formatTimeOffset(offsetMs: number): string {
  const size = Math.abs(offsetMs)
  const [unit, unitMs] = RELATIVE_TIME_UNITS.find(([, ms]) => size >= ms) ?? (['second', SECOND] as const)
  const count = Math.max(1, Math.floor(size / unitMs))
  return relativeFormat.format(offsetMs < 0 ? -count : count, unit)
}

/** The time a value names, or why it names none. */
export function parseTime(value: string | null | undefined): number | 'empty' | 'invalid' {
  if (value === null || value === undefined || value.trim() === '') return 'empty'
  const time = Date.parse(value)
  return Number.isNaN(time) ? 'invalid' : time
}

/**
 * How long ago `value` was (SPEC 4 "Relative time display"): "3 minutes ago". A moment in the
 * future (clock skew between server and browser) counts as 'Active now', like the last 5 s.
 */
export function formatRelativeTime(value: string | null | undefined, now: number): string {
  const time = parseTime(value)
  if (time === 'empty') return RELATIVE_TIME_TEXT.unknown
  if (time === 'invalid') return RELATIVE_TIME_TEXT.invalidDate
  const elapsed = now - time
  if (elapsed < ACTIVE_NOW_MS) return RELATIVE_TIME_TEXT.activeNow
  return formatTimeOffset(-elapsed)
}

/** The full local date and time, for a title beside a relative time; '' when there is none. */
export function formatDateTime(value: string | null | undefined): string {
  const time = parseTime(value)
  if (time === 'empty') return ''
  return time === 'invalid' ? RELATIVE_TIME_TEXT.invalidDate : dateTimeFormat.format(time)
}
