// `npm run bench:pipeline -- [--db pglite|postgres] [--workers 0|1|2] [--mailboxes M] [--messages N] [--rate R]`
//
// Delivery → action, end to end, on real app processes: this script runs the identity and Gmail fakes
// (with Pub/Sub push) on loopback, starts the app against them as if they were Google (ROLE=all, or a
// web process plus N ROLE=worker processes on PostgreSQL), signs in M users and connects their
// mailboxes through the same HTTP calls a browser makes, then:
//   1. burst: N messages delivered to the M mailboxes at once; messages/s from the first delivery to
//      the last decision (filed away where it should be, and recorded);
//   2. paced: N messages at R messages/s; p50/p99 latency from delivery to the decision.
// A decision's time is `decidedAt` from the activity API; for filed mail the move follows in the same
// sync (the fakes' journal shows it). Figures are printed, not asserted.
import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, mkdirSync, rmSync } from 'node:fs'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { buildRawMessage } from '#fakes/gmail/rfc822.ts'
import { startGmailFake } from '#fakes/gmail/server.ts'
import { startIdentityFakes } from '#fakes/identity/server.ts'

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    workers: { type: 'string', default: '0' },
    mailboxes: { type: 'string', default: '20' },
    messages: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '50' },
    'admin-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
})
const db = values.db === 'postgres' ? 'postgres' : 'pglite'
const workerCount = Number(values.workers)
const mailboxCount = Number(values.mailboxes)
const messageCount = Number(values.messages)
const rate = Number(values.rate)
if (db === 'pglite' && workerCount > 0) throw new Error('--workers needs --db postgres (the embedded database is single-process)')

const root = new URL('..', import.meta.url).pathname
const port = 3194
const app = `http://127.0.0.1:${port}`
const client = { clientId: 'bench-google', clientSecret: 'bench-google-secret' }
const msClient = { clientId: 'bench-microsoft', clientSecret: 'bench-microsoft-secret' }

const identity = await startIdentityFakes({ google: client, microsoft: msClient })
const gmail = await startGmailFake({ identity, pushEndpoint: `${app}/_api/webhooks/gmail` })

let databaseUrl: string | undefined
let adminClient: pg.Client | undefined
const dbName = `bench_${Date.now()}`
if (db === 'postgres') {
  adminClient = new pg.Client({ connectionString: values['admin-url'] })
  await adminClient.connect()
  await adminClient.query(`CREATE DATABASE ${dbName}`)
  const url = new URL(values['admin-url']!)
  url.pathname = `/${dbName}`
  databaseUrl = url.toString()
}
const dataDir = `${root}.tmp/bench-pipeline-data`
rmSync(dataDir, { recursive: true, force: true })
mkdirSync(`${root}.tmp`, { recursive: true })

const env = {
  ...process.env,
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  PORT: String(port),
  HOST: '127.0.0.1',
  APP_URL: app,
  DATA_DIR: dataDir,
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  TOKEN_ENCRYPTION_KEY: 'bench-token-encryption-key-of-32-characters',
  GOOGLE_CLIENT_ID: client.clientId,
  GOOGLE_CLIENT_SECRET: client.clientSecret,
  GOOGLE_AUTH_URL: identity.google.authorizeUrl,
  GOOGLE_TOKEN_URL: identity.google.tokenUrl,
  GOOGLE_JWKS_URL: identity.google.jwksUrl,
  GOOGLE_ISSUER: identity.google.issuer,
  GOOGLE_REVOKE_URL: identity.google.revokeUrl,
  MICROSOFT_CLIENT_ID: msClient.clientId,
  MICROSOFT_CLIENT_SECRET: msClient.clientSecret,
  MICROSOFT_AUTH_URL: identity.microsoft.authorizeUrl,
  MICROSOFT_TOKEN_URL: identity.microsoft.tokenUrl,
  MICROSOFT_JWKS_URL: identity.microsoft.jwksUrl,
  MICROSOFT_ISSUER_TEMPLATE: identity.microsoft.issuerTemplate,
  MICROSOFT_GRAPH_URL: identity.microsoft.graphUrl,
  GMAIL_API_URL: gmail.apiUrl,
  GMAIL_PUBSUB_TOPIC: gmail.pubsub.topicName,
  GMAIL_PUSH_SERVICE_ACCOUNT: gmail.pubsub.serviceAccountEmail,
  GMAIL_PUSH_JWKS_URL: gmail.pubsub.jwksUrl,
  GMAIL_PUSH_ISSUER: gmail.pubsub.issuer,
}

const children: ChildProcess[] = []
// BENCH_CPU_PROF=1 writes a CPU profile of each app process into .tmp/ (open it in Chrome's DevTools).
const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', `${root}.tmp/cpu-profiles`] : []
function start(role: 'all' | 'web' | 'worker', readyLine: string): Promise<void> {
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/server/main.ts'], { cwd: root, env: { ...env, ROLE: role, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  // The app's log, for when a figure looks wrong.
  const logFile = createWriteStream(`${root}.tmp/bench-pipeline-${role}-${children.length}.log`)
  child.stdout!.pipe(logFile)
  let output = ''
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes(readyLine)) resolve()
      if (output.length > 100_000) output = output.slice(-10_000)
    })
    child.on('exit', (code) => reject(new Error(`${role} process exited with ${code}`)))
  })
}

/** One browser's cookies. */
function browser() {
  const jar = new Map<string, string>()
  const header = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const [name, value] = pair!.split('=')
      if (value) jar.set(name!.trim(), value)
      else jar.delete(name!.trim())
    }
    return response
  }
  return {
    get: (url: string) => fetch(url, { headers: { cookie: header() }, redirect: 'manual' }).then(keep),
    post: (path: string, body: unknown) =>
      fetch(`${app}${path}`, { method: 'POST', headers: { cookie: header(), 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' }, body: JSON.stringify(body) }).then(keep),
  }
}

async function popupFlow(b: ReturnType<typeof browser>, path: string, email: string) {
  const authorize = await b.get(`${app}${path}`)
  const consentUrl = new URL(authorize.headers.get('location')!)
  const form = new URLSearchParams(consentUrl.searchParams)
  form.set('email', email)
  form.set('decision', 'allow')
  const consent = await fetch(`${consentUrl.origin}${consentUrl.pathname}`, { method: 'POST', body: form, redirect: 'manual' })
  return (await b.get(new URL(consent.headers.get('location')!, app).toString())).text()
}

const pitch = (to: string, n: number) =>
  buildRawMessage({
    from: `Sales ${n % 40} <seller${n % 40}@growth-partners.example>`,
    to,
    subject: `bench ${n}: quick question`,
    text: 'We help founders book 20+ qualified sales meetings a month with outbound lead generation. Open to a quick 15-minute call next week?',
  })
const friendly = (to: string, n: number) =>
  buildRawMessage({ from: `Friend ${n % 40} <friend${n % 40}@example.net>`, to, subject: `bench ${n}: dinner`, text: 'Are we still on for dinner on Saturday? Tom brings the kids.' })

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

try {
  if (workerCount === 0) await start('all', 'Inbox Guard is ready')
  else {
    await start('web', 'Inbox Guard is ready')
    await Promise.all(Array.from({ length: workerCount }, () => start('worker', 'Inbox Guard worker is ready')))
  }

  const users: Array<{ email: string; browser: ReturnType<typeof browser> }> = []
  for (let i = 0; i < mailboxCount; i++) {
    const email = `bench${i}@example.com`
    const b = browser()
    const signIn = await popupFlow(b, '/_api/auth/oauth_authorize?provider=google', email)
    const tempToken = /"token":"([^"]+)"/.exec(signIn)?.[1]
    if (!tempToken) throw new Error('sign-in failed')
    await b.post('/_api/auth/establish_session', { tempToken })
    const connected = await popupFlow(b, '/_api/gmail/authorize?mode=popup', email)
    if (!connected.includes('OAUTH_TOKEN_SUCCESS')) throw new Error('connect failed')
    users.push({ email, browser: b })
  }

  /** Decision times (ms) by subject, from every user's activity. */
  async function decisionTimes(): Promise<Map<string, number>> {
    const times = new Map<string, number>()
    await Promise.all(
      users.map(async (u) => {
        for (let page = 1; ; page++) {
          const response = await u.browser.get(`${app}/_api/activity?limit=100&page=${page}`)
          const body = (await response.json()) as { items: Array<{ subject: string; decidedAt: string }>; pagination: { totalPages: number } }
          for (const item of body.items) times.set(item.subject, Date.parse(item.decidedAt))
          if (page >= body.pagination.totalPages) break
        }
      }),
    )
    return times
  }

  async function run(label: string, count: number, perSecond: number | null, offset: number) {
    const sent = new Map<string, number>()
    const started = Date.now()
    for (let i = 0; i < count; i++) {
      const n = offset + i
      const user = users[i % users.length]!
      const raw = i % 3 === 0 ? pitch(user.email, n) : friendly(user.email, n)
      const subject = /^Subject: (.*)$/m.exec(raw)![1]!.trim()
      if (perSecond) {
        const due = started + (i * 1000) / perSecond
        if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()))
      }
      sent.set(subject, Date.now())
      gmail.deliver(user.email, raw)
    }
    const deadline = Date.now() + 300_000
    let times = new Map<string, number>()
    for (;;) {
      times = await decisionTimes()
      if ([...sent.keys()].every((s) => times.has(s))) break
      if (Date.now() > deadline) throw new Error(`${label}: only ${[...sent.keys()].filter((s) => times.has(s)).length} of ${count} decided in 5 minutes`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const latencies = [...sent].map(([s, t]) => times.get(s)! - t).sort((a, b) => a - b)
    const lastDecided = Math.max(...[...sent.keys()].map((s) => times.get(s)!))
    return { seconds: (lastDecided - started) / 1000, latencies }
  }

  // Warm-up: the model loads, prior-correspondence answers get cached, as in a running service.
  await run('warm-up', Math.min(100, messageCount), null, 0)
  const burst = await run('burst', messageCount, null, 100_000)
  const paced = await run('paced', messageCount, rate, 200_000)
  const processes = workerCount === 0 ? '1 process (ROLE=all)' : `web + ${workerCount} worker process${workerCount > 1 ? 'es' : ''}`
  console.log(`${db}, ${processes}, ${mailboxCount} mailboxes`)
  console.log(`  burst: ${messageCount} messages delivered at once → all decided in ${burst.seconds.toFixed(1)} s: ${(messageCount / burst.seconds).toFixed(0)} messages/s`)
  console.log(
    `  paced at ${rate}/s: delivery → decision p50 ${percentile(paced.latencies, 50)} ms, p99 ${percentile(paced.latencies, 99)} ms, max ${paced.latencies.at(-1)} ms`,
  )
  const filedMoves = gmail.journal.filter((e) => e.endpoint === 'messages.modify' && e.status < 300).length
  console.log(`  filed away (Gmail modify calls): ${filedMoves}; mail-destroying calls: ${gmail.violations.length}`)
} finally {
  for (const child of children) child.kill('SIGTERM')
  await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.on('exit', resolve)))))
  await gmail.close()
  await identity.close()
  if (adminClient) {
    await adminClient.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
    await adminClient.end()
  }
  rmSync(dataDir, { recursive: true, force: true })
mkdirSync(`${root}.tmp`, { recursive: true })
}
