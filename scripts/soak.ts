// `npm run soak -- --minutes N [--multi] [options]` (docs/decisions/022-soak-and-several-processes.md)
//
// Runs the app for N minutes the way production runs it, against the local fakes, with faults on, and
// checks that no mail was lost, decided twice or deleted:
//   - single (default): one ROLE=all process on PGlite, SIGKILLed and restarted on a schedule;
//   - --multi: 2 ROLE=web + 2 ROLE=worker processes on one PostgreSQL (a fresh database, or
//     --database-url), a worker SIGKILLed and restarted on a schedule.
// The fakes (Google/Microsoft identity, Gmail + Pub/Sub, Graph + notifications, Stripe) and a load
// balancer in front of the web processes run in this process; the app processes reach them through the
// same configuration real providers use (client ids, base URLs), so nothing in the app knows.
// Users sign in and connect their mailboxes through the real popups (HTTP, consent form), pay through
// Checkout (except --free-users), then mail arrives at --rate while the fault schedule, the dashboard
// traffic and the kills run. At the end deliveries stop, faults are cleared, the queue drains (at most
// --drain-minutes), the processes stop and the figures are read from the database and the fakes.
// Exits 1 when mail was lost, duplicated or deleted, an app process answered 5xx, usage disagrees with
// decisions, or one mailbox was synced in two places at once.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { startGmailFake } from '#fakes/gmail/server.ts'
import { startGraphMailFake } from '#fakes/graph-mail/server.ts'
import { startIdentityFakes } from '#fakes/identity/server.ts'
import { STANDARD_MONTHLY_PRICE_ID, startStripeFake, STRIPE_FAKE_WEBHOOK_SECRET } from '#fakes/stripe/server.ts'
import { openDatabase } from '#server/db/client.ts'
import { FREE_PLAN_LIMIT } from '#server/features/billing/billing.service.ts'
import { freePort } from '#server/test/free-port.ts'
import { analyse, type Delivery, type SoakFigures } from '../src/soak/analysis.ts'
import { appProcess, workerNameOf, type AppProcess } from '../src/soak/app-process.ts'
import { browser, connectMailbox, decisionCounts, signIn, startCheckout, subscriptionOf, type Browser, type CallRecord } from '../src/soak/browser.ts'
import { faultSchedule } from '../src/soak/faults.ts'
import { mailMaker, seededRandom } from '../src/soak/mail.ts'
import { startSoakProxy } from '../src/soak/proxy.ts'
import { tally } from '../src/soak/stats.ts'

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    multi: { type: 'boolean', default: false },
    users: { type: 'string', default: '30' },
    'free-users': { type: 'string', default: '2' },
    rate: { type: 'string', default: '2' },
    'kill-every': { type: 'string', default: '150' },
    'pause-seconds': { type: 'string', default: '45' },
    'fault-every': { type: 'string', default: '6' },
    'drain-minutes': { type: 'string', default: '10' },
    'token-ttl': { type: 'string', default: '300' },
    'database-url': { type: 'string' },
    'admin-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    seed: { type: 'string' },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
})
if (values.help) {
  console.log(`npm run soak -- --minutes N [--multi] [--users 30] [--free-users 2] [--rate 2] [--kill-every 150] [--pause-seconds 45] [--fault-every 6]
  [--drain-minutes 10] [--token-ttl 300] [--database-url URL | --admin-url URL] [--seed N] [--keep]`)
  process.exit(0)
}
const positive = (name: string, value: string | undefined) => {
  const n = Number(value)
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`)
  return n
}
const minutes = positive('minutes', values.minutes)
const multi = values.multi!
const userCount = Math.max(4, Math.round(positive('users', values.users)))
const freeCount = Math.min(userCount - 2, Math.max(0, Math.round(Number(values['free-users']))))
const rate = positive('rate', values.rate)
const killEverySeconds = positive('kill-every', values['kill-every'])
/** Between two kills, the next process in turn is frozen this long (SIGSTOP/SIGCONT); 0: never. */
const pauseSeconds = Math.max(0, Number(values['pause-seconds']))
const faultEverySeconds = positive('fault-every', values['fault-every'])
const drainMinutes = positive('drain-minutes', values['drain-minutes'])
const tokenTtlSeconds = positive('token-ttl', values['token-ttl'])
const seed = values.seed ? Number(values.seed) : Date.now() % 1_000_000
const random = seededRandom(seed)
const runMs = minutes * 60_000
/** Free users get this many messages over the run: past the plan's limit, so "left alone" is exercised. */
const FREE_MESSAGES = FREE_PLAN_LIMIT + 5
/** Gmail mailboxes whose first watches lapse after this long (the "watch expiry" fault). */
const LAPSING_WATCH_MS = 90_000
const WATCH_MS = 7 * 86_400_000

const root = new URL('..', import.meta.url).pathname
const mode = multi ? 'multi' : 'single'
const runDir = `${root}.tmp/soak-${mode}-${new Date().toISOString().replace(/[:.]/g, '-')}`
mkdirSync(runDir, { recursive: true })
const say = (line: string) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`)

// ---------- the outside world: fakes and the load balancer ----------
const clients = { google: { clientId: 'soak-google-client', clientSecret: 'soak-google-secret' }, microsoft: { clientId: 'soak-microsoft-client', clientSecret: 'soak-microsoft-secret' } }
const identity = await startIdentityFakes({ ...clients, accessTokenTtlSeconds: tokenTtlSeconds })
const proxy = await startSoakProxy({ upstreams: [] })
const appUrl = proxy.origin
// Real Pub/Sub and Graph retry undelivered notifications for hours; these retry for about a minute,
// longer than a restart takes, so a push that meets a killed process is delivered after its restart.
const gmail = await startGmailFake({
  identity,
  pushEndpoint: `${appUrl}/_api/webhooks/gmail`,
  pubsub: { retryDelaysMs: [250, 500, 1000, 2000, 4000, 8000, 15_000, 30_000] },
})
const graph = await startGraphMailFake({ identity, notificationRetries: 8, notificationRetryDelayMs: 250 })
const stripe = await startStripeFake({ webhookEndpoint: { url: `${appUrl}/_api/webhooks/stripe` }, webhooks: { retryDelaysMs: [250, 1000, 4000, 15_000, 30_000] } })

// ---------- the database ----------
let databaseUrl: string | undefined
let createdDatabase: string | undefined
const dataDir = `${runDir}/data`
if (multi) {
  if (values['database-url']) databaseUrl = values['database-url']
  else {
    createdDatabase = `soak_${Date.now()}`
    const admin = new pg.Client({ connectionString: values['admin-url'] })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${createdDatabase}`)
    await admin.end()
    const url = new URL(values['admin-url']!)
    url.pathname = `/${createdDatabase}`
    databaseUrl = url.toString()
  }
}

// ---------- the app processes ----------
const baseEnv: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  NODE_ENV: 'production',
  LOG_LEVEL: 'info',
  HOST: '127.0.0.1',
  APP_URL: appUrl,
  // The load balancer is the only hop in front: the client addresses it forwards are believed.
  TRUST_PROXY: '127.0.0.1',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
  TOKEN_ENCRYPTION_KEY: 'soak-token-encryption-key-of-32-characters-or-more',
  GOOGLE_CLIENT_ID: clients.google.clientId,
  GOOGLE_CLIENT_SECRET: clients.google.clientSecret,
  GOOGLE_AUTH_URL: identity.google.authorizeUrl,
  GOOGLE_TOKEN_URL: identity.google.tokenUrl,
  GOOGLE_JWKS_URL: identity.google.jwksUrl,
  GOOGLE_ISSUER: identity.google.issuer,
  GOOGLE_REVOKE_URL: identity.google.revokeUrl,
  MICROSOFT_CLIENT_ID: clients.microsoft.clientId,
  MICROSOFT_CLIENT_SECRET: clients.microsoft.clientSecret,
  MICROSOFT_AUTH_URL: identity.microsoft.authorizeUrl,
  MICROSOFT_TOKEN_URL: identity.microsoft.tokenUrl,
  MICROSOFT_JWKS_URL: identity.microsoft.jwksUrl,
  MICROSOFT_ISSUER_TEMPLATE: identity.microsoft.issuerTemplate,
  MICROSOFT_GRAPH_URL: graph.url,
  GMAIL_API_URL: gmail.apiUrl,
  GMAIL_PUBSUB_TOPIC: gmail.pubsub.topicName,
  GMAIL_PUSH_SERVICE_ACCOUNT: gmail.pubsub.serviceAccountEmail,
  GMAIL_PUSH_JWKS_URL: gmail.pubsub.jwksUrl,
  GMAIL_PUSH_ISSUER: gmail.pubsub.issuer,
  STRIPE_SECRET_KEY: stripe.apiKey,
  STRIPE_WEBHOOK_SECRET: STRIPE_FAKE_WEBHOOK_SECRET,
  STRIPE_STANDARD_PRICE_ID: STANDARD_MONTHLY_PRICE_ID,
  STRIPE_API_URL: stripe.url,
}
const processes: AppProcess[] = []
const webPorts: number[] = []
async function define(name: string, role: 'all' | 'web' | 'worker') {
  const port = role === 'worker' ? 0 : await freePort()
  if (role !== 'worker') webPorts.push(port)
  const p = appProcess({ name, role, cwd: root, env: { ...baseEnv, PORT: String(port) }, logFile: `${runDir}/${name}.log` })
  processes.push(p)
  return p
}
const killable: AppProcess[] = []
if (multi) {
  const web1 = await define('web-1', 'web')
  const others = [await define('web-2', 'web'), await define('worker-1', 'worker'), await define('worker-2', 'worker')]
  // The first process migrates the fresh database; the others start once it has (see the decision record).
  await web1.start()
  await Promise.all(others.map((p) => p.start()))
  killable.push(others[1]!, others[2]!)
} else {
  const all = await define('all', 'all')
  await all.start()
  killable.push(all)
}
proxy.setUpstreams(webPorts)
say(`${mode}: ${processes.map((p) => `${p.name} pid ${p.current()?.pid}`).join(', ')}; app at ${appUrl}; logs in ${runDir}`)

let stopping = false
async function emergencyStop() {
  if (stopping) return
  stopping = true
  await Promise.all(processes.map((p) => p.kill()))
  process.exit(130)
}
process.on('SIGINT', () => void emergencyStop())

// ---------- people: sign-in, mailbox, plan ----------
interface Person {
  email: string
  provider: 'gmail' | 'outlook'
  browser: Browser
  free: boolean
  /** Has the dashboard open (polls it and /_api/gmail/poll as the web client does). */
  active: boolean
  lapsingWatch: boolean
}
const calls: CallRecord[] = []
const phaseOf = { current: 'setup' as 'setup' | 'run' | 'drain' }
const callsByPhase = { setup: [] as CallRecord[], run: [] as CallRecord[], drain: [] as CallRecord[] }
const recordCall = (call: CallRecord) => {
  calls.push(call)
  callsByPhase[phaseOf.current].push(call)
}
const mail = mailMaker(random)
const people: Person[] = Array.from({ length: userCount }, (_, i) => {
  const provider = i % 2 === 0 ? 'gmail' : 'outlook'
  const free = i >= userCount - freeCount
  const active = !free && i % 3 !== 2
  return {
    email: `user${i}@soak.example`,
    provider,
    browser: browser(appUrl, `10.20.${Math.floor(i / 250)}.${(i % 250) + 1}`, recordCall),
    free,
    active,
    lapsingWatch: false,
  }
})
// Two idle Gmail mailboxes (nobody's dashboard polls them) get watches that lapse: only the app's sweep,
// watchdog and renewal can keep their mail flowing.
for (const p of people.filter((p) => p.provider === 'gmail' && !p.active && !p.free).slice(0, 2)) p.lapsingWatch = true

const setupStarted = Date.now()
// Every Stripe event of the check-outs arrives twice (Stripe delivers at least once).
stripe.webhooks.duplicateNext(userCount * 6)
async function setUp(person: Person) {
  const b = person.browser
  await signIn(b, person.provider === 'gmail' ? 'google' : 'microsoft', person.email)
  // Mail the person wrote earlier: prior correspondence for the classifier, as in demo mode.
  const sent = mail.sentMail(person.email)
  if (person.provider === 'gmail') gmail.seed(person.email, sent.map((m) => ({ raw: m.raw, receivedAt: m.receivedAt, labelIds: ['SENT'] })))
  else await graph.seed(person.email, sent.map((m) => ({ raw: m.raw, receivedAt: m.receivedAt, folder: 'sentitems', isRead: true })))
  if (person.lapsingWatch) gmail.setWatchTtl(LAPSING_WATCH_MS, person.email)
  await connectMailbox(b, person.provider, person.email)
  if (person.free) {
    const r = await b.post('/_api/billing/continue-free', {})
    await r.arrayBuffer()
    return
  }
  const session = await startCheckout(b)
  stripe.completeCheckout(session, { email: person.email })
  const until = Date.now() + 120_000
  while ((await subscriptionOf(b)).planId !== 'standard') {
    if (Date.now() > until) throw new Error(`${person.email}: the paid plan did not arrive within 2 minutes`)
    await sleep(500)
  }
}
{
  const queue = [...people]
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let person = queue.shift(); person; person = queue.shift()) await setUp(person)
    }),
  )
}
const setupMs = Date.now() - setupStarted
say(`${userCount} people signed in and connected (${people.filter((p) => p.provider === 'gmail').length} Gmail, ${people.filter((p) => p.provider === 'outlook').length} Outlook; ${freeCount} on the free plan) in ${(setupMs / 1000).toFixed(1)} s`)

// ---------- the run ----------
phaseOf.current = 'run'
const delivered: Delivery[] = []
const faults = faultSchedule({ gmail, graph, stripe, gmailAddresses: () => people.filter((p) => p.provider === 'gmail').map((p) => p.email), outlookAddresses: () => people.filter((p) => p.provider === 'outlook').map((p) => p.email) }, random)
const runStarted = Date.now()
const runEnds = runStarted + runMs
const background: Array<Promise<void>> = []
const every = (ms: number, task: () => Promise<void> | void, until = () => Date.now() >= runEnds) =>
  background.push(
    (async () => {
      for (let next = Date.now() + ms; !until() && next < runEnds; next += ms) {
        await sleep(Math.max(0, next - Date.now()))
        if (until()) break
        await task()
      }
    })(),
  )
const errors: string[] = []
const note = (what: string) => (error: unknown) => {
  if (errors.length < 50) errors.push(`${what}: ${error instanceof Error ? error.message : String(error)}`)
}

async function deliverTo(person: Person) {
  const message = mail.next(person.email)
  const at = Date.now()
  const id = person.provider === 'gmail' ? gmail.deliver(person.email, message.raw).id : (await graph.deliver(person.email, message.raw)).id
  delivered.push({ user: person.email, provider: person.provider, id, at, kind: message.kind, expected: message.expected, free: person.free })
}
const paid = people.filter((p) => !p.free)
every(1000 / rate, () => deliverTo(paid[Math.floor(random() * paid.length)]!).catch(note('deliver')))
for (const person of people.filter((p) => p.free)) every(runMs / FREE_MESSAGES, () => deliverTo(person).catch(note('deliver')))
every(faultEverySeconds * 1000, async () => {
  await faults.fire().catch(note('fault'))
})

// The lapsing watches lapse once: watches created after 40% of the run last Gmail's 7 days again.
background.push(
  sleep(runMs * 0.4).then(() => {
    for (const p of people.filter((x) => x.lapsingWatch)) gmail.setWatchTtl(WATCH_MS, p.email)
    faults.record('gmail-watch-ttl-restored', 'watches created from now on last 7 days')
  }),
)
// Halfway: a month passes at Stripe: every subscription renews, its events arrive twice.
background.push(
  sleep(runMs * 0.5).then(() => {
    stripe.webhooks.duplicateNext(userCount * 6)
    stripe.clock.advance(32 * 86_400_000)
    faults.record('stripe-renewals', 'Stripe clock +32 days: every subscription renews; events delivered twice')
  }),
)

// The dashboard, as the web client polls it (src/client: activity and heartbeat every 30 s, the mail
// poll every 60 s, webhook status every 5 min), compressed: one call every ~4 s per open dashboard.
const DASHBOARD = ['/_api/activity?page=1&limit=25', '/_api/heartbeat/status', '/_api/auth/session', '/_api/settings', '/_api/billing/subscription', '/_api/activity/stats', '/_api/webhooks/status', '/_api/whitelist', '/_api/blacklist', '/_api/sessions']
const networkErrors: string[] = []
for (const person of people.filter((p) => p.active)) {
  const b = person.browser
  background.push(
    (async () => {
      let lastPoll = Date.now() - random() * 60_000
      let promotional = true
      while (Date.now() < runEnds) {
        await sleep(2000 + random() * 4000)
        if (Date.now() >= runEnds) break
        try {
          const roll = random()
          let response: Response
          if (Date.now() - lastPoll > 60_000) {
            lastPoll = Date.now()
            response = await b.post('/_api/gmail/poll', {})
          } else if (roll < 0.03) {
            promotional = !promotional
            response = await b.post('/_api/settings', { allowPromotional: promotional })
          } else if (roll < 0.05) {
            const domain = `partner-${Math.floor(random() * 1000)}.example`
            await (await b.post('/_api/whitelist', { domain })).arrayBuffer()
            response = await b.post('/_api/whitelist/domain', { domain })
          } else if (roll < 0.1) {
            response = await b.get(`/_api/${person.provider}/test`)
          } else {
            response = await b.get(DASHBOARD[Math.floor(random() * DASHBOARD.length)]!)
          }
          await response.arrayBuffer()
        } catch (error) {
          networkErrors.push(`${new Date().toISOString()} ${error instanceof Error ? error.message : String(error)}`)
        }
      }
    })(),
  )
}

// Kills and freezes land in the middle of a sync: Graph is slowed down (1.5 s a call) so syncs take
// seconds, and the victim is a process seen with a sync under way. A kill shows that the job of a dead
// worker is run again elsewhere; a freeze keeps the process's connections and its claim on the job, so
// pg-boss may hand the job to another worker while it still runs: what the overlap check is for.
const lookup = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 1 }) : undefined
async function syncing(pid: number): Promise<boolean> {
  // PGlite is locked by the one process: there, the victim is picked 3 s into the slowed-down Graph.
  if (!lookup) return true
  const { rows } = await lookup.query(`SELECT 1 FROM sync_runs WHERE worker = $1 AND finished_at IS NULL AND started_at > now() - interval '30 seconds' LIMIT 1`, [workerNameOf(pid)])
  return rows.length > 0
}
/** A process with a sync under way (null when none was seen within 20 s: then the next in turn); Graph stays slow until `done`. */
async function midSyncVictim(): Promise<{ victim: AppProcess | undefined; seen: boolean | null; done: () => void }> {
  graph.setLatency(1500)
  await sleep(3000)
  let victim: AppProcess | undefined
  for (const until = Date.now() + 20_000; !victim && Date.now() < until; ) {
    for (const p of killable) {
      const pid = p.current()?.pid
      if (!victim && pid !== undefined && (await syncing(pid).catch(() => false))) victim = p
    }
    if (!victim) await sleep(100)
  }
  return { victim, seen: lookup ? victim !== undefined : null, done: () => graph.setLatency(0) }
}

// Kills: SIGKILL, as when a machine dies; single mode restarts at once, a worker after 3 s.
const kills: Array<{ process: string; pid: number; at: number; midSync: boolean | null; restartedPid?: number; readyAfterMs?: number }> = []
let killTurn = 0
every(killEverySeconds * 1000, async () => {
  if (Date.now() > runEnds - 30_000) return
  const picked = await midSyncVictim()
  const victim = picked.victim ?? killable[killTurn % killable.length]!
  killTurn++
  const pid = victim.current()?.pid ?? 0
  const at = Date.now()
  await victim.kill()
  picked.done()
  const record: (typeof kills)[number] = { process: victim.name, pid, at, midSync: picked.seen }
  kills.push(record)
  say(`killed ${victim.name} (pid ${pid})${picked.seen ? ' in the middle of a sync' : ''}`)
  if (multi) await sleep(3000)
  try {
    const life = await victim.start()
    record.restartedPid = life.pid
    record.readyAfterMs = life.readyAt! - at
    say(`${victim.name} back as pid ${life.pid} after ${((life.readyAt! - at) / 1000).toFixed(1)} s`)
  } catch (error) {
    note('restart')(error)
  }
})

// Freezes, halfway between kills (SIGSTOP, SIGCONT after --pause-seconds).
/** midSync: seen in sync_runs with a sync under way (PostgreSQL only; PGlite is locked by the app). */
const pauses: Array<{ process: string; pid: number; at: number; ms: number; midSync: boolean | null }> = []
if (pauseSeconds > 0 && killEverySeconds * 500 < runMs) {
  background.push(
    sleep((killEverySeconds * 1000) / 2).then(async () => {
      let turn = 1
      while (Date.now() < runEnds - pauseSeconds * 1000 - 40_000) {
        const picked = await midSyncVictim()
        const victim = picked.victim ?? killable[turn % killable.length]!
        turn++
        const pid = victim.current()?.pid
        if (pid) {
          pauses.push({ process: victim.name, pid, at: Date.now(), ms: pauseSeconds * 1000, midSync: picked.seen })
          say(`froze ${victim.name} (pid ${pid}) for ${pauseSeconds} s${picked.seen ? ' in the middle of a sync' : ''}`)
          const frozen = victim.pause(pauseSeconds * 1000)
          picked.done()
          await frozen
        }
        picked.done()
        await sleep(Math.max(0, killEverySeconds * 1000 - pauseSeconds * 1000 - 3000))
      }
    }),
  )
}
const rssSampler = setInterval(() => processes.forEach((p) => p.sampleRss()), 5000)
every(60_000, () => say(`${delivered.length} delivered, ${faults.events.filter((f) => !f.kind.endsWith('-answer')).length} faults, ${kills.length} kills, app 5xx so far: ${[...proxy.stats.serverErrors.values()].reduce((a, b) => a + b, 0)}`))

await sleep(runMs)
await Promise.all(background.splice(0))
faults.clear()
for (const p of people.filter((x) => x.lapsingWatch)) gmail.setWatchTtl(WATCH_MS, p.email)
say(`run over: ${delivered.length} delivered; draining (at most ${drainMinutes} min)`)

// ---------- drain: everything delivered decided, everything filed moved ----------
phaseOf.current = 'drain'
const drainStarted = Date.now()
const deliveredTo = (p: Person) => delivered.filter((d) => d.user === p.email)
async function outstanding(): Promise<string[]> {
  const waiting: string[] = []
  for (const person of people) {
    const mine = deliveredTo(person)
    const { total, filed } = await decisionCounts(person.browser)
    const leftAlone = person.free ? (await subscriptionOf(person.browser)).emailsLeftAlone : 0
    if (total + leftAlone < mine.length) waiting.push(`${person.email}: ${mine.length - total - leftAlone} undecided`)
    const ids = new Set(mine.map((d) => d.id))
    const moved =
      person.provider === 'gmail'
        ? gmail.mailbox(person.email).messages.filter((m) => ids.has(m.id) && !m.labelIds.includes('INBOX')).length
        : graph.mailbox(person.email).messages.filter((m) => ids.has(m.id) && m.folder !== 'Inbox').length
    if (moved < filed) waiting.push(`${person.email}: ${filed - moved} filed but not moved yet`)
  }
  return waiting
}
let waiting = await outstanding().catch((error: unknown) => [String(error)])
while (waiting.length > 0 && Date.now() - drainStarted < drainMinutes * 60_000) {
  await sleep(5000)
  waiting = await outstanding().catch((error: unknown) => [String(error)])
}
const drainMs = Date.now() - drainStarted
say(waiting.length ? `drain gave up after ${(drainMs / 1000).toFixed(0)} s: ${waiting.slice(0, 5).join('; ')}` : `drained in ${(drainMs / 1000).toFixed(1)} s`)

// ---------- stop, read, report ----------
stopping = true
clearInterval(rssSampler)
await lookup?.end()
const end = Date.now()
await Promise.all(processes.map((p) => p.stop()))
await Promise.all([gmail.push.idle(), graph.notificationsSettled()])
const handle = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir })
let figures: SoakFigures
try {
  figures = await analyse({ handle, delivered, gmail, graph, processes, end, warmUpMs: 60_000, lapsing: new Set(people.filter((p) => p.lapsingWatch).map((p) => p.email)) })
} finally {
  await handle.close()
}

const stripeEvents = {
  delivered: new Set(stripe.webhooks.log.filter((e) => e.outcome === 'delivered' && !e.duplicate).map((e) => e.eventId)).size,
  duplicates: new Set(stripe.webhooks.log.filter((e) => e.outcome === 'delivered' && e.duplicate).map((e) => e.eventId)).size,
  gaveUp: stripe.webhooks.log.filter((e) => e.outcome === 'failed').length,
}
const injected = faults.events.filter((f) => !f.kind.endsWith('-answer'))
const appServerErrors = [...proxy.stats.serverErrors].sort((a, b) => b[1] - a[1])
const app5xx = appServerErrors.reduce((sum, [, n]) => sum + n, 0)
const webCalls = callsByPhase.run
const failures = [
  figures.lost.total > 0 && `${figures.lost.total} lost`,
  figures.duplicated.total > 0 && `${figures.duplicated.total} duplicated`,
  figures.deleted.total > 0 && `${figures.deleted.total} deleted`,
  app5xx > 0 && `${app5xx} 5xx answers from the app`,
  figures.usage.mismatched.length > 0 && `usage differs from decisions for ${figures.usage.mismatched.length} users`,
  figures.syncs.overlaps.length > 0 && `${figures.syncs.overlaps.length} overlapping syncs of one mailbox`,
].filter((f): f is string => Boolean(f))

const ms = (v: number | null) => (v === null ? '-' : v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`)
const lines = [
  '',
  `Soak (${mode}): ${minutes} min, seed ${seed}; ${multi ? `2 web + 2 worker processes on PostgreSQL` : 'one ROLE=all process on PGlite'}; ${userCount} people (${freeCount} free); ${rate} messages/s`,
  `  setup ${(setupMs / 1000).toFixed(1)} s (real sign-in, connect and checkout flows); drain ${(drainMs / 1000).toFixed(1)} s${waiting.length ? ' (gave up)' : ''}`,
  `  mail: delivered ${figures.delivered}, decided ${figures.decided} (kept ${figures.kept}, filed ${figures.filed}, skipped ${figures.skipped}), filed away ${figures.filed - figures.filedNotApplied}${figures.filedNotApplied ? ` (${figures.filedNotApplied} filed but never moved)` : ''}`,
  `  duplicated ${figures.duplicated.total} (decisions ${figures.duplicated.decisions}, moves ${figures.duplicated.moves}); lost ${figures.lost.total}; deleted ${figures.deleted.total} (refused calls ${figures.deleted.violations}, missing ${figures.deleted.missing}, bin/spam ${figures.deleted.binnedOrSpam})`,
  ...figures.lost.examples.map((e) => `    lost: ${e}`),
  ...figures.deleted.examples.map((e) => `    deleted: ${e}`),
  `  free plan (limit ${FREE_PLAN_LIMIT}): ${figures.free.map((f) => `${f.user} delivered ${f.delivered}, decided ${f.decided}, left alone ${f.leftAlone}`).join('; ') || 'none'}`,
  `  usage vs decisions: ${figures.usage.mismatched.length === 0 ? `equal for all ${figures.usage.users} users` : figures.usage.mismatched.map((u) => `${u.user} usage ${u.usage} / decisions ${u.decisions}`).join('; ')}`,
  `  delivery → action: p50 ${ms(figures.latencyMs.all.p50)}, p99 ${ms(figures.latencyMs.all.p99)}, max ${ms(figures.latencyMs.all.max)} (filed: p50 ${ms(figures.latencyMs.filed.p50)}, p99 ${ms(figures.latencyMs.filed.p99)}; kept: p50 ${ms(figures.latencyMs.kept.p50)}, p99 ${ms(figures.latencyMs.kept.p99)}; Gmail: p50 ${ms(figures.latencyMs.gmail.p50)}, p99 ${ms(figures.latencyMs.gmail.p99)}; Outlook: p50 ${ms(figures.latencyMs.outlook.p50)}, p99 ${ms(figures.latencyMs.outlook.p99)})`,
  `    the ${people.filter((p) => p.lapsingWatch).length} mailbox(es) whose watches lapsed: p50 ${ms(figures.latencyMs.lapsing.p50)}, p99 ${ms(figures.latencyMs.lapsing.p99)}, max ${ms(figures.latencyMs.lapsing.max)}; all the others: p50 ${ms(figures.latencyMs.others.p50)}, p99 ${ms(figures.latencyMs.others.p99)}, max ${ms(figures.latencyMs.others.max)}`,
  `  web: ${webCalls.length} dashboard calls during the run by ${people.filter((p) => p.active).length} open dashboards (${tally(webCalls.map((c) => `${c.status}${c.byBalancer ? ' (balancer)' : ''}`)).map(([s, n]) => `${s}: ${n}`).join(', ')}); network errors ${networkErrors.length}`,
  `  app 5xx (all traffic through the load balancer, webhooks included): ${app5xx}${appServerErrors.length ? ` (${appServerErrors.map(([k, n]) => `${k} ×${n}`).join(', ')})` : ''}; answered by the balancer while no process could: ${proxy.stats.unavailable} (${[...proxy.stats.unavailableBy].map(([k, n]) => `${k} ${n}`).join(', ') || '-'})`,
  `  Stripe events: ${stripeEvents.delivered} delivered to the app (${stripeEvents.duplicates} of them twice), ${stripeEvents.gaveUp} given up after the fake's retries`,
  `  faults: ${injected.length} (${tally(injected.map((f) => f.kind)).map(([k, n]) => `${k} ${n}`).join(', ')})`,
  `  kills: ${kills.map((k) => `${k.process} pid ${k.pid} at +${Math.round((k.at - runStarted) / 1000)} s${k.midSync ? ' mid-sync' : ''}${k.readyAfterMs ? `, ready again after ${(k.readyAfterMs / 1000).toFixed(1)} s` : ''}`).join('; ') || 'none'}`,
  `  pauses: ${pauses.map((p) => `${p.process} pid ${p.pid} frozen ${p.ms / 1000} s at +${Math.round((p.at - runStarted) / 1000)} s${p.midSync ? ' mid-sync' : ''}`).join('; ') || 'none'}`,
  `  syncs: ${figures.syncs.runs} runs (${figures.syncs.byOutcome.map(([k, n]) => `${k} ${n}`).join(', ')}); overlapping runs of one mailbox: ${figures.syncs.overlaps.length}; cut off by a kill: ${figures.syncs.cutByKill}, each followed by a completed sync elsewhere within ${ms(figures.syncs.handedOverMaxMs)}${figures.syncs.notHandedOver ? ` (${figures.syncs.notHandedOver} never)` : ''}`,
  ...figures.syncs.overlaps.slice(0, 5).map((o) => `    overlap: mailbox ${o.mailboxId}: ${o.first.worker} ${new Date(o.first.startedAt).toISOString()}–${o.first.finishedAt ? new Date(o.first.finishedAt).toISOString() : '?'} and ${o.second.worker} from ${new Date(o.second.startedAt).toISOString()}`),
  `  queue at the end: ${figures.queue.map((q) => `${q.state} ${q.count}`).join(', ')}; sync jobs run more than once (retried after a failure or a dead worker): ${figures.jobsRetried}`,
  '  RSS (MB; least-squares slope in MB/min over each life after its first third, at least a minute):',
  ...figures.rss.map((r) => `    ${r.process} pid ${r.pid}: ${r.minutes} min, ${r.startMb} → ${r.endMb} (max ${r.maxMb}), slope ${r.slopeMbPerMin ?? '-'}`),
  ...(errors.length ? ['  soak errors:', ...errors.map((e) => `    ${e}`)] : []),
  failures.length ? `FAILED: ${failures.join('; ')}` : 'PASSED: nothing lost, duplicated or deleted; no app 5xx; usage matches; no mailbox synced in two places at once',
]
console.log(lines.join('\n'))
writeFileSync(
  `${runDir}/report.json`,
  JSON.stringify(
    {
      mode,
      minutes,
      seed,
      users: userCount,
      freeUsers: freeCount,
      rate,
      setupMs,
      drainMs,
      drained: waiting.length === 0,
      figures,
      web: { calls: webCalls.length, byStatus: tally(webCalls.map((c) => `${c.status}${c.byBalancer ? ' (balancer)' : ''}`)), networkErrors },
      proxy: { byStatus: [...proxy.stats.byStatus], serverErrors: appServerErrors, unavailable: proxy.stats.unavailable, unavailableBy: [...proxy.stats.unavailableBy] },
      faults: faults.events,
      kills,
      pauses,
      stripeEvents,
      errors,
      failures,
    },
    null,
    2,
  ),
)
say(`report: ${runDir}/report.json`)

await Promise.all([gmail.close(), graph.close(), stripe.close(), identity.close(), proxy.close()])
if (!values.keep) {
  if (createdDatabase) {
    const admin = new pg.Client({ connectionString: values['admin-url'] })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS ${createdDatabase} WITH (FORCE)`)
    await admin.end()
  }
  rmSync(dataDir, { recursive: true, force: true })
}
process.exit(failures.length ? 1 : 0)
