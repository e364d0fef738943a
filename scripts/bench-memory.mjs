// `npm run bench:memory [-- seconds]`: resident memory of `npm start` (demo mode, embedded database)
// while it sits idle: once on a new data directory (first start: new database, demo mail filed) and
// once again on the same directory (a restart). RSS is read from /proc every second; the figure is the
// RSS at the end of the idle period, next to the peak. Builds the client first if it is stale, in the
// first start's process, as `npm start` does.
import { spawn } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const port = 3192
const dataDir = '.tmp/bench-memory-data'
const seconds = Number(process.argv[2] ?? 60)

const rssMb = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024)
}

async function idleRss(label) {
  const child = spawn(process.execPath, ['--max-semi-space-size=2', 'scripts/start.mjs'], {
    cwd: root,
    stdio: process.env.BENCH_VERBOSE ? 'inherit' : 'ignore',
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', APP_URL: `http://localhost:${port}`, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  })
  try {
    const started = performance.now()
    for (;;) {
      if (performance.now() - started > 120_000) throw new Error('the app did not answer within 120 s')
      const ok = await fetch(`http://127.0.0.1:${port}/`).then((r) => r.status === 200, () => false)
      if (ok) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const samples = []
    for (let s = 0; s < seconds; s++) {
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      samples.push(rssMb(child.pid))
    }
    const every = samples.filter((_, i) => (i + 1) % 10 === 0)
    console.log(`${label.padEnd(12)} RSS after ${seconds} s idle: ${samples.at(-1)} MB (peak ${Math.max(...samples)} MB; every 10 s: ${every.join(', ')})`)
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
}

rmSync(`${root}/${dataDir}`, { recursive: true, force: true })
await idleRss('first start')
await idleRss('restart')
rmSync(`${root}/${dataDir}`, { recursive: true, force: true })
