import { describe, expect, it } from 'vitest'
import { createQueryClient, shouldRetryQuery } from './query-client.ts'

describe('default query retry (SPEC 7 "Retry behaviour")', () => {
  it('retries up to 3 times', () => {
    const error = new Error('Service unavailable')
    expect([0, 1, 2, 3].map((count) => shouldRetryQuery(count, error))).toEqual([true, true, true, false])
  })

  it("never retries when the message contains '4'", () => {
    expect(shouldRetryQuery(0, new Error('HTTP error! status: 404'))).toBe(false)
    expect(shouldRetryQuery(0, new Error('HTTP error! status: 403'))).toBe(false)
  })

  it("never retries 'Authentication required'", () => {
    expect(shouldRetryQuery(0, new Error('Authentication required'))).toBe(false)
  })
})

describe('query client defaults (SPEC 9 "Timing")', () => {
  it('keeps data fresh 5 minutes and cached 10, without refetch on focus; mutations retry once', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions()
    expect(queries).toMatchObject({ staleTime: 300_000, gcTime: 600_000, refetchOnWindowFocus: false })
    expect(mutations).toMatchObject({ retry: 1 })
  })
})
