// `npm run fuzz [-- --per-route N --seed S]`: sends malformed requests generated from the shared
// contracts to every /_api route, signed out, as a user and as an admin (issue 19), on PGlite and, when
// TEST_DATABASE_URL is set, on PostgreSQL too. Prints per-route counts and every failure; exits 1 on any.
import { parseArgs } from 'node:util'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { describeFailure, runFuzz, type FuzzFailure, type RouteResult } from '#server/test/fuzz.ts'

const { values } = parseArgs({
  options: {
    'per-route': { type: 'string', default: '200' },
    seed: { type: 'string', default: '19' },
  },
})
const perRoute = Number(values['per-route'])
const seed = Number(values.seed)
if (!Number.isInteger(perRoute) || perRoute < 1 || !Number.isInteger(seed)) {
  console.error('usage: npm run fuzz -- [--per-route N (a whole number ≥ 1)] [--seed S (a whole number)]')
  process.exit(2)
}

const started = performance.now()
let failed = false
for (const kind of testDatabaseKinds()) {
  const kindStarted = performance.now()
  console.log(`\n▶ fuzzing every /_api route on ${kind}: ${perRoute} requests per route per role, seed ${seed}`)
  const byRoute = new Map<string, RouteResult[]>()
  const run = await runFuzz({
    kind,
    perRoute,
    seed,
    onRoute(result) {
      const list = byRoute.get(result.route) ?? []
      list.push(result)
      byRoute.set(result.route, list)
      if (list.length < 3) return
      const statuses: Record<number, number> = {}
      for (const r of list) for (const [status, n] of Object.entries(r.statuses)) statuses[Number(status)] = (statuses[Number(status)] ?? 0) + n
      const failures = list.reduce((sum, r) => sum + r.failures.length, 0)
      const counts = list.map((r) => `${r.role} ${r.requests}`).join(', ')
      const summary = Object.entries(statuses)
        .map(([status, n]) => `${status}×${n}`)
        .join(' ')
      console.log(`  ${failures > 0 ? '✖' : '✔'} ${result.route.padEnd(48)} ${counts}  [${summary}]${failures > 0 ? `  ${failures} failures` : ''}`)
    },
  })
  const requests = run.results.reduce((sum, r) => sum + r.requests, 0)
  const seconds = ((performance.now() - kindStarted) / 1000).toFixed(1)
  console.log(`\n${kind}: ${requests} requests to ${byRoute.size} routes in ${seconds} s; ${run.failures.length} failures, ${run.crashes.length} crashes`)
  console.log(`${kind}: held to "no 5xx, no hang, no crash" only (no JSON contract): ${run.withoutContract.join(', ') || 'none'}`)
  if (run.failures.length > 0) {
    // Grouped by route, role, status and reason: one example each, with how often it happened.
    const groups = new Map<string, FuzzFailure[]>()
    for (const failure of run.failures) {
      const key = `${failure.route}|${failure.role}|${failure.status}|${failure.reason}`
      groups.set(key, [...(groups.get(key) ?? []), failure])
    }
    console.log(`\n${kind}: failures (${groups.size} kinds):`)
    for (const group of groups.values()) console.log(`${describeFailure(group[0]!)}\n    (${group.length}× like this)`)
  }
  for (const crash of run.crashes) console.log(`crash: ${crash}`)
  if (run.failures.length > 0 || run.crashes.length > 0) failed = true
}
console.log(`\n${failed ? '✖ fuzzing found failures' : '✔ no failures'} (${((performance.now() - started) / 1000).toFixed(1)} s)`)
process.exit(failed ? 1 : 0)
