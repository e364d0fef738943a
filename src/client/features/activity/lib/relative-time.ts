import { ACTIVITY_MESSAGES } from '../messages.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' })

/** "just now", "5 min ago", "3 h ago", "2 days ago"; a date after 30 days. A future time (clock skew) is "just now". */
export function formatRelativeTime(iso: string, now: number): string {
  const time = Date.parse(iso)
  if (Number.isNaN(time)) return ACTIVITY_MESSAGES.invalidDate
  const elapsed = now - time
  if (elapsed < MINUTE) return ACTIVITY_MESSAGES.justNow
  if (elapsed < HOUR) return ACTIVITY_MESSAGES.minutesAgo(Math.floor(elapsed / MINUTE))
  if (elapsed < DAY) return ACTIVITY_MESSAGES.hoursAgo(Math.floor(elapsed / HOUR))
  if (elapsed < 30 * DAY) return ACTIVITY_MESSAGES.daysAgo(Math.floor(elapsed / DAY))
  return dateFormat.format(time)
}

/** The full local date and time, for a title. */
export function formatDateTime(iso: string): string {
  const time = Date.parse(iso)
  return Number.isNaN(time) ? ACTIVITY_MESSAGES.invalidDate : dateTimeFormat.format(time)
}
