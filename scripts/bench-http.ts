// `npm run bench:http`: requests/s of GET /_api/auth/session (signed out and signed in, the latter
// reading the session from the database) next to a bare route in the same process. The server runs in
// a child process so the load generator does not share its event loop.
import { fork } from 'node:child_process'
import autocannon from 'autocannon'

const seconds = Number(process.argv[2] ?? 8)
const child = fork('scripts/bench/http-server.ts', { execArgv: ['--import', 'tsx'], stdio: 'inherit' })
const { port, cookie } = await new Promise<{ port: number; cookie: string }>((resolve, reject) => {
  child.once('message', (message) => resolve(message as { port: number; cookie: string }))
  child.once('exit', (code) => reject(new Error(`benchmark server exited with ${code}`)))
})

const run = (path: string, headers: Record<string, string> = {}) =>
  autocannon({ url: `http://127.0.0.1:${port}${path}`, connections: 32, duration: seconds, headers })

const rows: Array<[string, autocannon.Result]> = []
await run('/_bench/bare') // warm-up
rows.push(['GET /_bench/bare (no work)', await run('/_bench/bare')])
rows.push(['GET /_api/auth/session (signed out)', await run('/_api/auth/session')])
rows.push(['GET /_api/auth/session (signed in)', await run('/_api/auth/session', { cookie })])

console.log(`\n${'route'.padEnd(40)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} non-2xx`)
for (const [name, result] of rows) {
  console.log(
    `${name.padEnd(40)} ${Math.round(result.requests.average).toString().padStart(9)} ${String(result.latency.p50).padStart(7)} ${String(result.latency.p99).padStart(7)} ${result.non2xx}`,
  )
}
child.kill('SIGTERM')
