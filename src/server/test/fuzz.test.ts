import { describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { describeFailure, generateRequest, hashSeed, Rng, runFuzz, type FuzzTarget } from '#server/test/fuzz.ts'

/**
 * The deterministic slice of `npm run fuzz` (issue 19): a fixed seed and 5 malformed requests per
 * route per role. Any 5xx, hang, crash or answer outside the route's contract fails the test with the
 * request that caused it; `npm run fuzz -- --seed 19 --per-route 5` replays the same requests.
 */
const SEED = 19
const PER_ROUTE = 5

describe('the fuzz request generator', () => {
  const target: FuzzTarget = { key: 'POST /_api/x', method: 'POST', path: '/_api/x', responses: {} }

  it('generates the same requests from the same seed', () => {
    const a = new Rng(hashSeed(SEED, 'x'))
    const b = new Rng(hashSeed(SEED, 'x'))
    for (let i = 0; i < 50; i++) expect(generateRequest(target, a)).toEqual(generateRequest(target, b))
  })
})

describe.each(testDatabaseKinds())('every /_api route survives malformed input (issue 19) on %s', (kind) => {
  it(`answers ${PER_ROUTE} fuzzed requests per route per role within the contract, without a 5xx, hang or crash`, async () => {
    const run = await runFuzz({ kind, perRoute: PER_ROUTE, seed: SEED })
    expect(run.results.length).toBeGreaterThan(40 * 3)
    expect(run.crashes).toEqual([])
    expect(run.failures.map(describeFailure)).toEqual([])
  }, 120_000)
})
