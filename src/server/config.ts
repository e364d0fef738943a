import { z } from 'zod'

/**
 * The only reader of process.env (STYLE.md 11). Everything else receives a typed Config.
 * A bad value stops start-up with a message naming the variable, so a misconfigured deploy
 * fails loudly instead of half-working.
 */

/** Empty strings in .env files mean "not set", so defaults still apply. */
const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional())
const withDefault = (value: string) => z.preprocess((v) => (v === '' ? undefined : v), z.string().default(value))
const urlWithDefault = (value: string) => z.preprocess((v) => (v === '' ? undefined : v), z.url().default(value))
const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.url().optional())
const port = (fallback: number) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? fallback : v),
    z.coerce.number().int('must be a whole number').min(0).max(65535),
  )

const EnvSchema = z.object({
  NODE_ENV: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['development', 'production', 'test']).default('development')),
  PORT: port(3000),
  HOST: withDefault('0.0.0.0'),
  APP_URL: optionalUrl,
  DATA_DIR: withDefault('./data'),
  DATABASE_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  LOG_LEVEL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  /** false | true | hop count | comma list of trusted proxy addresses (Fastify trustProxy). */
  TRUST_PROXY: withDefault('false'),
  ADMIN_EMAILS: withDefault(''),

  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_AUTH_URL: urlWithDefault('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: urlWithDefault('https://oauth2.googleapis.com/token'),
  GOOGLE_JWKS_URL: urlWithDefault('https://www.googleapis.com/oauth2/v3/certs'),
  GOOGLE_ISSUER: withDefault('https://accounts.google.com'),

  MICROSOFT_CLIENT_ID: optionalString,
  MICROSOFT_CLIENT_SECRET: optionalString,
  MICROSOFT_TENANT: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^[A-Za-z0-9.-]+$/, 'must be a tenant id, a domain, common, organizations or consumers')
      .default('common'),
  ),
  MICROSOFT_AUTH_URL: optionalUrl,
  MICROSOFT_TOKEN_URL: optionalUrl,
  MICROSOFT_JWKS_URL: optionalUrl,
  MICROSOFT_ISSUER_TEMPLATE: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().includes('{tenantid}', { message: 'must contain {tenantid}' }).default('https://login.microsoftonline.com/{tenantid}/v2.0'),
  ),
  MICROSOFT_GRAPH_URL: urlWithDefault('https://graph.microsoft.com/v1.0'),

  TOKEN_ENCRYPTION_KEY: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  TOKEN_ENCRYPTION_KEY_VERSION: z.preprocess(
    (v) => (v === '' || v === undefined ? '1' : v),
    z.coerce.number().int('must be a whole number').min(1, 'must be 1 or more'),
  ),
  /** Keys of earlier versions, still able to decrypt: `1:secret,2:secret`. */
  TOKEN_ENCRYPTION_PREVIOUS_KEYS: withDefault(''),
  GMAIL_API_URL: urlWithDefault('https://gmail.googleapis.com'),
  GOOGLE_REVOKE_URL: urlWithDefault('https://oauth2.googleapis.com/revoke'),
  /** `projects/<project>/topics/<topic>` that Gmail publishes new-mail notifications to. */
  GMAIL_PUBSUB_TOPIC: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().regex(/^projects\/[^/]+\/topics\/[^/]+$/, 'must look like projects/<project>/topics/<topic>').optional(),
  ),
  /** The push subscription's OIDC audience; defaults to the webhook URL. */
  GMAIL_PUSH_AUDIENCE: optionalString,
  /** The service account the push subscription authenticates as (the JWT's email claim). */
  GMAIL_PUSH_SERVICE_ACCOUNT: optionalString,
  GMAIL_PUSH_JWKS_URL: urlWithDefault('https://www.googleapis.com/oauth2/v3/certs'),
  GMAIL_PUSH_ISSUER: withDefault('https://accounts.google.com'),
  LLM_BASE_URL: optionalUrl,
  LLM_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  /** Stripe (issue 16); empty means the local Stripe fake in demo mode. */
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_STANDARD_PRICE_ID: optionalString,
  /** Another Stripe API origin (tests and the local fake); default Stripe's own. */
  STRIPE_API_URL: optionalUrl,
  DEMO_IDP_PORT: port(0),
  /** web: HTTP only; worker: jobs only; all: both in one process (the default, and the only one PGlite allows). */
  ROLE: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['web', 'worker', 'all'], { error: 'must be web, worker or all' }).default('all')),
  /** Production only: runs demo sign-in (anyone signs in as anyone) on purpose, for a public demo. */
  ALLOW_DEMO_SIGN_IN: z.preprocess(
    (v) => (v === '' || v === undefined ? 'false' : v),
    z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true'),
  ),
})

export interface OAuthProviderConfig {
  clientId: string
  clientSecret: string
  authUrl: string
  tokenUrl: string
  jwksUrl: string
  /** True when no client id/secret is configured: local identity fakes stand in (DESIGN "Running it"). */
  demo: boolean
}

export interface GoogleProviderConfig extends OAuthProviderConfig {
  /** Google issues id tokens with either form of the issuer (reference A1/A3). */
  issuers: string[]
}

export interface MicrosoftProviderConfig extends OAuthProviderConfig {
  /** Issuer depends on the user's tenant (tid claim) when signing in through `common` (reference B1). */
  issuerTemplate: string
  graphUrl: string
}

export type TrustProxy = boolean | number | string[]

export interface Config {
  nodeEnv: 'development' | 'production' | 'test'
  port: number
  host: string
  appUrl: string
  /** Origin of APP_URL: redirect URIs, postMessage target and the CSRF check use it. */
  appOrigin: string
  dataDir: string
  databaseUrl: string | undefined
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  trustProxy: TrustProxy
  adminEmails: string[]
  google: GoogleProviderConfig
  microsoft: MicrosoftProviderConfig
  /** Current key (undefined: demo mode keeps a generated key under DATA_DIR) and earlier versions. */
  tokenEncryption: { key: string | undefined; version: number; previous: Array<{ version: number; secret: string }> }
  gmail: {
    apiUrl: string
    revokeUrl: string
    pubsubTopic: string | undefined
    push: { audience: string; serviceAccount: string | undefined; jwksUrl: string; issuers: string[] }
  }
  llm: { baseUrl: string | undefined; apiKey: string | undefined; model: string | undefined }
  /** Billing; `demo` when no secret key is set (the local Stripe fake is started and filled in). */
  stripe: { secretKey: string | undefined; webhookSecret: string | undefined; standardPriceId: string | undefined; apiUrl: string | undefined; demo: boolean }
  demoIdpPort: number
  /** Production with demo sign-in, opted into with ALLOW_DEMO_SIGN_IN=true. */
  allowDemoSignIn: boolean
  /** Which parts this process runs (README "Several processes"). */
  role: 'web' | 'worker' | 'all'
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

export const DEMO_CREDENTIALS = {
  google: { clientId: 'demo-google-client', clientSecret: 'demo-google-secret' },
  microsoft: { clientId: 'demo-microsoft-client', clientSecret: 'demo-microsoft-secret' },
} as const

/**
 * The admin in demo mode when ADMIN_EMAILS is empty, so a newcomer can sign in as this address and
 * see the admin panel (issue 18). Only when both sign-ins are the local fakes (where anyone can sign
 * in as anyone anyway) and never in production, where a public demo must not hand out admin.
 */
export const DEMO_ADMIN_EMAIL = 'admin@example.com'

function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.trim().toLowerCase()
  if (value === 'false' || value === '0' || value === '') return false
  if (value === 'true') return true
  if (/^\d+$/.test(value)) return Number(value)
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean)
  for (const entry of list) {
    if (!/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry)) {
      throw new ConfigError(`Invalid configuration: TRUST_PROXY: "${entry}" is not an IP address or CIDR range`)
    }
  }
  return list
}

function parsePreviousKeys(raw: string, currentVersion: number): Array<{ version: number; secret: string }> {
  const keys: Array<{ version: number; secret: string }> = []
  for (const entry of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    const match = /^(\d+):(.{32,})$/.exec(entry)
    // Don't echo the entry: it holds a secret.
    if (!match) throw new ConfigError('Invalid configuration: TOKEN_ENCRYPTION_PREVIOUS_KEYS: each entry must be <version>:<secret of 32+ characters>')
    const version = Number(match[1])
    if (version === currentVersion || keys.some((k) => k.version === version)) {
      throw new ConfigError(`Invalid configuration: TOKEN_ENCRYPTION_PREVIOUS_KEYS: key version ${version} appears twice (or equals TOKEN_ENCRYPTION_KEY_VERSION)`)
    }
    keys.push({ version, secret: match[2]! })
  }
  return keys
}

function parseAdminEmails(raw: string): string[] {
  const list = raw.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)
  for (const entry of list) {
    if (!z.email().safeParse(entry).success) {
      // Don't echo the value: it is an e-mail address and start-up errors end up in logs.
      throw new ConfigError('Invalid configuration: ADMIN_EMAILS: every entry must be an e-mail address')
    }
  }
  return list
}

function requirePair(id: string | undefined, secret: string | undefined, idName: string, secretName: string) {
  if (Boolean(id) !== Boolean(secret)) {
    const missing = id ? secretName : idName
    throw new ConfigError(`Invalid configuration: ${missing}: set both ${idName} and ${secretName}, or neither for demo mode`)
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
    throw new ConfigError(`Invalid configuration: ${lines.join('; ')}`)
  }
  const e = parsed.data

  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '')
  const appOrigin = new URL(appUrl).origin

  requirePair(e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET, 'GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET')
  requirePair(e.MICROSOFT_CLIENT_ID, e.MICROSOFT_CLIENT_SECRET, 'MICROSOFT_CLIENT_ID', 'MICROSOFT_CLIENT_SECRET')

  const googleIssuerForms = ['https://accounts.google.com', 'accounts.google.com']
  const googleIssuers = googleIssuerForms.includes(e.GOOGLE_ISSUER) ? googleIssuerForms : [e.GOOGLE_ISSUER]

  const msBase = `https://login.microsoftonline.com/${e.MICROSOFT_TENANT}`

  // Tokens of real mailboxes, or tokens in a database several processes share, need a key the
  // operator keeps; only the all-demo embedded setup may generate its own under DATA_DIR (issue 12).
  if (!e.TOKEN_ENCRYPTION_KEY && (e.GOOGLE_CLIENT_ID || e.MICROSOFT_CLIENT_ID || e.DATABASE_URL)) {
    throw new ConfigError(
      'Invalid configuration: TOKEN_ENCRYPTION_KEY: required (32+ characters) when Google or Microsoft credentials or DATABASE_URL are set; ' +
        'it encrypts mailbox tokens at rest. Generate one with `openssl rand -base64 48`.',
    )
  }

  const demoProviders = [!e.GOOGLE_CLIENT_ID && 'Google', !e.MICROSOFT_CLIENT_ID && 'Microsoft'].filter(Boolean)
  if (e.STRIPE_SECRET_KEY && (!e.STRIPE_WEBHOOK_SECRET || !e.STRIPE_STANDARD_PRICE_ID)) {
    throw new ConfigError('Invalid configuration: STRIPE_SECRET_KEY needs STRIPE_WEBHOOK_SECRET and STRIPE_STANDARD_PRICE_ID (README "Billing")')
  }

  // Separate web and worker processes share work through PostgreSQL; the embedded database, and demo
  // mode's in-process fakes, belong to one process.
  if (e.ROLE !== 'all' && !e.DATABASE_URL) {
    throw new ConfigError(`Invalid configuration: ROLE=${e.ROLE} needs DATABASE_URL: web and worker processes share one PostgreSQL (the embedded database is single-process).`)
  }
  if (e.ROLE !== 'all' && demoProviders.length > 0) {
    throw new ConfigError(`Invalid configuration: ROLE=${e.ROLE} needs real Google and Microsoft credentials: demo mode runs its local fakes inside one process (ROLE=all).`)
  }

  // In production the local identity fakes would let anyone sign in as anyone, so demo sign-in
  // needs an explicit opt-in (issue 11 item 7).
  if (e.NODE_ENV === 'production' && demoProviders.length > 0 && !e.ALLOW_DEMO_SIGN_IN) {
    throw new ConfigError(
      `Invalid configuration: NODE_ENV=production but ${demoProviders.join(' and ')} sign-in has no credentials ` +
        '(GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET, MICROSOFT_CLIENT_ID/MICROSOFT_CLIENT_SECRET), so it would run the demo ' +
        'sign-in in which anyone can sign in as anyone. Set the credentials, or ALLOW_DEMO_SIGN_IN=true to run a public demo on purpose.',
    )
  }

  const adminEmails = parseAdminEmails(e.ADMIN_EMAILS)
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    appUrl,
    appOrigin,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    adminEmails: adminEmails.length === 0 && demoProviders.length === 2 && e.NODE_ENV !== 'production' ? [DEMO_ADMIN_EMAIL] : adminEmails,
    google: {
      clientId: e.GOOGLE_CLIENT_ID ?? DEMO_CREDENTIALS.google.clientId,
      clientSecret: e.GOOGLE_CLIENT_SECRET ?? DEMO_CREDENTIALS.google.clientSecret,
      authUrl: e.GOOGLE_AUTH_URL,
      tokenUrl: e.GOOGLE_TOKEN_URL,
      jwksUrl: e.GOOGLE_JWKS_URL,
      issuers: googleIssuers,
      demo: !e.GOOGLE_CLIENT_ID,
    },
    microsoft: {
      clientId: e.MICROSOFT_CLIENT_ID ?? DEMO_CREDENTIALS.microsoft.clientId,
      clientSecret: e.MICROSOFT_CLIENT_SECRET ?? DEMO_CREDENTIALS.microsoft.clientSecret,
      authUrl: e.MICROSOFT_AUTH_URL ?? `${msBase}/oauth2/v2.0/authorize`,
      tokenUrl: e.MICROSOFT_TOKEN_URL ?? `${msBase}/oauth2/v2.0/token`,
      jwksUrl: e.MICROSOFT_JWKS_URL ?? `${msBase}/discovery/v2.0/keys`,
      issuerTemplate: e.MICROSOFT_ISSUER_TEMPLATE,
      graphUrl: e.MICROSOFT_GRAPH_URL.replace(/\/+$/, ''),
      demo: !e.MICROSOFT_CLIENT_ID,
    },
    tokenEncryption: { key: e.TOKEN_ENCRYPTION_KEY, version: e.TOKEN_ENCRYPTION_KEY_VERSION, previous: parsePreviousKeys(e.TOKEN_ENCRYPTION_PREVIOUS_KEYS, e.TOKEN_ENCRYPTION_KEY_VERSION) },
    gmail: {
      apiUrl: e.GMAIL_API_URL.replace(/\/+$/, ''),
      revokeUrl: e.GOOGLE_REVOKE_URL,
      pubsubTopic: e.GMAIL_PUBSUB_TOPIC,
      push: {
        audience: e.GMAIL_PUSH_AUDIENCE ?? `${appUrl}/_api/webhooks/gmail`,
        serviceAccount: e.GMAIL_PUSH_SERVICE_ACCOUNT,
        jwksUrl: e.GMAIL_PUSH_JWKS_URL,
        issuers: googleIssuerForms.includes(e.GMAIL_PUSH_ISSUER) ? googleIssuerForms : [e.GMAIL_PUSH_ISSUER],
      },
    },
    llm: { baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY, model: e.LLM_MODEL },
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      standardPriceId: e.STRIPE_STANDARD_PRICE_ID,
      apiUrl: e.STRIPE_API_URL?.replace(/\/+$/, ''),
      demo: !e.STRIPE_SECRET_KEY,
    },
    demoIdpPort: e.DEMO_IDP_PORT,
    allowDemoSignIn: e.ALLOW_DEMO_SIGN_IN,
    role: e.ROLE,
  }
}

/** Settings that start the app but deserve an operator's attention; main.ts logs them at start. */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = []
  if (config.nodeEnv === 'production' && config.trustProxy === true) {
    warnings.push(
      'TRUST_PROXY=true trusts X-Forwarded-For from every client, so any client can choose the IP address the app ' +
        'records and rate-limits by. Set the number of proxies in front of the app (TRUST_PROXY=1) or their addresses instead.',
    )
  }
  if (config.nodeEnv === 'production' && isDemoMode(config)) {
    warnings.push('ALLOW_DEMO_SIGN_IN=true: demo sign-in is on in production, so anyone can sign in as anyone.')
  }
  return warnings
}

/** True when at least one sign-in provider runs against the local identity fakes. */
export const isDemoMode = (config: Config) => config.google.demo || config.microsoft.demo

/**
 * Tests only: an admin connection URL to a PostgreSQL server on which each test file creates (and
 * drops) its own database. Read here because this module is the only reader of process.env.
 */
export function readTestDatabaseUrl(env: Record<string, string | undefined> = process.env): string | undefined {
  return env.TEST_DATABASE_URL || undefined
}
