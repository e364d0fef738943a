import { describe, expect, it } from 'vitest'
import { SESSION_MESSAGES } from '../messages.ts'
import { formatSessionDateTime, formatSessionTime } from './relative-time.ts'

const NOW = Date.parse('2025-09-30T12:00:00.000Z')
const ago = (ms: number) => new Date(NOW - ms)

describe('session times (SPEC 4 "Relative time display") for the dates the sessions call gives', () => {
  it.each([
    ['no date', null, 'Unknown'],
    ['an invalid Date', new Date('not a date'), 'Invalid date'],
    ['4 s ago', ago(4_000), 'Active now'],
    ['5 s ago', ago(5_000), '5 seconds ago'],
    ['3 min ago', ago(3 * 60_000), '3 minutes ago'],
    ['1 h ago', ago(3600_000), '1 hour ago'],
    ['2 weeks ago', ago(14 * 24 * 3600_000), '2 weeks ago'],
    ['45 days ago', ago(45 * 24 * 3600_000), '1 month ago'],
    ['400 days ago', ago(400 * 24 * 3600_000), '1 year ago'],
  ])('%s is "%s"', (_label, date, text) => {
    expect(formatSessionTime(date, NOW)).toBe(text)
  })

  it('gives the full date for a title, nothing without a date, and says when the date is bad', () => {
    expect(formatSessionDateTime(new Date('2025-09-30T12:00:00Z'))).toMatch(/30 Sept? 2025/)
    expect(formatSessionDateTime(undefined)).toBe('')
    expect(formatSessionDateTime(new Date(Number.NaN))).toBe('Invalid date')
  })

  it('reads as a sentence beside "Signed in" and "Last active", including under 5 s', () => {
    expect(SESSION_MESSAGES.signedIn(formatSessionTime(ago(3 * 60_000), NOW))).toBe('Signed in 3 minutes ago')
    expect(SESSION_MESSAGES.signedIn(formatSessionTime(ago(1_000), NOW))).toBe('Signed in just now')
    expect(SESSION_MESSAGES.lastActive(formatSessionTime(ago(3600_000), NOW))).toBe('Last active 1 hour ago')
    expect(SESSION_MESSAGES.lastActive(formatSessionTime(ago(1_000), NOW))).toBe('Active now')
  })
})
