import cookie from '@fastify/cookie'
import rateLimit from '@fastify/rate-limit'
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { serializerCompiler } from 'fastify-type-provider-zod'
import type { DestinationStream } from 'pino'
import secureJsonParse from 'secure-json-parse'
import type { Config } from '#server/config.ts'
import type { Database } from '#server/db/client.ts'
import { registerAppInfoRoutes } from '#server/features/app-info/app-info.routes.ts'
import { registerOpenApiRoutes } from '#server/features/app-info/openapi.routes.ts'
import { registerAuthRoutes } from '#server/features/auth/auth.routes.ts'
import { registerBillingRoutes } from '#server/features/billing/billing.routes.ts'
import { registerSessionRoutes } from '#server/features/sessions/sessions.routes.ts'
import { registerAccountRoutes } from '#server/features/account/account.routes.ts'
import { createAccountService } from '#server/features/account/account.service.ts'
import { createAuthService } from '#server/features/auth/auth.service.ts'
import { createSignInProviders, type SignInProvider } from '#server/features/auth/oauth-providers.ts'
import { registerDemoRoutes, type DemoMailboxes } from '#server/features/demo/demo.routes.ts'
import { registerActivityRoutes } from '#server/features/activity/activity.routes.ts'
import { registerOpsRoutes } from '#server/features/admin/ops.routes.ts'
import { registerAdminControlRoutes } from '#server/features/admin/controls.routes.ts'
import { registerDomainListRoutes } from '#server/features/domain-lists/domain-lists.routes.ts'
import { registerHealthRoutes } from '#server/features/health/health.routes.ts'
import { registerMailboxRoutes } from '#server/features/mailboxes/mailboxes.routes.ts'
import { registerSettingsRoutes } from '#server/features/settings/settings.routes.ts'
import { registerWaitlistRoutes, WAITLIST_RATE_LIMIT } from '#server/features/waitlist/waitlist.routes.ts'
import { registerWebhookRoutes } from '#server/features/webhooks/webhooks.routes.ts'
import { createWebhookService } from '#server/features/webhooks/webhooks.service.ts'
import type { Services } from '#server/services.ts'
import { registerCanonicalHost } from '#server/plugins/canonical-host.ts'
import { registerCsrfGuard } from '#server/plugins/csrf.ts'
import { ForbiddenJsonKeyError, InvalidJsonError, registerErrorHandler } from '#server/plugins/error-handler.ts'
import { createLogger } from '#server/plugins/logging.ts'
import { databaseRateLimitStore } from '#server/plugins/rate-limit-store.ts'
import { registerSecurityHeaders } from '#server/plugins/security-headers.ts'
import { registerSession } from '#server/plugins/session.ts'
import { registerStaticClient } from '#server/plugins/static-client.ts'
import { checkedValidatorCompiler } from '#server/plugins/validation.ts'
import type { AuthProvider } from '#shared/api/auth.ts'

export interface AppDeps {
  config: Config
  db: Database
  /** Where logs go (tests capture them); stdout by default. */
  logDestination?: DestinationStream
  /** Built client folder; defaults to dist/client. */
  clientDir?: string
  /** Sign-in rate limit per IP; defaults to 30 requests a minute per endpoint. */
  authRateLimit?: { max: number; timeWindow: number }
  /** Waitlist rate limit per user; defaults to WAITLIST_RATE_LIMIT. */
  waitlistRateLimit?: { max: number; timeWindow: number }
  /** Replaces the real OAuth providers (tests that need a tampering identity provider). */
  signInProviders?: Record<AuthProvider, SignInProvider>
  /** The services shared with the job workers (src/server/services.ts). */
  services: Services
  /** Demo mode: the demo mailboxes (fills new ones, takes `npm run demo:deliver`). */
  demoMailboxes?: DemoMailboxes
  /** Poll rate limit per user; defaults to POLL_RATE_LIMIT. */
  pollRateLimit?: { max: number; timeWindow: number }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH'])

export interface ApiRouteInfo {
  method: string
  url: string
  schema: { body?: unknown; querystring?: unknown; params?: unknown }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every registered /_api route (method, URL pattern, request schemas). */
    apiRoutes: readonly ApiRouteInfo[]
  }
}

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops

/** Builds the HTTP app: cross-cutting plugins first, then feature routes (STYLE.md 8). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps
  const app = Fastify({
    loggerInstance: createLogger(config, deps.logDestination) as FastifyBaseLogger,
    // A hop count trusts that many proxies in front of us (what Fastify does for numbers at runtime).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 64 * 1024,
    // Fastify's own "incoming request" lines would log raw URLs; ours are masked (see onResponse).
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
  })

  // Every /_api route as registered, for tests that sweep all routes (malformed input, authorization).
  const apiRoutes: ApiRouteInfo[] = []
  app.decorate('apiRoutes', apiRoutes)
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/_api/')) return
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue
      apiRoutes.push({ method, url: route.url, schema: (route.schema ?? {}) as ApiRouteInfo['schema'] })
    }
  })

  app.setValidatorCompiler(checkedValidatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  registerErrorHandler(app)

  // An empty POST body is treated as {} so validation reports the field-level message
  // (e.g. 'Temporary token is required', SPEC 5) rather than "expected object". Bodies are parsed
  // as Fastify's default parser does, with secure-json-parse refusing `__proto__` and
  // `constructor.prototype` keys so a body cannot poison prototypes.
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8')
    if (text.trim() === '') return done(null, {})
    try {
      done(null, secureJsonParse.parse(text, null, { protoAction: 'error', constructorAction: 'error' }))
    } catch (error) {
      done(error instanceof SyntaxError && /forbidden prototype property/i.test(error.message) ? new ForbiddenJsonKeyError() : new InvalidJsonError(), undefined)
    }
  })
  app.addHook('preValidation', async (request) => {
    if (STATE_CHANGING.has(request.method) && (request.body === undefined || request.body === null)) request.body = {}
  })

  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ req: request, res: { statusCode: reply.statusCode }, ms: Math.round(reply.elapsedTime) }, 'request completed')
  })

  registerCanonicalHost(app, config)
  await registerSecurityHeaders(app, config)
  await app.register(cookie)
  // Counters live in the database so every web process shares one limit (decision 021).
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(db) })
  registerCsrfGuard(app, config)
  registerSession(app, db)

  const providers = deps.signInProviders ?? createSignInProviders(config)
  const auth = createAuthService({ db, config, providers })
  registerAppInfoRoutes(app, { config })
  registerOpenApiRoutes(app)
  registerAuthRoutes(app, { config, auth, rateLimit: deps.authRateLimit ?? { max: 30, timeWindow: 60_000 } })
  registerWaitlistRoutes(app, { db, rateLimit: deps.waitlistRateLimit ?? WAITLIST_RATE_LIMIT })

  const { mailboxes, activity, health } = deps.services
  registerMailboxRoutes(app, { config, mailboxes, rateLimit: deps.authRateLimit ?? { max: 30, timeWindow: 60_000 } })
  registerWebhookRoutes(app, { webhooks: createWebhookService({ db, config, mailboxes, log: app.log }) })
  registerSettingsRoutes(app, { db, mailboxes, pollRateLimit: deps.pollRateLimit })
  registerBillingRoutes(app, { billing: deps.services.billing })
  registerSessionRoutes(app, { db })
  registerAccountRoutes(app, { config, db, account: createAccountService({ db, mailboxes, billing: deps.services.billing, log: app.log }) })
  registerDomainListRoutes(app, { db })
  registerActivityRoutes(app, { activity })
  registerHealthRoutes(app, { health })
  registerOpsRoutes(app, { db, breakers: deps.services.breakers, health })
  registerAdminControlRoutes(app, { db, health, mailboxes })
  if (deps.demoMailboxes) registerDemoRoutes(app, { db, demoMailboxes: deps.demoMailboxes })

  await registerStaticClient(app, deps.clientDir)
  return app
}
