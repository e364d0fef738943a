import { Writable } from 'node:stream'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { PgBoss } from 'pg-boss'
import { startDemoMail } from '#fakes/demo-mail.ts'
import { startGmailFake, type GmailFake } from '#fakes/gmail/server.ts'
import { startGraphMailFake, type GraphMailFake } from '#fakes/graph-mail/server.ts'
import { startIdentityFakes, type IdentityFakes } from '#fakes/identity/server.ts'
import { STANDARD_MONTHLY_PRICE_ID, startStripeFake, STRIPE_FAKE_WEBHOOK_SECRET, type StripeFake } from '#fakes/stripe/server.ts'
import { startJobs, type Jobs } from '#server/jobs/boss.ts'
import { createMailIntegration } from '#server/integrations/mail/mail-integration.ts'
import { mailboxJobs } from '#server/jobs/mailbox-sync.job.ts'
import { billingJobs } from '#server/jobs/billing-sync.job.ts'
import { loadTokenCipher } from '#server/lib/token-key.ts'
import { createServices, type Services } from '#server/services.ts'
import { buildApp, type AppDeps } from '#server/app.ts'
import { loadConfig, type Config } from '#server/config.ts'
import type { Database } from '#server/db/client.ts'
import type { AuthProvider, OAuthPopupMessage } from '#shared/api/auth.ts'
import { OAuthPopupMessageSchema } from '#shared/api/auth.ts'
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from './databases.ts'
import { freePort } from './free-port.ts'

export const APP_URL = 'http://app.test'
export const TEST_TOKEN_KEY = 'test-token-encryption-key-of-32-characters-or-more'
export const TEST_CLIENTS = {
  google: { clientId: 'test-google-client', clientSecret: 'test-google-secret' },
  microsoft: { clientId: 'test-microsoft-client', clientSecret: 'test-microsoft-secret' },
} as const
export const CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'

export interface TestApp {
  app: FastifyInstance
  db: Database
  config: Config
  fakes: IdentityFakes
  /** With `mail: true`: the Gmail and Graph mail fakes the app's adapters talk to. */
  gmail?: GmailFake
  graph?: GraphMailFake
  /** With `stripe: true`: the local Stripe billing talks to. */
  stripe?: StripeFake
  /** The job queue on the test database, started on first use (real pg-boss). */
  boss(): Promise<PgBoss>
  /** The services the app and the job workers share (the pipeline among them). */
  services: Services
  /** Moves every fake's clock, and the one push expirations are computed from, forward. */
  advanceClock(ms: number): void
  /** Now, as the fakes see it after advanceClock. */
  now(): Date
  database: TestDatabase
  /** Every log line the app wrote, as raw JSON text. */
  logs: string[]
  close(): Promise<void>
}

export interface TestAppOptions {
  env?: Record<string, string>
  authRateLimit?: AppDeps['authRateLimit']
  waitlistRateLimit?: AppDeps['waitlistRateLimit']
  clientDir?: string
  signInProviders?: AppDeps['signInProviders']
  /**
   * Start the Gmail and Graph mail fakes, point the app at them, and serve the app on a real loopback
   * port (APP_URL) so Pub/Sub pushes and Graph's validation handshake and notifications reach it.
   */
  mail?: boolean
  /** With `mail`: run the fakes as demo mode does (new mailboxes filled with demo mail; demo delivery route). */
  demo?: boolean
  /** false: this app only sends jobs (ROLE=web); other processes work them. */
  workers?: boolean
  /** Circuit breaker settings for the pipeline. */
  breaker?: { threshold?: number; coolDownMs?: number }
  /** Start the local Stripe, point billing at it, and serve the app on loopback so its webhooks arrive. */
  stripe?: boolean
}

/** A real app on a real database, signing in against the real identity fakes on loopback. */
export async function createTestApp(kind: TestDatabaseKind, options: TestAppOptions = {}): Promise<TestApp> {
  const fakes = await startIdentityFakes({ host: '127.0.0.1', port: 0, google: TEST_CLIENTS.google, microsoft: TEST_CLIENTS.microsoft })
  const database = await createTestDatabase(kind)
  const listens = Boolean(options.mail || options.stripe)
  const port = listens ? await freePort() : 0
  const appUrl = listens ? `http://127.0.0.1:${port}` : APP_URL
  const stripe = options.stripe ? await startStripeFake({ host: '127.0.0.1', webhookEndpoint: { url: `${appUrl}/_api/webhooks/stripe` }, webhooks: { retryDelaysMs: [50, 100, 200] } }) : undefined
  const stripeEnv: Record<string, string> = stripe
    ? { STRIPE_SECRET_KEY: stripe.apiKey, STRIPE_WEBHOOK_SECRET: STRIPE_FAKE_WEBHOOK_SECRET, STRIPE_STANDARD_PRICE_ID: STANDARD_MONTHLY_PRICE_ID, STRIPE_API_URL: stripe.url }
    : {}
  const demoMail = options.mail && options.demo ? await startDemoMail({ identity: fakes, host: '127.0.0.1', gmailPushEndpoint: `${appUrl}/_api/webhooks/gmail` }) : undefined
  const gmail = demoMail?.gmail ?? (options.mail ? await startGmailFake({ identity: fakes, pushEndpoint: `${appUrl}/_api/webhooks/gmail` }) : undefined)
  const graph = demoMail?.graph ?? (options.mail ? await startGraphMailFake({ identity: fakes }) : undefined)
  const mailEnv: Record<string, string> =
    gmail && graph
      ? {
          GMAIL_API_URL: gmail.apiUrl,
          GOOGLE_REVOKE_URL: fakes.google.revokeUrl,
          GMAIL_PUBSUB_TOPIC: gmail.pubsub.topicName,
          GMAIL_PUSH_SERVICE_ACCOUNT: gmail.pubsub.serviceAccountEmail,
          GMAIL_PUSH_JWKS_URL: gmail.pubsub.jwksUrl,
          GMAIL_PUSH_ISSUER: gmail.pubsub.issuer,
          MICROSOFT_GRAPH_URL: graph.url,
        }
      : {}
  const config = loadConfig({
    NODE_ENV: 'test',
    APP_URL: appUrl,
    TOKEN_ENCRYPTION_KEY: TEST_TOKEN_KEY,
    LOG_LEVEL: 'info',
    GOOGLE_CLIENT_ID: TEST_CLIENTS.google.clientId,
    GOOGLE_CLIENT_SECRET: TEST_CLIENTS.google.clientSecret,
    GOOGLE_AUTH_URL: fakes.google.authorizeUrl,
    GOOGLE_TOKEN_URL: fakes.google.tokenUrl,
    GOOGLE_JWKS_URL: fakes.google.jwksUrl,
    GOOGLE_ISSUER: fakes.google.issuer,
    MICROSOFT_CLIENT_ID: TEST_CLIENTS.microsoft.clientId,
    MICROSOFT_CLIENT_SECRET: TEST_CLIENTS.microsoft.clientSecret,
    MICROSOFT_AUTH_URL: fakes.microsoft.authorizeUrl,
    MICROSOFT_TOKEN_URL: fakes.microsoft.tokenUrl,
    MICROSOFT_JWKS_URL: fakes.microsoft.jwksUrl,
    MICROSOFT_ISSUER_TEMPLATE: fakes.microsoft.issuerTemplate,
    MICROSOFT_GRAPH_URL: fakes.microsoft.graphUrl,
    ...mailEnv,
    ...stripeEnv,
    ...options.env,
  })
  const logs: string[] = []
  const logDestination = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean))
      done()
    },
  })
  let jobs: Promise<Jobs> | undefined
  /** How far advanceClock moved the fakes (and the clock push expirations are computed from). */
  let clockOffset = 0
  const quiet = { info: () => {}, warn: () => {}, error: () => {} }
  const services = createServices({
    db: database.handle.db,
    config,
    cipher: loadTokenCipher(config),
    jobs: mailboxJobs(() => boss()),
    billingJobs: billingJobs(() => boss()),
    log: quiet,
    demoMailboxes: demoMail,
    // Fast backoff: fault tests make the adapters retry many times (Retry-After is still honoured).
    mail: createMailIntegration(config, { retry: { baseDelayMs: 5, maxDelayMs: 50 }, now: () => new Date(Date.now() + clockOffset) }),
    breaker: options.breaker,
  })
  const boss = async () => {
    jobs ??= startJobs({ handle: database.handle, logger: quiet, tasks: services.tasks, work: options.workers ?? true, pollingIntervalSeconds: 0.5 })
    return (await jobs).boss
  }
  const app = await buildApp({
    config,
    services,
    db: database.handle.db,
    logDestination,
    clientDir: options.clientDir ?? '/nonexistent-client-dir',
    authRateLimit: options.authRateLimit ?? { max: 1000, timeWindow: 60_000 },
    waitlistRateLimit: options.waitlistRateLimit ?? { max: 1000, timeWindow: 60_000 },
    signInProviders: options.signInProviders,
    demoMailboxes: demoMail,
  })
  await app.ready()
  if (listens) await app.listen({ host: '127.0.0.1', port })
  // Requests on the loopback port still open, for the slow-shutdown report below.
  const inFlight = new Set<string>()
  app.server.on('request', (req, res) => {
    const label = `${req.method} ${req.url} since ${new Date().toISOString()}`
    inFlight.add(label)
    res.on('close', () => inFlight.delete(label))
  })
  return {
    app,
    db: database.handle.db,
    config,
    fakes,
    gmail,
    graph,
    stripe,
    boss,
    services,
    advanceClock(ms) {
      clockOffset += ms
      fakes.advanceClock(ms)
      gmail?.advanceClock(ms)
      graph?.advanceClock(ms)
    },
    now: () => new Date(Date.now() + clockOffset),
    database,
    logs,
    async close() {
      // A slow shutdown is reported with the time each part took, so a hang names its culprit.
      const t0 = Date.now()
      const steps: string[] = []
      const step = (name: string) => steps.push(`${name} ${Date.now() - t0} ms`)
      const slow = setTimeout(() => {
        process.stderr.write(`test app close is slow (${kind}): done so far: ${steps.join(', ') || 'nothing'}; requests still open: ${[...inFlight].join('; ') || 'none'}\n`)
        // A request that never ends must not hold the suite: drop the connections so close() returns.
        app.server.closeAllConnections()
      }, 10_000)
      try {
        await app.close()
        step('app')
        if (jobs) await (await jobs).stop()
        step('jobs')
        await database.destroy()
        step('database')
        await Promise.all([fakes.close(), gmail?.close(), graph?.close(), stripe?.close()])
      } finally {
        clearTimeout(slow)
      }
    },
  }
}

export function cookieValue(response: LightMyRequestResponse, name: string): string | undefined {
  return response.cookies.find((c) => c.name === name)?.value
}

/** Reads the message the popup page would post to its opener. */
export function popupMessage(html: string): OAuthPopupMessage {
  const match = /var message = (.*);\n/.exec(html)
  if (!match?.[1]) throw new Error('popup page has no message')
  return OAuthPopupMessageSchema.parse(JSON.parse(match[1]))
}

export interface ConsentInput {
  email: string
  name?: string
  decision?: 'allow' | 'deny'
  /** The provider's statement about the address; unset means the provider's default (Google yes, Microsoft no). */
  emailVerified?: boolean
}

/** Step 1+2: authorize on the app, then answer the fake's consent form. Returns the callback URL and binding cookie. */
export async function authorizeAndConsent(ctx: TestApp, provider: AuthProvider, consent: ConsentInput) {
  const authorize = await ctx.app.inject({ method: 'GET', url: `/_api/auth/oauth_authorize?provider=${provider}` })
  expect(authorize.statusCode).toBe(302)
  const providerUrl = new URL(authorize.headers.location as string)
  const binding = cookieValue(authorize, 'oauth_binding')
  const form = new URLSearchParams(providerUrl.searchParams)
  form.set('email', consent.email)
  form.set('name', consent.name ?? 'Test User')
  form.set('decision', consent.decision ?? 'allow')
  if (consent.emailVerified !== undefined) form.set('email_verified', String(consent.emailVerified))
  const res = await fetch(`${providerUrl.origin}${providerUrl.pathname}`, { method: 'POST', body: form, redirect: 'manual' })
  expect(res.status).toBe(302)
  const callback = new URL(res.headers.get('location') ?? '')
  return { callback, binding, providerUrl }
}

/** Step 3: the browser lands on the app's callback with the binding cookie. */
export async function runCallback(ctx: TestApp, callback: URL, binding: string | undefined, headers: Record<string, string> = {}) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `${callback.pathname}${callback.search}`,
    headers: { 'user-agent': CHROME_UA, ...headers },
    cookies: binding ? { oauth_binding: binding } : {},
  })
  return { response, message: popupMessage(response.body) }
}

export async function establishSession(ctx: TestApp, tempToken: unknown, headers: Record<string, string> = {}) {
  return ctx.app.inject({
    method: 'POST',
    url: '/_api/auth/establish_session',
    headers: { 'x-requested-with': 'XMLHttpRequest', 'user-agent': CHROME_UA, ...headers },
    payload: { tempToken },
  })
}

/** The whole popup flow; returns the session cookie value and the user. */
export async function signIn(ctx: TestApp, provider: AuthProvider, consent: ConsentInput) {
  const { callback, binding } = await authorizeAndConsent(ctx, provider, consent)
  const { message } = await runCallback(ctx, callback, binding)
  if (message.type !== 'OAUTH_TOKEN_SUCCESS') throw new Error(`sign-in failed: ${message.error.code}`)
  const established = await establishSession(ctx, message.token)
  expect(established.statusCode).toBe(200)
  const sid = cookieValue(established, 'sid')
  if (!sid) throw new Error('no session cookie')
  return { sid, user: established.json().user, establishResponse: established }
}

/** The mailbox connect popup (authorize → the fake's consent form → callback), as a browser runs it. */
export async function connectMailbox(ctx: TestApp, sid: string, provider: 'gmail' | 'outlook', email: string) {
  const authorize = await ctx.app.inject({ method: 'GET', url: `/_api/${provider}/authorize`, cookies: { sid } })
  expect(authorize.statusCode).toBe(302)
  const providerUrl = new URL(authorize.headers.location as string)
  const form = new URLSearchParams(providerUrl.searchParams)
  form.set('email', email)
  form.set('decision', 'allow')
  const consent = await fetch(`${providerUrl.origin}${providerUrl.pathname}`, { method: 'POST', body: form, redirect: 'manual' })
  const back = new URL(consent.headers.get('location') ?? '')
  const callback = await ctx.app.inject({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    cookies: { sid, mailbox_binding: cookieValue(authorize, 'mailbox_binding') ?? '' },
  })
  expect(callback.statusCode).toBe(200)
  expect(callback.body).toContain('OAUTH_TOKEN_SUCCESS')
  return callback
}

/**
 * The environment for another app process on the same PostgreSQL database and the same fakes as
 * `ctx` (a worker beside the test's app): its URLs, credentials and token key.
 */
export function childProcessEnv(ctx: TestApp): Record<string, string> {
  const c = ctx.config
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    APP_URL: c.appUrl,
    DATABASE_URL: (ctx.database.handle as { connectionString: string }).connectionString,
    TOKEN_ENCRYPTION_KEY: TEST_TOKEN_KEY,
    GOOGLE_CLIENT_ID: c.google.clientId ?? '',
    GOOGLE_CLIENT_SECRET: c.google.clientSecret ?? '',
    GOOGLE_AUTH_URL: c.google.authUrl,
    GOOGLE_TOKEN_URL: c.google.tokenUrl,
    GOOGLE_JWKS_URL: c.google.jwksUrl,
    GOOGLE_ISSUER: c.google.issuers[0] ?? '',
    MICROSOFT_CLIENT_ID: c.microsoft.clientId ?? '',
    MICROSOFT_CLIENT_SECRET: c.microsoft.clientSecret ?? '',
    MICROSOFT_AUTH_URL: c.microsoft.authUrl,
    MICROSOFT_TOKEN_URL: c.microsoft.tokenUrl,
    MICROSOFT_JWKS_URL: c.microsoft.jwksUrl,
    MICROSOFT_ISSUER_TEMPLATE: c.microsoft.issuerTemplate,
    MICROSOFT_GRAPH_URL: c.microsoft.graphUrl,
    GMAIL_API_URL: c.gmail.apiUrl,
    GOOGLE_REVOKE_URL: c.gmail.revokeUrl,
  }
  if (c.gmail.pubsubTopic) env.GMAIL_PUBSUB_TOPIC = c.gmail.pubsubTopic
  return env
}
