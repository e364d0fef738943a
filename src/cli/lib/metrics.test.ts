import { describe, expect, it } from 'vitest'
import { prf } from './metrics.ts'

describe('prf', () => {
  it('counts wanted mail called unwanted and outreach let through, as well as the ratios', () => {
    const pairs: [string, string][] = [
      ['unwanted', 'unwanted'],
      ['unwanted', 'unwanted'],
      ['unwanted', 'genuine'],
      ['genuine', 'unwanted'],
      ['promotional', 'promotional'],
    ]
    const u = prf(pairs, (t) => t === 'unwanted', (p) => p === 'unwanted')
    expect(u).toMatchObject({ support: 3, falsePositives: 1, falseNegatives: 1 })
    expect(u.precision).toBeCloseTo(2 / 3, 9)
    expect(u.recall).toBeCloseTo(2 / 3, 9)
  })
})
