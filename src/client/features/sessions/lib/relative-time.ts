import { formatDateTime, formatRelativeTime } from '#client/lib/relative-time.ts'

/**
 * Sessions arrive with their dates converted to Date objects (SPEC 7), while the one SPEC 4
 * "Relative time display" formatter (src/client/lib/relative-time.ts) reads text. This adapts a Date
 * without a second implementation: a missing one is 'Unknown', an invalid one 'Invalid date'
 * (Date#toISOString would throw on it).
 */
function toText(date: Date | null | undefined): string | null {
  if (!date) return null
  return Number.isNaN(date.getTime()) ? 'invalid' : date.toISOString()
}

/** "3 minutes ago", 'Active now' under 5 s, 'Unknown', 'Invalid date'. */
export const formatSessionTime = (date: Date | null | undefined, now: number) => formatRelativeTime(toText(date), now)

/** The full local date and time, for a title beside the relative time. */
export const formatSessionDateTime = (date: Date | null | undefined) => formatDateTime(toText(date))
