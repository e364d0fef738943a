import { describe, expect, it } from 'vitest'
import { AuditLogQuerySchema } from '#shared/api/admin.ts'
import { DEFAULT_AUDIT_FILTERS, dateToIso, parsePage, parsePageSize, parseUserId, toAuditLogQuery } from './audit-log-query.ts'

describe('audit log query (SPEC 5 "Audit log query")', () => {
  it.each([
    ['', null],
    ['  ', null],
    ['42', 42],
    [' 7 ', 7],
    ['12.9', 12],
    ['0', null],
    ['-3', null],
    ['abc', null],
  ])('parses the User ID %j to %j', (text, expected) => {
    expect(parseUserId(text)).toBe(expected)
  })

  it('reads page sizes 25, 50 and 100, anything else as 50; pages from 1', () => {
    expect([parsePageSize('25'), parsePageSize('100'), parsePageSize('10'), parsePageSize(null)]).toEqual([25, 100, 50, 50])
    expect([parsePage('3'), parsePage('0'), parsePage('1.5'), parsePage(null)]).toEqual([3, 1, 1, 1])
  })

  it('turns dates into ISO timestamps at the start and end of the local day; a bad date is no filter', () => {
    expect(dateToIso('2025-09-01', 'start')).toBe(new Date(2025, 8, 1, 0, 0, 0, 0).toISOString())
    expect(dateToIso('2025-09-30', 'end')).toBe(new Date(2025, 8, 30, 23, 59, 59, 999).toISOString())
    expect(dateToIso('2025-13-45', 'start')).toBeUndefined()
    expect(dateToIso(null, 'end')).toBeUndefined()
  })

  it('leaves unset filters out, and builds a query the server accepts', () => {
    expect(toAuditLogQuery(DEFAULT_AUDIT_FILTERS)).toEqual({ page: 1, limit: 50 })
    const query = toAuditLogQuery({
      ...DEFAULT_AUDIT_FILTERS,
      page: 3,
      limit: 25,
      userId: 9,
      eventType: 'LOGIN_FAILURE',
      eventCategory: 'AUTHENTICATION',
      severity: 'WARNING',
      status: 'failure',
      startDate: '2025-09-01',
      endDate: '2025-09-30',
    })
    expect(query).toMatchObject({ page: 3, limit: 25, userId: 9, eventType: 'LOGIN_FAILURE', eventCategory: 'AUTHENTICATION', severity: 'WARNING', success: 'false' })
    expect(AuditLogQuerySchema.safeParse(Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)]))).success).toBe(true)
    expect(toAuditLogQuery({ ...DEFAULT_AUDIT_FILTERS, status: 'success' }).success).toBe('true')
  })
})
