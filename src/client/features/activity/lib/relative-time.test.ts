import { describe, expect, it } from 'vitest'
import { formatRelativeTime } from './relative-time.ts'

const NOW = Date.parse('2025-09-30T12:00:00Z')
const ago = (ms: number) => new Date(NOW - ms).toISOString()

describe('formatRelativeTime', () => {
  it.each([
    [0, 'just now'],
    [59_000, 'just now'],
    [-30_000, 'just now'],
    [5 * 60_000, '5 min ago'],
    [59 * 60_000, '59 min ago'],
    [2 * 3_600_000, '2 h ago'],
    [24 * 3_600_000, '1 day ago'],
    [3 * 24 * 3_600_000, '3 days ago'],
  ])('%i ms ago is "%s"', (ms, text) => {
    expect(formatRelativeTime(ago(ms), NOW)).toBe(text)
  })

  it('gives the date after 30 days, and says when the date is bad', () => {
    expect(formatRelativeTime('2025-07-14T09:00:00Z', NOW)).toBe('14 Jul 2025')
    expect(formatRelativeTime('not a date', NOW)).toBe('Invalid date')
  })
})
