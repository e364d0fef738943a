import { describe, expect, it } from 'vitest'
import { leastSquaresSlope, overlappingSyncs, percentile, tally, type SyncRun } from './stats.ts'

describe('percentile', () => {
  it('takes the nearest rank, whatever the order, and is undefined for no values', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i)
    expect(percentile(values, 50)).toBe(50)
    expect(percentile(values, 99)).toBe(99)
    expect(percentile(values, 100)).toBe(100)
    expect(percentile([7], 99)).toBe(7)
    expect(percentile([], 50)).toBeUndefined()
  })
})

describe('leastSquaresSlope', () => {
  it('finds a steady growth through noise, and no trend in a flat series', () => {
    const growing = Array.from({ length: 60 }, (_, i) => ({ x: i / 6, y: 200 + 3 * (i / 6) + (i % 2 ? 1 : -1) }))
    expect(leastSquaresSlope(growing)).toBeCloseTo(3, 0)
    const flat = Array.from({ length: 60 }, (_, i) => ({ x: i, y: 150 + (i % 3) }))
    expect(Math.abs(leastSquaresSlope(flat)!)).toBeLessThan(0.05)
  })

  it('needs three points spread over time', () => {
    expect(leastSquaresSlope([{ x: 0, y: 1 }, { x: 1, y: 2 }])).toBeUndefined()
    expect(leastSquaresSlope([{ x: 1, y: 1 }, { x: 1, y: 2 }, { x: 1, y: 3 }])).toBeUndefined()
  })
})

describe('overlappingSyncs', () => {
  const run = (mailboxId: number, worker: string, startedAt: number, finishedAt: number | null): SyncRun => ({ mailboxId, worker, startedAt, finishedAt })

  it('accepts runs one after the other, and runs of different mailboxes at the same time', () => {
    const runs = [run(1, 'a:1', 0, 10), run(1, 'b:2', 10, 20), run(2, 'a:1', 5, 15), run(1, 'a:1', 25, 30)]
    expect(overlappingSyncs(runs, new Map(), 100)).toEqual([])
  })

  it('reports two runs of one mailbox under way at once, in two processes or one', () => {
    const overlaps = overlappingSyncs([run(1, 'a:1', 0, 50), run(1, 'b:2', 40, 60), run(1, 'a:1', 45, 46)], new Map(), 100)
    expect(overlaps.map((o) => [o.first.worker, o.second.worker, o.second.startedAt])).toEqual([
      ['a:1', 'b:2', 40],
      ['a:1', 'a:1', 45],
      ['b:2', 'a:1', 45],
    ])
  })

  it('ends an unfinished run when its process was killed, and counts one of a live process as still running', () => {
    const cut = [run(1, 'dead:1', 0, null), run(1, 'b:2', 20, 30)]
    expect(overlappingSyncs(cut, new Map([['dead:1', 15]]), 100)).toEqual([])
    expect(overlappingSyncs(cut, new Map([['dead:1', 25]]), 100)).toHaveLength(1)
    expect(overlappingSyncs(cut, new Map(), 100)).toHaveLength(1)
  })
})

describe('tally', () => {
  it('counts values, most frequent first', () => {
    expect(tally(['ok', 'throttled', 'ok'])).toEqual([
      ['ok', 2],
      ['throttled', 1],
    ])
  })
})
