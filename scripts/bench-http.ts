// `npm run bench:http`: requests/s of GET /_api/auth/session (signed out and signed in, the latter
// resolving the session through the session cache and the database) next to a bare route in the same
// process. The server runs in a child process so the load generator does not share its event loop.
// PGlite by default; `BENCH_DATABASE_URL=postgres://… npm run bench:http` runs it on PostgreSQL.
import { fork } from 'node:child_process'
import autocannon from 'autocannon'

// Seconds per run and rounds: the three routes take turns each round, so load from other work on the
// machine that comes and goes hits them alike; the table shows each route's median round.
const seconds = Number(process.argv[2] ?? 4)
const rounds = Number(process.argv[3] ?? 3)
const child = fork('scripts/bench/http-server.ts', { execArgv: ['--import', 'tsx'], stdio: 'inherit' })
const { port, cookie, database } = await new Promise<{ port: number; cookie: string; database: string }>((resolve, reject) => {
  child.once('message', (message) => resolve(message as { port: number; cookie: string; database: string }))
  child.once('exit', (code) => reject(new Error(`benchmark server exited with ${code}`)))
})

const run = (path: string, headers: Record<string, string> = {}) =>
  autocannon({ url: `http://127.0.0.1:${port}${path}`, connections: 32, duration: seconds, headers })

// A fast "signed in" row is only worth something if the cookie really signs in.
const check = (await (await fetch(`http://127.0.0.1:${port}/_api/auth/session`, { headers: { cookie } })).json()) as { user: unknown }
if (!check.user) throw new Error('the benchmark session does not sign in')

const routes: Array<[string, string, Record<string, string>]> = [
  ['GET /_bench/bare (no work)', '/_bench/bare', {}],
  ['GET /_api/auth/session (signed out)', '/_api/auth/session', {}],
  ['GET /_api/auth/session (signed in)', '/_api/auth/session', { cookie }],
]
await run('/_bench/bare') // warm-up
await run('/_api/auth/session', { cookie })
const results: autocannon.Result[][] = routes.map(() => [])
for (let round = 0; round < rounds; round++) {
  for (const [i, [, path, headers]] of routes.entries()) results[i]!.push(await run(path, headers))
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const bare = results[0]!.map((r) => r.requests.average)
console.log(`\ndatabase: ${database}, ${rounds} rounds of ${seconds} s per route`)
console.log(`${'route'.padEnd(40)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} non-2xx  × bare (median of rounds)`)
for (const [i, [name]] of routes.entries()) {
  const runs = results[i]!
  const typical = runs.find((r) => r.requests.average === median(runs.map((x) => x.requests.average)))!
  const ratio = median(runs.map((r, round) => r.requests.average / bare[round]!))
  const non2xx = runs.reduce((sum, r) => sum + r.non2xx, 0)
  console.log(
    `${name.padEnd(40)} ${Math.round(typical.requests.average).toString().padStart(9)} ${String(typical.latency.p50).padStart(7)} ${String(typical.latency.p99).padStart(7)} ${String(non2xx).padStart(7)}  ${ratio.toFixed(2)}`,
  )
}
child.kill('SIGTERM')
