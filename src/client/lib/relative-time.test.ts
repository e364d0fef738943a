import { describe, expect, it } from 'vitest'
import { formatDateTime, formatRelativeTime, formatTimeOffset } from './relative-time.ts'

const NOW = Date.parse('2025-09-30T12:00:00.000Z')
const SECOND = 1_000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const ago = (ms: number) => new Date(NOW - ms).toISOString()

describe('formatRelativeTime (SPEC 4 "Relative time display")', () => {
  it.each([
    [null, 'Unknown'],
    [undefined, 'Unknown'],
    ['', 'Unknown'],
    ['   ', 'Unknown'],
    ['not a date', 'Invalid date'],
    ['2025-13-45T99:00:00Z', 'Invalid date'],
  ])('%j is "%s"', (value, text) => {
    expect(formatRelativeTime(value, NOW)).toBe(text)
  })

  it.each([
    ['now', 0, 'Active now'],
    ['4.999 s', 5 * SECOND - 1, 'Active now'],
    ['5 s', 5 * SECOND, '5 seconds ago'],
    ['59.999 s', MINUTE - 1, '59 seconds ago'],
    ['1 min', MINUTE, '1 minute ago'],
    ['1 min 59 s', 2 * MINUTE - SECOND, '1 minute ago'],
    ['2 min', 2 * MINUTE, '2 minutes ago'],
    ['59 min 59 s', HOUR - SECOND, '59 minutes ago'],
    ['1 h', HOUR, '1 hour ago'],
    ['23 h 59 min', DAY - MINUTE, '23 hours ago'],
    ['1 day', DAY, '1 day ago'],
    ['6 days 23 h', 7 * DAY - HOUR, '6 days ago'],
    ['7 days', 7 * DAY, '1 week ago'],
    ['29 days', 29 * DAY, '4 weeks ago'],
    ['30 days', 30 * DAY, '1 month ago'],
    ['59 days', 59 * DAY, '1 month ago'],
    ['364 days', 364 * DAY, '12 months ago'],
    ['365 days', 365 * DAY, '1 year ago'],
    ['730 days', 730 * DAY, '2 years ago'],
  ])('%s ago is "%s"', (_label, ms, text) => {
    expect(formatRelativeTime(ago(ms), NOW)).toBe(text)
  })

  it("a moment in the future (clock skew) is 'Active now'", () => {
    expect(formatRelativeTime(ago(-30 * SECOND), NOW)).toBe('Active now')
  })

  it('reads any date Date.parse reads, not only ISO with milliseconds', () => {
    expect(formatRelativeTime('2025-09-30T11:00:00Z', NOW)).toBe('1 hour ago')
  })
})

describe('formatTimeOffset', () => {
  it.each([
    [2 * DAY, 'in 2 days'],
    [2 * DAY - 1, 'in 1 day'],
    [3 * HOUR, 'in 3 hours'],
    [-3 * HOUR, '3 hours ago'],
    [-45 * SECOND, '45 seconds ago'],
    [400, 'in 1 second'],
    [0, 'in 1 second'],
  ])('%i ms is "%s"', (ms, text) => {
    expect(formatTimeOffset(ms)).toBe(text)
  })
})

describe('formatDateTime', () => {
  it('gives the full date and time, nothing for an empty value, and says when the date is bad', () => {
    expect(formatDateTime('2025-09-30T12:00:00Z')).toMatch(/30 Sept? 2025/)
    expect(formatDateTime(null)).toBe('')
    expect(formatDateTime('garbage')).toBe('Invalid date')
  })
})
