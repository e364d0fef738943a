// `npm run bench:start`: time from `npm start`'s process launch to the first 200 on `/`.
// First start: no client build and an empty data directory (as on a fresh clone).
// Warm start: the same build and data directory again. Each is run a few times; medians are printed.
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const port = 3191
const dataDir = '.tmp/bench-start-data'
const runs = Number(process.argv[2] ?? 3)

async function timeStart() {
  const started = performance.now()
  const child = spawn(process.execPath, ['--max-semi-space-size=2', 'scripts/start.mjs'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  })
  try {
    for (;;) {
      if (performance.now() - started > 60_000) throw new Error('the app did not answer within 60 s')
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`)
        if (response.status === 200) return performance.now() - started
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]
const first = []
const warm = []
for (let i = 0; i < runs; i++) {
  rmSync(`${root}/dist/client`, { recursive: true, force: true })
  rmSync(`${root}/${dataDir}`, { recursive: true, force: true })
  first.push(await timeStart())
  warm.push(await timeStart())
}
rmSync(`${root}/${dataDir}`, { recursive: true, force: true })
console.log(`first start (build + new database): median ${Math.round(median(first))} ms  [${first.map(Math.round).join(', ')}]`)
console.log(`warm start:                          median ${Math.round(median(warm))} ms  [${warm.map(Math.round).join(', ')}]`)
