import { performance } from 'node:perf_hooks'
import { buildApp } from '#server/app.ts'
import { ConfigError, configWarnings, DEMO_CREDENTIALS, isDemoMode, loadConfig, type Config } from '#server/config.ts'
import { migrateDatabase, openDatabase } from '#server/db/client.ts'
import { DataDirError } from '#server/db/data-dir.ts'
import { withDemoProviders } from '#server/demo-providers.ts'
import { startJobs } from '#server/jobs/boss.ts'
import { createServices } from '#server/services.ts'
import { mailboxJobs } from '#server/jobs/mailbox-sync.job.ts'
import { billingJobs } from '#server/jobs/billing-sync.job.ts'
import { loadTokenCipher } from '#server/lib/token-key.ts'
import { prepareConnectedDemoMailboxes } from '#server/features/demo/demo-mailboxes.ts'
import type { DemoMail } from '#fakes/demo-mail.ts'
import type { PgBoss } from 'pg-boss'
import { createLogger } from '#server/plugins/logging.ts'

/**
 * A close that never settles (a hung database) must not keep a stopped process alive. A handler
 * cannot help when the event loop itself is blocked: signal handlers run on it (issue 11 item 7b).
 */
const CLOSE_DEADLINE_MS = 10_000

/**
 * Process entry point (DESIGN "Shape of the code"): config → identity fakes in demo mode →
 * database + migrations → job queue → HTTP. SIGINT/SIGTERM close everything in reverse order;
 * PGlite and pg-boss keep the event loop alive until closed.
 */
async function main() {
  const startedAt = performance.now()
  let config: Config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
  const logger = createLogger(config)
  for (const warning of configWarnings(config)) logger.warn(warning)
  const closers: Array<{ name: string; close: () => Promise<unknown> }> = []

  const closeAllAndExit = async (code: number) => {
    // Also the code if the event loop empties while a close is still pending.
    process.exitCode = code
    setTimeout(() => {
      logger.error({ deadlineMs: CLOSE_DEADLINE_MS }, 'closing did not finish in time; exiting without waiting')
      process.exit(code || 1)
    }, CLOSE_DEADLINE_MS).unref()
    for (const { name, close } of closers.reverse()) {
      await close().catch((err: unknown) => logger.error({ err, component: name }, 'close failed'))
    }
    process.exit(code)
  }
  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down')
    await closeAllAndExit(0)
  }
  let shuttingDown = false
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (shuttingDown) return
      shuttingDown = true
      void shutdown(signal)
    })
  }

  try {
    // The identity fakes (demo mode) and the database open in parallel: both are slow-ish (RSA key
    // generation, PGlite's WASM start) and independent.
    let demoMail: DemoMail | undefined
    const startFakes = async () => {
      if (!isDemoMode(config)) return
      // Loaded lazily: production with real credentials never loads the fakes.
      const [{ startIdentityFakes }, { startDemoMail }] = await Promise.all([import('#fakes/identity/server.ts'), import('#fakes/demo-mail.ts')])
      const fakes = await startIdentityFakes({
        host: '127.0.0.1',
        port: config.demoIdpPort,
        google: DEMO_CREDENTIALS.google,
        microsoft: DEMO_CREDENTIALS.microsoft,
      })
      closers.push({ name: 'identity fakes', close: () => fakes.close() })
      demoMail = await startDemoMail({ identity: fakes, host: '127.0.0.1', gmailPushEndpoint: `${config.appUrl}/_api/webhooks/gmail` })
      const mail = demoMail
      closers.push({ name: 'demo mailboxes', close: () => mail.close() })
      config = withDemoProviders(config, fakes, { gmail: demoMail.gmail, graph: demoMail.graph })
      logger.info(
        { google: config.google.demo, microsoft: config.microsoft.demo, identityProvider: fakes.origin, gmail: demoMail.gmail.origin, graph: demoMail.graph.origin },
        'demo mode: sign-in and mailboxes use the local fakes',
      )
    }
    const openAndMigrate = async () => {
      const handle = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir })
      closers.push({ name: 'database', close: () => handle.close() })
      await migrateDatabase(handle)
      return handle
    }
    // Billing without a Stripe key: the local Stripe, in the one process demo mode runs in (ROLE=all;
    // separate web and worker processes would each get their own), and not in production (where test
    // cards would give the paid plan away) unless demo sign-in was opted into too.
    const startStripeFake = async () => {
      if (!config.stripe.demo || config.role !== 'all' || (config.nodeEnv === 'production' && !config.allowDemoSignIn)) return
      const { startStripeFake: start, STRIPE_FAKE_WEBHOOK_SECRET, STANDARD_MONTHLY_PRICE_ID } = await import('#fakes/stripe/server.ts')
      const stripe = await start({ host: '127.0.0.1', webhookEndpoint: { url: `${config.appUrl}/_api/webhooks/stripe` } })
      closers.push({ name: 'demo stripe', close: () => stripe.close() })
      config = { ...config, stripe: { ...config.stripe, secretKey: stripe.apiKey, webhookSecret: STRIPE_FAKE_WEBHOOK_SECRET, standardPriceId: STANDARD_MONTHLY_PRICE_ID, apiUrl: stripe.url } }
      logger.info({ stripe: stripe.url }, 'demo mode: billing uses the local Stripe (test card 4242 4242 4242 4242)')
    }
    const [, handle] = await Promise.all([startFakes().then(startStripeFake), openAndMigrate()])
    // The demo mailboxes live in memory: fill the ones connected before this start again.
    if (demoMail) await prepareConnectedDemoMailboxes(handle.db, demoMail)

    // Sync jobs can be requested as soon as HTTP is up; they wait for the queue, which starts last.
    let bossReady: (boss: PgBoss) => void = () => {}
    let bossFailed: (error: unknown) => void = () => {}
    const boss = new Promise<PgBoss>((resolve, reject) => {
      bossReady = resolve
      bossFailed = reject
    })
    boss.catch(() => {})
    const services = createServices({
      db: handle.db,
      config,
      cipher: loadTokenCipher(config),
      jobs: mailboxJobs(() => boss),
      billingJobs: billingJobs(() => boss),
      log: logger,
      demoMailboxes: demoMail,
    })
    // ROLE=worker runs jobs only: no HTTP (README "Several processes").
    let address: string | null = null
    if (config.role !== 'worker') {
      const app = await buildApp({ config, db: handle.db, services, demoMailboxes: demoMail })
      closers.push({ name: 'http', close: () => app.close() })
      address = await app.listen({ host: config.host, port: config.port })
    }
    const listeningMs = Math.round(performance.now() - startedAt)

    // The job queue starts after HTTP is up: no request needs it, and it is the slowest part of a
    // warm start. It is closed before the database (closers run in reverse order).
    const jobs = await startJobs({ handle, logger, tasks: services.tasks, work: config.role !== 'web' }).catch((error: unknown) => {
      bossFailed(error)
      throw error
    })
    bossReady(jobs.boss)
    closers.push({ name: 'jobs', close: () => jobs.stop() })

    logger.info(
      { url: config.appUrl, address, role: config.role, database: handle.kind, startupMs: listeningMs, jobsReadyMs: Math.round(performance.now() - startedAt) },
      address
        ? // The URL to open first (another host name of the same machine would lose the sign-in cookie);
          // the bound address too: with PORT=0 the app URL's port says nothing.
          `Inbox Guard is ready: open ${config.appUrl} (listening on ${address}; ${handle.kind}, started in ${listeningMs} ms)`
        : `Inbox Guard worker is ready (${handle.kind}, started in ${listeningMs} ms)`,
    )
  } catch (error) {
    shuttingDown = true
    if (error instanceof DataDirError) {
      // An operator's mistake, not a bug: the message says what to do, and a stack would bury it.
      console.error(error.message)
      logger.fatal(error.message)
    } else {
      logger.fatal({ err: error }, 'start-up failed')
    }
    await closeAllAndExit(1)
  }
}

void main()
