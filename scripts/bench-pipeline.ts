// `npm run bench:pipeline [-- messages]`: delivery → decision, end to end, on the real app in demo mode.
// Starts the app as `npm start` does (fresh data directory), signs in and connects the demo Gmail
// mailbox through the same HTTP calls the browser makes, waits for the demo mail to be decided, then
// delivers N more messages (default 100, the demo messages again under new ids) through the demo
// delivery route, with the push a real provider sends, and times until every one is decided.
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { loadDemoMailbox } from '#fakes/mail-seed/seed.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const port = 3193
const app = `http://localhost:${port}`
const dataDir = '.tmp/bench-pipeline-data'
const count = Number(process.argv[2] ?? 100)
const me = 'bench.owner@example.com'

/** A cookie jar of one cookie per name, enough for the app's sid and the OAuth binding cookies. */
const jar = new Map<string, string>()
const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
function keep(response: Response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';')
    const [name, value] = pair!.split('=')
    if (value) jar.set(name!.trim(), value)
    else jar.delete(name!.trim())
  }
  return response
}
const get = (url: string) => fetch(url, { headers: { cookie: cookieHeader() }, redirect: 'manual' }).then(keep)
const post = (path: string, body: unknown) =>
  fetch(`${app}${path}`, { method: 'POST', headers: { cookie: cookieHeader(), 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' }, body: JSON.stringify(body) }).then(keep)

/** authorize → the demo consent page's form → the app's callback: what the popup does. */
async function popupFlow(authorizePath: string): Promise<string> {
  const authorize = await get(`${app}${authorizePath}`)
  const consentUrl = new URL(authorize.headers.get('location')!)
  const form = new URLSearchParams(consentUrl.searchParams)
  form.set('email', me)
  form.set('name', 'Bench Owner')
  form.set('decision', 'allow')
  const consent = await fetch(`${consentUrl.origin}${consentUrl.pathname}`, { method: 'POST', body: form, redirect: 'manual' })
  const callback = await get(new URL(consent.headers.get('location')!, app).toString())
  return callback.text()
}

async function decidedCount(): Promise<number> {
  const response = await get(`${app}/_api/activity?limit=1`)
  return ((await response.json()) as { pagination: { totalRecords: number } }).pagination.totalRecords
}

async function waitForDecided(target: number, timeoutMs: number, onFirst?: () => void) {
  const until = performance.now() + timeoutMs
  let first = false
  for (;;) {
    const n = await decidedCount()
    if (!first && n > target - count) {
      first = true
      onFirst?.()
    }
    if (n >= target) return
    if (performance.now() > until) throw new Error(`only ${n} of ${target} decided within ${timeoutMs / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

rmSync(`${root}/${dataDir}`, { recursive: true, force: true })
const child = spawn(process.execPath, ['scripts/start.mjs'], {
  cwd: root,
  stdio: 'ignore',
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', APP_URL: app, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
})
try {
  const ready = performance.now()
  for (;;) {
    if (performance.now() - ready > 120_000) throw new Error('the app did not start within 120 s')
    try {
      if ((await fetch(`${app}/_api/auth/session`)).ok) break
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }

  const signIn = await popupFlow('/_api/auth/oauth_authorize?provider=google')
  const tempToken = /"token":"([^"]+)"/.exec(signIn)?.[1]
  if (!tempToken) throw new Error('sign-in failed')
  await post('/_api/auth/establish_session', { tempToken })

  const connectStarted = performance.now()
  const connected = await popupFlow('/_api/gmail/authorize?mode=popup')
  if (!connected.includes('OAUTH_TOKEN_SUCCESS')) throw new Error('connect failed')
  const connectMs = performance.now() - connectStarted
  const seeded = loadDemoMailbox({ address: me, name: 'Bench Owner' }).filter((m) => m.folder === 'inbox')
  const seedStarted = performance.now()
  await waitForDecided(seeded.length, 60_000)
  const seedMs = performance.now() - seedStarted

  const raws = Array.from({ length: count }, (_, i) => seeded[i % seeded.length]!.raw.replace(/^Message-ID: <([^>]+)>/im, `Message-ID: <bench-${i}-$1>`))
  const started = performance.now()
  let firstMs = 0
  const delivering = (async () => {
    for (const raw of raws) {
      const response = await post('/_api/demo/deliver', { to: me, raw })
      if (!response.ok) throw new Error(`delivery failed: ${response.status} ${await response.text()}`)
    }
  })()
  await waitForDecided(seeded.length + count, 180_000, () => (firstMs = performance.now() - started))
  await delivering
  const totalMs = performance.now() - started

  console.log(`connect (demo Gmail, popup flow to success page): ${Math.round(connectMs)} ms`)
  console.log(`demo mailbox's ${seeded.length} messages decided after connect: ${(seedMs / 1000).toFixed(1)} s`)
  console.log(`${count} messages delivered one after another: first decided after ${Math.round(firstMs)} ms, all ${count} decided after ${(totalMs / 1000).toFixed(1)} s (${(count / (totalMs / 1000)).toFixed(1)} messages/s)`)
} finally {
  child.kill('SIGTERM')
}
