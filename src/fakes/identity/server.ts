import { FakeHttpError, json, parseJson, startFakeServer, type FakeRoute, type JournalEntry as FakeJournalEntry } from '#fakes/http/fake-server.ts'
import type { ProviderName } from './consent-page.ts'
import { googleRoutes, googleUrls } from './google.ts'
import { createSigningKey } from './keys.ts'
import { graphFaultBody, microsoftRoutes, microsoftUrls } from './microsoft.ts'
import { createOAuthCore, endpointName, notFoundBody, oauthFaultBody, splitScopes, type ClientRegistration, type IdentityEndpoint } from './oauth-core.ts'

/**
 * Local fakes of Google's and Microsoft's OAuth 2.0 / OpenID Connect endpoints (plus Graph `/me`), on one
 * loopback server built with the shared fake HTTP helper (src/fakes/http/fake-server.ts). Demo mode starts
 * them when no real credentials are configured; tests start them to drive the app's real OAuth client over
 * HTTP. Each provider's routes live in google.ts and microsoft.ts, the flows they share in oauth-core.ts.
 * Behaviour follows /work/shared/reference/providers.md A1, B1, D1-D3; why fakes over stubs:
 * docs/decisions/004-local-fakes.md.
 */

export type { ClientRegistration, IdentityEndpoint }

export interface IdentityFakesOptions {
  host?: string
  port?: number
  google: ClientRegistration
  microsoft: ClientRegistration
  /** Access token lifetime in seconds (default: Google 3599, Microsoft 3600). */
  accessTokenTtlSeconds?: number
}

export interface FaultSpec {
  provider: ProviderName
  endpoint: IdentityEndpoint
  status: number
  /** JSON-serialised unless a string. Defaults to a provider-style error body for the status. */
  body?: unknown
  headers?: Record<string, string>
  /** How many requests the fault answers (default 1). */
  times?: number
}

export interface JournalEntry {
  at: string
  provider: ProviderName | 'admin'
  endpoint: IdentityEndpoint | 'admin' | 'unknown'
  method: string
  /** Path without the query string: codes, states and tokens never enter the journal. */
  path: string
  status: number
  grantType?: string
  /** OAuth error code of the response, when it was an error. */
  error?: string
}

export interface TokenIntrospection {
  provider: ProviderName
  clientId: string
  email: string
  name: string
  scopes: string[]
  expiresAt: Date
}

export interface IdentityFakes {
  origin: string
  google: { authorizeUrl: string; tokenUrl: string; jwksUrl: string; issuer: string; discoveryUrl: string; userinfoUrl: string; revokeUrl: string }
  microsoft: {
    authorizeUrl: string
    tokenUrl: string
    jwksUrl: string
    issuerTemplate: string
    graphUrl: string
    discoveryUrl: string
  }
  /** Every request answered, oldest first: a copy as of this read. */
  journal: JournalEntry[]
  clearJournal(): void
  injectFault(fault: FaultSpec): void
  clearFaults(): void
  /** Moves the fakes' clock (codes, access tokens and id token times follow it). */
  advanceClock(ms: number): void
  now(): Date
  setAccessTokenTtl(seconds: number, provider?: ProviderName): void
  /**
   * Ends every grant issued so far for that identity (or everyone): refresh tokens then fail with
   * invalid_grant and access tokens with 401, as after a password change or user revocation.
   */
  revokeRefreshTokens(provider: ProviderName, email?: string): void
  /** For other fakes (Gmail, Graph mail): who an access token belongs to, or null if invalid/expired. */
  introspect(provider: ProviderName, accessToken: string): TokenIntrospection | null
  close(): Promise<void>
}

const MAX_BODY_BYTES = 64 * 1024
const INVALID_JSON = { error: 'invalid_request', error_description: 'Body must be JSON.' }

/** The helper journals routes as `google.token` (endpointName); callers read provider and endpoint apart. */
function identityEntry(entry: FakeJournalEntry): JournalEntry {
  const { at, method, path, status, grantType, error } = entry
  let provider: JournalEntry['provider'] = 'admin'
  let endpoint: JournalEntry['endpoint'] = 'admin'
  if (!path.startsWith('/__admin/')) {
    const [name, route] = entry.endpoint.split('.')
    if (route) {
      provider = name as ProviderName
      endpoint = route as IdentityEndpoint
    } else {
      // No route matched: name the provider from the path.
      provider = path.startsWith('/microsoft') ? 'microsoft' : path.startsWith('/google') ? 'google' : 'admin'
      endpoint = 'unknown'
    }
  }
  return { at, provider, endpoint, method, path, status, ...(typeof grantType === 'string' ? { grantType } : {}), ...(error ? { error } : {}) }
}

export async function startIdentityFakes(opts: IdentityFakesOptions): Promise<IdentityFakes> {
  const [googleKey, microsoftKey] = await Promise.all([createSigningKey(), createSigningKey()])
  const core = createOAuthCore({ accessTokenTtlSeconds: opts.accessTokenTtlSeconds })
  // Issuers and discovery documents name the origin, known once the server listens.
  let origin = ''
  const routes = [
    ...googleRoutes(core, { client: opts.google, key: googleKey, origin: () => origin }),
    ...microsoftRoutes(core, { client: opts.microsoft, key: microsoftKey, origin: () => origin }),
  ]

  /**
   * HTTP twins of the test hooks, for Playwright specs that run the fakes in another process. The helper
   * tries these before its own admin routes, so the journal and faults speak the identity shapes here
   * (provider + endpoint); DELETE /__admin/journal and /__admin/faults are the helper's.
   */
  const adminRoutes: FakeRoute[] = [
    { method: 'GET', pattern: '/__admin/journal', endpoint: 'admin', handle: () => json(200, api.journal) },
    {
      method: 'POST',
      pattern: '/__admin/faults',
      endpoint: 'admin',
      handle: (request) => {
        api.injectFault(parseJson<FaultSpec>(request, INVALID_JSON))
        return json(200, {})
      },
    },
    {
      method: 'POST',
      pattern: '/__admin/clock/advance',
      endpoint: 'admin',
      handle: (request) => {
        const ms = Number(parseJson(request, INVALID_JSON).ms)
        if (!Number.isFinite(ms)) throw new FakeHttpError(400, { error: 'invalid_request', error_description: 'ms must be a number.' }, {}, 'invalid_request')
        core.advanceClock(ms)
        return json(200, { now: new Date(core.now()).toISOString() })
      },
    },
    {
      method: 'POST',
      pattern: '/__admin/access-token-ttl',
      endpoint: 'admin',
      handle: (request) => {
        const b = parseJson(request, INVALID_JSON)
        api.setAccessTokenTtl(Number(b.seconds), b.provider === 'google' || b.provider === 'microsoft' ? b.provider : undefined)
        return json(200, {})
      },
    },
  ]

  const server = await startFakeServer({
    host: opts.host,
    port: opts.port,
    routes,
    adminRoutes,
    // Provider-style bodies for faults injected without one: Graph's `{error: {code, message}}`, OAuth's otherwise.
    faultBody: (status, endpoint) => (endpoint === endpointName('microsoft', 'graph') ? graphFaultBody(status) : oauthFaultBody(status)),
    notFoundBody,
    maxBodyBytes: MAX_BODY_BYTES,
    now: core.now,
  })
  origin = server.origin

  const api: IdentityFakes = {
    origin,
    google: googleUrls(origin),
    microsoft: microsoftUrls(origin),
    get journal() {
      return server.journal.map(identityEntry)
    },
    clearJournal: server.clearJournal,
    injectFault(fault) {
      if (fault.provider !== 'google' && fault.provider !== 'microsoft') throw new Error(`Unknown provider ${String(fault.provider)}`)
      if (!Number.isInteger(fault.status) || fault.status < 100 || fault.status > 599) throw new Error(`Invalid status ${fault.status}`)
      const { status, body, headers, times } = fault
      server.injectFault({ endpoint: endpointName(fault.provider, fault.endpoint), status, body, headers, times })
    },
    clearFaults: server.clearFaults,
    advanceClock: core.advanceClock,
    now: () => new Date(core.now()),
    setAccessTokenTtl: core.setAccessTokenTtl,
    revokeRefreshTokens: core.revokeGrants,
    introspect(provider, token) {
      const claims = core.validAccessToken(provider, token)
      if (!claims) return null
      return { provider, clientId: claims.c, email: claims.e, name: claims.n, scopes: splitScopes(claims.s), expiresAt: new Date(claims.x ?? 0) }
    },
    close: server.close,
  }
  return api
}
