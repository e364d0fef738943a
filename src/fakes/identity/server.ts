import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { CONSENT_FIELDS, renderConsentPage, renderErrorPage, type ProviderName } from './consent-page.ts'
import {
  googleSubject,
  isValidEmail,
  microsoftObjectId,
  microsoftPairwiseSubject,
  microsoftTenantId,
  nameFromEmail,
  normalizeEmail,
  splitName,
} from './identities.ts'
import { createSigningKey, type SigningKey } from './keys.ts'
import { mintToken, newTokenId, readToken, type TokenClaims } from './tokens.ts'

/**
 * Local fakes of Google's and Microsoft's OAuth 2.0 / OpenID Connect endpoints (plus Graph `/me`), on one
 * loopback HTTP server. Demo mode starts them when no real credentials are configured; tests start them
 * to drive the app's real OAuth client over HTTP. Behaviour follows /work/shared/reference/providers.md
 * A1, B1, D1-D3; why fakes over stubs: docs/decisions/004-local-fakes.md.
 */

export interface ClientRegistration {
  clientId: string
  clientSecret: string
  /** When given, authorize requests must use one of these exactly (as the real consoles enforce). */
  redirectUris?: string[]
}

export interface IdentityFakesOptions {
  host?: string
  port?: number
  google: ClientRegistration
  microsoft: ClientRegistration
  /** Access token lifetime in seconds (default: Google 3599, Microsoft 3600). */
  accessTokenTtlSeconds?: number
}

export type IdentityEndpoint = 'authorize' | 'token' | 'jwks' | 'discovery' | 'graph' | 'userinfo' | 'revoke'

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
  /** Every request answered, oldest first. */
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

interface AuthorizeRequest {
  provider: ProviderName
  tenant: string
  clientId: string
  redirectUri: string
  scopes: string[]
  state: string
  codeChallenge: string
  codeChallengeMethod: 'S256' | 'plain'
  nonce?: string
  accessType?: string
  prompt?: string
}

/** Who consented, and whether the provider vouches for the address (email_verified / xms_edov). */
interface Grant {
  clientId: string
  email: string
  name: string
  emailVerified: boolean
  scopes: string[]
  nonce?: string
}

interface CodeGrant extends AuthorizeRequest {
  email: string
  name: string
  emailVerified: boolean
  expiresAt: number
  used: boolean
  /** Token ids issued from this code, revoked if the code is replayed (RFC 6749 §4.1.2). */
  issued: string[]
}

type AuthorizeProblem =
  | { kind: 'page'; status: number; error: string; description: string }
  | { kind: 'redirect'; redirectUri: string; state?: string; error: string; description: string }

const CODE_TTL_MS = 10 * 60 * 1000
/**
 * Whether the provider vouches for the address when the consent form does not say: Google marks a
 * Google account's address `email_verified: true`; Microsoft sends no verification unless the app
 * registration asks for the optional `xms_edov` claim and the tenant verified the domain (B1).
 */
const DEFAULT_EMAIL_VERIFIED: Record<ProviderName, boolean> = { google: true, microsoft: false }
const ID_TOKEN_TTL_S = 3600
const MAX_BODY_BYTES = 64 * 1024
const MICROSOFT_GRAPH_RESOURCE = 'https://graph.microsoft.com/'
const MICROSOFT_OIDC_SCOPES = new Set(['openid', 'profile', 'email', 'offline_access'])
const GOOGLE_SCOPE_ALIASES: Record<string, string> = {
  email: 'https://www.googleapis.com/auth/userinfo.email',
  profile: 'https://www.googleapis.com/auth/userinfo.profile',
}
const MS_USER_READ_SCOPES = ['User.Read', 'User.ReadWrite', 'User.ReadBasic.All', 'User.Read.All', 'Directory.Read.All']
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.error === 'string' ? body.error : 'error')
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest()
  const y = createHash('sha256').update(b).digest()
  return timingSafeEqual(x, y)
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url')
}

function splitScopes(scope: string | undefined): string[] {
  return (scope ?? '').split(/\s+/).filter(Boolean)
}

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.hash
  } catch {
    return false
  }
}

function withQuery(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base)
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v)
  return url.toString()
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buf = chunk as Buffer
    size += buf.length
    if (size > MAX_BODY_BYTES) throw new HttpError(413, { error: 'invalid_request', error_description: 'Request body too large' })
    chunks.push(buf)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** Form parameters; a repeated parameter is an error in OAuth (RFC 6749 §3.1, §3.2). */
function formParams(search: URLSearchParams): { params: Record<string, string>; duplicate?: string } {
  const params: Record<string, string> = {}
  let duplicate: string | undefined
  for (const [k, v] of search) {
    if (k in params) duplicate ??= k
    else params[k] = v
  }
  return { params, duplicate }
}

export async function startIdentityFakes(opts: IdentityFakesOptions): Promise<IdentityFakes> {
  const host = opts.host ?? '127.0.0.1'
  const keys: Record<ProviderName, SigningKey> = { google: await createSigningKey(), microsoft: await createSigningKey() }
  const clients: Record<ProviderName, ClientRegistration> = { google: opts.google, microsoft: opts.microsoft }
  const ttl: Record<ProviderName, number> = {
    google: opts.accessTokenTtlSeconds ?? 3599,
    microsoft: opts.accessTokenTtlSeconds ?? 3600,
  }
  let clockOffsetMs = 0
  const now = () => Date.now() + clockOffsetMs
  const codes = new Map<string, CodeGrant>()
  const revokedTokenIds = new Set<string>()
  /** provider:email (or provider:*) → tokens issued at or before this time are revoked. */
  const revokedBefore = new Map<string, number>()
  /** Google issues a refresh token on first consent only (or with prompt=consent) — providers.md A1. */
  const googleConsented = new Set<string>()
  const faults: (FaultSpec & { remaining: number })[] = []
  const journal: JournalEntry[] = []
  let origin = ''

  const googleBase = () => `${origin}/google`
  const msBase = () => `${origin}/microsoft`
  const msIssuer = (tid: string) => `${msBase()}/${tid}/v2.0`

  let lastRevocation = 0
  /** Issue time for a new token: strictly after any revocation, so a revocation never hits newer tokens. */
  const issueTime = () => Math.max(now(), lastRevocation + 1)
  function revokeUpTo(key: string): void {
    lastRevocation = Math.max(now(), lastRevocation + 1)
    revokedBefore.set(key, lastRevocation)
  }

  function isRevoked(claims: TokenClaims): boolean {
    if (revokedTokenIds.has(claims.j)) return true
    for (const key of [`${claims.p}:${normalizeEmail(claims.e)}`, `${claims.p}:*`]) {
      const before = revokedBefore.get(key)
      if (before !== undefined && claims.i <= before) return true
    }
    return false
  }

  function validAccessToken(provider: ProviderName, token: string): TokenClaims | null {
    const claims = readToken(token, provider, 'access')
    if (!claims || isRevoked(claims) || (claims.x ?? 0) <= now()) return null
    return claims
  }

  // ---------- error bodies in each provider's style ----------

  function oauthError(provider: ProviderName, status: number, error: string, description: string, aadsts?: number): HttpError {
    if (provider === 'google') return new HttpError(status, { error, error_description: description })
    const code = aadsts ?? 90000
    return new HttpError(status, {
      error,
      error_description: `AADSTS${code}: ${description} Trace ID: ${randomUUID()} Correlation ID: ${randomUUID()} Timestamp: ${new Date(now()).toISOString().replace('T', ' ').slice(0, 19)}Z`,
      error_codes: [code],
      timestamp: new Date(now()).toISOString().replace('T', ' ').slice(0, 19) + 'Z',
      trace_id: randomUUID(),
      correlation_id: randomUUID(),
    })
  }

  function graphError(status: number, code: string, message: string): HttpError {
    const headers: Record<string, string> = {}
    if (status === 401) headers['WWW-Authenticate'] = `Bearer realm="", authorization_uri="${msBase()}/common/oauth2/v2.0/authorize"`
    return new HttpError(
      status,
      { error: { code, message, innerError: { date: new Date(now()).toISOString().slice(0, 19), 'request-id': randomUUID(), 'client-request-id': randomUUID() } } },
      headers,
    )
  }

  // ---------- authorize ----------

  function validateAuthorize(provider: ProviderName, tenant: string, p: Record<string, string>, duplicate?: string): AuthorizeRequest | AuthorizeProblem {
    const client = clients[provider]
    if (!p.client_id || p.client_id !== client.clientId) {
      return provider === 'google'
        ? { kind: 'page', status: 401, error: 'invalid_client', description: 'The OAuth client was not found.' }
        : {
            kind: 'page',
            status: 400,
            error: 'unauthorized_client',
            description: `AADSTS700016: Application with identifier '${p.client_id ?? ''}' was not found in the directory.`,
          }
    }
    const redirectUri = p.redirect_uri
    if (!redirectUri || !isAbsoluteHttpUrl(redirectUri) || (client.redirectUris && !client.redirectUris.includes(redirectUri))) {
      return provider === 'google'
        ? { kind: 'page', status: 400, error: 'redirect_uri_mismatch', description: `redirect_uri is missing or not registered for this client: ${redirectUri ?? '(none)'}` }
        : {
            kind: 'page',
            status: 400,
            error: 'invalid_request',
            description: `AADSTS50011: The redirect URI '${redirectUri ?? ''}' specified in the request does not match the redirect URIs configured for the application '${client.clientId}'.`,
          }
    }
    // From here on the redirect URI is trusted: Microsoft reports problems back to the app, Google shows a page.
    const problem = (error: string, description: string, aadsts: number): AuthorizeProblem =>
      provider === 'google'
        ? { kind: 'page', status: 400, error, description }
        : { kind: 'redirect', redirectUri, state: p.state, error, description: `AADSTS${aadsts}: ${description}` }
    if (duplicate) return problem('invalid_request', `Parameter '${duplicate}' was sent more than once.`, 90015)
    for (const name of ['response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method']) {
      if (!p[name]) return problem('invalid_request', `Required parameter is missing: ${name}`, 900144)
    }
    if (p.response_type !== 'code') {
      return problem('unsupported_response_type', `Only response_type=code is supported, got '${p.response_type}'.`, 700054)
    }
    if (provider === 'microsoft' && p.response_mode && p.response_mode !== 'query') {
      return problem('invalid_request', `This fake supports only response_mode=query, got '${p.response_mode}'.`, 900144)
    }
    // The fakes keep no sign-in session, so a silent request always needs interaction.
    if (splitScopes(p.prompt).includes('none')) {
      return { kind: 'redirect', redirectUri, state: p.state, error: 'login_required', description: provider === 'microsoft' ? 'AADSTS50058: A silent sign-in request was sent but no user is signed in.' : 'No session: prompt=none cannot be satisfied.' }
    }
    const scopes = splitScopes(p.scope)
    if (!scopes.includes('openid')) return problem('invalid_scope', "The scope must include 'openid'.", 70011)
    const method = p.code_challenge_method
    if (method !== 'S256' && !(provider === 'google' && method === 'plain')) {
      return problem('invalid_request', `Unsupported code_challenge_method '${method}'.`, 501491)
    }
    if (!PKCE_VALUE.test(p.code_challenge ?? '')) {
      return problem('invalid_request', 'Invalid code_challenge: 43-128 characters of [A-Za-z0-9-._~] expected.', 501491)
    }
    return {
      provider,
      tenant,
      clientId: client.clientId,
      redirectUri,
      scopes,
      state: p.state ?? '',
      codeChallenge: p.code_challenge ?? '',
      codeChallengeMethod: method,
      nonce: p.nonce || undefined,
      accessType: p.access_type || undefined,
      prompt: p.prompt || undefined,
    }
  }

  function sendPage(res: ServerResponse, status: number, render: (nonce: string) => string): void {
    const nonce = randomBytes(16).toString('base64')
    // Deliberately no Cross-Origin-Opener-Policy: the app's sign-in popup must keep window.opener.
    res.writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; frame-ancestors 'none'`,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    })
    res.end(render(nonce))
  }

  function redirect(res: ServerResponse, location: string): void {
    res.writeHead(302, { Location: location, 'Cache-Control': 'no-store' })
    res.end()
  }

  function handleAuthorizeProblem(res: ServerResponse, provider: ProviderName, problem: AuthorizeProblem, entry: Partial<JournalEntry>): void {
    entry.error = problem.error
    if (problem.kind === 'page') {
      sendPage(res, problem.status, (nonce) => renderErrorPage({ provider, nonce, ...problem }))
    } else {
      redirect(res, withQuery(problem.redirectUri, { error: problem.error, error_description: problem.description, state: problem.state }))
    }
  }

  async function authorize(req: IncomingMessage, res: ServerResponse, url: URL, provider: ProviderName, tenant: string, entry: Partial<JournalEntry>): Promise<void> {
    const action = url.pathname
    if (req.method === 'GET') {
      const { params, duplicate } = formParams(url.searchParams)
      const result = validateAuthorize(provider, tenant, params, duplicate)
      if ('kind' in result) return handleAuthorizeProblem(res, provider, result, entry)
      sendPage(res, 200, (nonce) =>
        renderConsentPage({ provider, nonce, action, params, clientId: result.clientId, scope: result.scopes.join(' '), email: params.login_hint }),
      )
      return
    }
    if (req.method !== 'POST') throw new HttpError(405, { error: 'method_not_allowed' }, { Allow: 'GET, POST' })
    const { params: all, duplicate } = formParams(new URLSearchParams(await readBody(req)))
    const params = Object.fromEntries(Object.entries(all).filter(([k]) => !CONSENT_FIELDS.has(k)))
    const result = validateAuthorize(provider, tenant, params, duplicate)
    if ('kind' in result) return handleAuthorizeProblem(res, provider, result, entry)
    if (all.decision === 'deny') {
      entry.error = 'access_denied'
      const description = provider === 'microsoft' ? 'AADSTS65004: User declined to consent to access the app.' : undefined
      return redirect(res, withQuery(result.redirectUri, { error: 'access_denied', error_description: description, state: result.state }))
    }
    if (all.decision !== 'allow') throw new HttpError(400, { error: 'invalid_request', error_description: "decision must be 'allow' or 'deny'" })
    const email = (all.email ?? '').trim()
    if (!isValidEmail(email)) {
      entry.error = 'invalid_email'
      sendPage(res, 400, (nonce) =>
        renderConsentPage({
          provider,
          nonce,
          action,
          params,
          clientId: result.clientId,
          scope: result.scopes.join(' '),
          email,
          name: all.name,
          emailVerified: all.email_verified === undefined ? undefined : all.email_verified === 'true',
          error: email ? `“${email}” is not a valid email address. Enter an address like name@example.com.` : 'Enter an email address.',
        }),
      )
      return
    }
    const name = (all.name ?? '').trim() || nameFromEmail(email)
    const emailVerified = all.email_verified === undefined ? DEFAULT_EMAIL_VERIFIED[provider] : all.email_verified === 'true'
    const code = `${provider === 'google' ? '4/0' : 'M.C5_'}${randomBytes(32).toString('base64url')}`
    codes.set(code, { ...result, email, name, emailVerified, expiresAt: now() + CODE_TTL_MS, used: false, issued: [] })
    if (provider === 'google') {
      redirect(res, withQuery(result.redirectUri, { code, scope: googleGrantedScopes(result.scopes).join(' '), authuser: '0', prompt: 'consent', state: result.state }))
    } else {
      redirect(res, withQuery(result.redirectUri, { code, state: result.state }))
    }
  }

  // ---------- token ----------

  function googleGrantedScopes(scopes: string[]): string[] {
    return [...new Set(scopes.map((s) => GOOGLE_SCOPE_ALIASES[s] ?? s))].sort()
  }

  /** Microsoft reports Graph short names as full resource URIs, and OIDC scopes as they are. */
  function microsoftGrantedScopes(scopes: string[]): string[] {
    return [...new Set(scopes.map((s) => (MICROSOFT_OIDC_SCOPES.has(s) || s.includes('://') ? s : `${MICROSOFT_GRAPH_RESOURCE}${s}`)))]
  }

  function authenticateClient(provider: ProviderName, req: IncomingMessage, p: Record<string, string>): ClientRegistration {
    const client = clients[provider]
    let clientId = p.client_id
    let secret = p.client_secret
    const header = req.headers.authorization
    if (header?.toLowerCase().startsWith('basic ')) {
      const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8')
      const colon = decoded.indexOf(':')
      if (colon < 0) throw oauthError(provider, 401, 'invalid_client', 'Malformed Basic credentials.', 7000215)
      // RFC 6749 §2.3.1 form-encodes both parts; many clients (arctic) do not. Accept either.
      const decode = (v: string) => {
        try {
          return decodeURIComponent(v.replace(/\+/g, ' '))
        } catch {
          return v
        }
      }
      const rawId = decoded.slice(0, colon)
      const rawSecret = decoded.slice(colon + 1)
      clientId = rawId === client.clientId || decode(rawId) !== client.clientId ? rawId : decode(rawId)
      secret = safeEqual(rawSecret, client.clientSecret) ? rawSecret : decode(rawSecret)
    }
    if (!clientId || clientId !== client.clientId) {
      throw provider === 'google'
        ? oauthError(provider, 401, 'invalid_client', 'The OAuth client was not found.')
        : oauthError(provider, 400, 'unauthorized_client', `Application with identifier '${clientId ?? ''}' was not found in the directory.`, 700016)
    }
    if (!secret) {
      throw provider === 'google'
        ? oauthError(provider, 400, 'invalid_request', 'client_secret is missing.')
        : oauthError(provider, 401, 'invalid_client', "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.", 7000218)
    }
    if (!safeEqual(secret, client.clientSecret)) {
      throw provider === 'google'
        ? oauthError(provider, 401, 'invalid_client', 'Unauthorized')
        : oauthError(provider, 401, 'invalid_client', 'Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.', 7000215)
    }
    return client
  }

  async function idToken(provider: ProviderName, grant: Grant): Promise<string> {
    const iat = Math.floor(now() / 1000)
    const { given, family } = splitName(grant.name)
    if (provider === 'google') {
      return keys.google.sign({
        iss: googleBase(),
        azp: grant.clientId,
        aud: grant.clientId,
        sub: googleSubject(grant.email),
        email: normalizeEmail(grant.email),
        email_verified: grant.emailVerified,
        name: grant.name,
        given_name: given,
        ...(family ? { family_name: family } : {}),
        ...(grant.nonce ? { nonce: grant.nonce } : {}),
        iat,
        exp: iat + ID_TOKEN_TTL_S,
      })
    }
    const tid = microsoftTenantId(grant.email)
    return keys.microsoft.sign({
      ver: '2.0',
      iss: msIssuer(tid),
      aud: grant.clientId,
      iat,
      nbf: iat,
      exp: iat + ID_TOKEN_TTL_S,
      tid,
      oid: microsoftObjectId(grant.email),
      sub: microsoftPairwiseSubject(grant.email, grant.clientId),
      name: grant.name,
      preferred_username: grant.email,
      // xms_edov ("email domain owner verified") is Microsoft's only statement that the address is
      // verified; without it the email claim is whatever the tenant typed in (B1).
      ...(grant.scopes.includes('email') ? { email: grant.email, ...(grant.emailVerified ? { xms_edov: true } : {}) } : {}),
      ...(grant.nonce ? { nonce: grant.nonce } : {}),
    })
  }

  function accessToken(provider: ProviderName, grant: Grant): { token: string; id: string; expiresIn: number } {
    const id = newTokenId()
    const issuedAt = issueTime()
    const expiresIn = ttl[provider]
    const token = mintToken({ p: provider, k: 'access', c: grant.clientId, e: grant.email, n: grant.name, v: grant.emailVerified, s: grant.scopes.join(' '), j: id, i: issuedAt, x: issuedAt + expiresIn * 1000 })
    return { token, id, expiresIn }
  }

  function refreshToken(provider: ProviderName, grant: Grant): { token: string; id: string } {
    const id = newTokenId()
    return { token: mintToken({ p: provider, k: 'refresh', c: grant.clientId, e: grant.email, n: grant.name, v: grant.emailVerified, s: grant.scopes.join(' '), j: id, i: issueTime() }), id }
  }

  async function tokenResponse(
    provider: ProviderName,
    grant: Grant,
    refresh: { token: string } | undefined,
  ): Promise<{ body: Record<string, unknown>; ids: string[] }> {
    const access = accessToken(provider, grant)
    const id = grant.scopes.includes('openid') ? await idToken(provider, grant) : undefined
    if (provider === 'google') {
      return {
        ids: [access.id],
        body: {
          access_token: access.token,
          expires_in: access.expiresIn,
          ...(refresh ? { refresh_token: refresh.token } : {}),
          scope: googleGrantedScopes(grant.scopes).join(' '),
          token_type: 'Bearer',
          ...(id ? { id_token: id } : {}),
        },
      }
    }
    return {
      ids: [access.id],
      body: {
        token_type: 'Bearer',
        scope: microsoftGrantedScopes(grant.scopes).join(' '),
        expires_in: access.expiresIn,
        ext_expires_in: access.expiresIn,
        access_token: access.token,
        ...(refresh ? { refresh_token: refresh.token } : {}),
        ...(id ? { id_token: id } : {}),
      },
    }
  }

  async function token(req: IncomingMessage, res: ServerResponse, provider: ProviderName, entry: Partial<JournalEntry>): Promise<void> {
    if (req.method !== 'POST') throw new HttpError(405, { error: 'invalid_request', error_description: 'Use POST' }, { Allow: 'POST' })
    const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase()
    const raw = await readBody(req)
    if (contentType !== 'application/x-www-form-urlencoded') {
      throw oauthError(provider, 400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded.', 900144)
    }
    const { params: p, duplicate } = formParams(new URLSearchParams(raw))
    entry.grantType = p.grant_type
    if (duplicate) throw oauthError(provider, 400, 'invalid_request', `Parameter '${duplicate}' was sent more than once.`, 90015)
    const client = authenticateClient(provider, req, p)
    const missing = (name: string) =>
      oauthError(provider, 400, 'invalid_request', provider === 'google' ? `Missing required parameter: ${name}` : `The request body must contain the following parameter: '${name}'.`, 900144)

    if (p.grant_type === 'authorization_code') {
      if (!p.code) throw missing('code')
      const grant = codes.get(p.code)
      if (!grant || grant.provider !== provider || grant.clientId !== client.clientId) {
        throw provider === 'google'
          ? oauthError(provider, 400, 'invalid_grant', 'Malformed auth code.')
          : oauthError(provider, 400, 'invalid_grant', "The provided value for the 'code' parameter is not valid.", 9002313)
      }
      if (grant.used) {
        // A replayed code revokes what it produced (RFC 6749 §4.1.2): an attacker's copy is worth nothing.
        for (const id of grant.issued) revokedTokenIds.add(id)
        throw provider === 'google'
          ? oauthError(provider, 400, 'invalid_grant', 'Bad Request')
          : oauthError(provider, 400, 'invalid_grant', 'OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.', 54005)
      }
      grant.used = true
      if (grant.expiresAt <= now()) {
        throw provider === 'google'
          ? oauthError(provider, 400, 'invalid_grant', 'Bad Request')
          : oauthError(provider, 400, 'invalid_grant', 'The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource.', 70008)
      }
      if (p.redirect_uri !== grant.redirectUri) {
        throw provider === 'google'
          ? oauthError(provider, 400, 'redirect_uri_mismatch', 'Bad Request')
          : oauthError(provider, 400, 'invalid_grant', `The redirect URI '${p.redirect_uri ?? ''}' specified in the request does not match the redirect URI used to obtain the authorization code.`, 50011)
      }
      if (!p.code_verifier) {
        throw provider === 'google' ? oauthError(provider, 400, 'invalid_grant', 'Missing code verifier.') : missing('code_verifier')
      }
      const expected = grant.codeChallengeMethod === 'S256' ? s256(p.code_verifier) : p.code_verifier
      if (!PKCE_VALUE.test(p.code_verifier) || !safeEqual(expected, grant.codeChallenge)) {
        throw provider === 'google'
          ? oauthError(provider, 400, 'invalid_grant', 'Invalid code verifier.')
          : oauthError(provider, 400, 'invalid_grant', 'The code_verifier does not match the code_challenge supplied in the authorization request.', 501481)
      }
      let refresh: { token: string; id: string } | undefined
      if (provider === 'google') {
        const consentKey = `${grant.clientId}:${normalizeEmail(grant.email)}`
        if (grant.accessType === 'offline' && (!googleConsented.has(consentKey) || grant.prompt?.split(' ').includes('consent'))) {
          refresh = refreshToken(provider, grant)
        }
        googleConsented.add(consentKey)
      } else if (grant.scopes.includes('offline_access')) {
        refresh = refreshToken(provider, grant)
      }
      const { body, ids } = await tokenResponse(provider, grant, refresh)
      grant.issued.push(...ids, ...(refresh ? [refresh.id] : []))
      return sendJson(res, 200, body)
    }

    if (p.grant_type === 'refresh_token') {
      if (!p.refresh_token) throw missing('refresh_token')
      const claims = readToken(p.refresh_token, provider, 'refresh')
      if (!claims || claims.c !== client.clientId || isRevoked(claims)) {
        throw provider === 'google'
          ? oauthError(provider, 400, 'invalid_grant', 'Token has been expired or revoked.')
          : oauthError(provider, 400, 'invalid_grant', 'The provided grant has expired due to it being revoked, a fresh auth token is needed. The user might have changed or reset their password.', 50173)
      }
      const grant = { clientId: claims.c, email: claims.e, name: claims.n, emailVerified: claims.v ?? DEFAULT_EMAIL_VERIFIED[provider], scopes: splitScopes(claims.s) }
      let rotated: { token: string; id: string } | undefined
      if (provider === 'microsoft') {
        // Microsoft rotates refresh tokens on every use — providers.md B1. The old one stops working here.
        revokedTokenIds.add(claims.j)
        rotated = refreshToken(provider, grant)
      }
      const { body } = await tokenResponse(provider, grant, rotated)
      return sendJson(res, 200, body)
    }

    if (!p.grant_type) {
      throw provider === 'google' ? oauthError(provider, 400, 'unsupported_grant_type', 'Invalid grant_type: ') : missing('grant_type')
    }
    throw provider === 'google'
      ? oauthError(provider, 400, 'unsupported_grant_type', `Invalid grant_type: ${p.grant_type}`)
      : oauthError(provider, 400, 'unsupported_grant_type', `The provided value for the input parameter 'grant_type' is not valid.`, 70003)
  }

  // ---------- other endpoints ----------

  function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers })
    res.end(JSON.stringify(body))
  }

  function discovery(provider: ProviderName, tenant: string): Record<string, unknown> {
    if (provider === 'google') {
      return {
        issuer: googleBase(),
        authorization_endpoint: `${googleBase()}/o/oauth2/v2/auth`,
        token_endpoint: `${googleBase()}/token`,
        userinfo_endpoint: `${googleBase()}/oauth2/v3/userinfo`,
        revocation_endpoint: `${googleBase()}/revoke`,
        jwks_uri: `${googleBase()}/oauth2/v3/certs`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid', 'email', 'profile'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        claims_supported: ['aud', 'email', 'email_verified', 'exp', 'family_name', 'given_name', 'iat', 'iss', 'name', 'sub', 'nonce', 'azp'],
        code_challenge_methods_supported: ['plain', 'S256'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
      }
    }
    return {
      issuer: msIssuer(tenant === 'common' || tenant === 'organizations' || tenant === 'consumers' ? '{tenantid}' : tenant),
      authorization_endpoint: `${msBase()}/${tenant}/oauth2/v2.0/authorize`,
      token_endpoint: `${msBase()}/${tenant}/oauth2/v2.0/token`,
      jwks_uri: `${msBase()}/${tenant}/discovery/v2.0/keys`,
      userinfo_endpoint: `${msBase()}/graph/oidc/userinfo`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      subject_types_supported: ['pairwise'],
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'nbf', 'name', 'nonce', 'oid', 'preferred_username', 'email', 'tid', 'ver'],
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      tenant_region_scope: null,
      cloud_instance_name: 'microsoftonline.com',
    }
  }

  function bearer(req: IncomingMessage): string | undefined {
    const header = req.headers.authorization
    if (!header) return undefined
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim())
    return match?.[1] ?? ''
  }

  function graphMe(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET') throw graphError(405, 'Request_BadRequest', 'Specified HTTP method is not allowed for the request target.')
    const token = bearer(req)
    if (!token) throw graphError(401, 'InvalidAuthenticationToken', 'Access token is empty.')
    const claims = readToken(token, 'microsoft', 'access')
    if (!claims || isRevoked(claims)) throw graphError(401, 'InvalidAuthenticationToken', 'Access token validation failure. Invalid audience.')
    if ((claims.x ?? 0) <= now()) throw graphError(401, 'InvalidAuthenticationToken', 'Lifetime validation failed, the token is expired.')
    const scopes = splitScopes(claims.s)
    if (!MS_USER_READ_SCOPES.some((s) => scopes.includes(s) || scopes.includes(`${MICROSOFT_GRAPH_RESOURCE}${s}`))) {
      throw graphError(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.')
    }
    const { given, family } = splitName(claims.n)
    sendJson(res, 200, {
      '@odata.context': `${msBase()}/graph/v1.0/$metadata#users/$entity`,
      businessPhones: [],
      displayName: claims.n,
      givenName: given || null,
      jobTitle: null,
      mail: claims.e,
      mobilePhone: null,
      officeLocation: null,
      preferredLanguage: null,
      surname: family || null,
      userPrincipalName: claims.e,
      id: microsoftObjectId(claims.e),
    })
  }

  function googleUserinfo(req: IncomingMessage, res: ServerResponse): void {
    const token = bearer(req)
    const claims = token ? validAccessToken('google', token) : null
    if (!claims) {
      throw new HttpError(401, { error: 'invalid_request', error_description: 'Invalid Credentials' }, { 'WWW-Authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' })
    }
    const { given, family } = splitName(claims.n)
    sendJson(res, 200, {
      sub: googleSubject(claims.e),
      name: claims.n,
      given_name: given,
      ...(family ? { family_name: family } : {}),
      email: normalizeEmail(claims.e),
      email_verified: claims.v ?? true,
    })
  }

  async function googleRevoke(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method !== 'POST') throw new HttpError(405, { error: 'invalid_request' }, { Allow: 'POST' })
    const body = new URLSearchParams(await readBody(req))
    const value = body.get('token') ?? url.searchParams.get('token') ?? ''
    const claims = readToken(value, 'google', 'refresh') ?? readToken(value, 'google', 'access')
    if (!claims || isRevoked(claims)) throw new HttpError(400, { error: 'invalid_token', error_description: 'Token expired or revoked' })
    // Revoking either token ends the whole grant for that identity, as Google does.
    revokeUpTo(`google:${normalizeEmail(claims.e)}`)
    sendJson(res, 200, {})
  }

  // ---------- faults, admin, routing ----------

  function takeFault(provider: ProviderName, endpoint: IdentityEndpoint): FaultSpec | undefined {
    const index = faults.findIndex((f) => f.provider === provider && f.endpoint === endpoint)
    const fault = faults[index]
    if (!fault) return undefined
    fault.remaining -= 1
    if (fault.remaining <= 0) faults.splice(index, 1)
    return fault
  }

  function sendFault(res: ServerResponse, fault: FaultSpec): void {
    const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...(fault.status === 429 ? { 'Retry-After': '1' } : {}), ...fault.headers }
    let body = fault.body
    if (body === undefined) {
      if (fault.endpoint === 'graph') {
        const code = fault.status === 429 ? 'TooManyRequests' : fault.status === 503 ? 'ServiceNotAvailable' : 'generalException'
        body = { error: { code, message: `Injected fault (${fault.status}).` } }
      } else {
        body = { error: fault.status === 429 ? 'rate_limit_exceeded' : 'temporarily_unavailable', error_description: `Injected fault (${fault.status}).` }
      }
    }
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    res.writeHead(fault.status, { 'Content-Type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8', ...headers })
    res.end(text)
  }

  type Route = { provider: ProviderName; endpoint: IdentityEndpoint; handle: () => Promise<void> | void }

  function route(req: IncomingMessage, res: ServerResponse, url: URL, entry: Partial<JournalEntry>): Route | undefined {
    const path = url.pathname
    const google = (endpoint: IdentityEndpoint, handle: Route['handle']): Route => ({ provider: 'google', endpoint, handle })
    const microsoft = (endpoint: IdentityEndpoint, handle: Route['handle']): Route => ({ provider: 'microsoft', endpoint, handle })
    switch (path) {
      case '/google/.well-known/openid-configuration':
        return google('discovery', () => sendJson(res, 200, discovery('google', ''), { 'Cache-Control': 'public, max-age=3600' }))
      case '/google/o/oauth2/v2/auth':
        return google('authorize', () => authorize(req, res, url, 'google', '', entry))
      case '/google/token':
        return google('token', () => token(req, res, 'google', entry))
      case '/google/oauth2/v3/certs':
        return google('jwks', () => sendJson(res, 200, { keys: [keys.google.publicJwk] }, { 'Cache-Control': 'public, max-age=3600' }))
      case '/google/oauth2/v3/userinfo':
        return google('userinfo', () => googleUserinfo(req, res))
      case '/google/revoke':
        return google('revoke', () => googleRevoke(req, res, url))
      case '/microsoft/graph/v1.0/me':
        return microsoft('graph', () => graphMe(req, res))
    }
    const ms = /^\/microsoft\/([A-Za-z0-9.-]+)\/(oauth2\/v2\.0\/authorize|oauth2\/v2\.0\/token|discovery\/v2\.0\/keys|v2\.0\/\.well-known\/openid-configuration)$/.exec(path)
    if (ms && ms[1] !== 'graph') {
      const tenant = ms[1] ?? 'common'
      switch (ms[2]) {
        case 'oauth2/v2.0/authorize':
          return microsoft('authorize', () => authorize(req, res, url, 'microsoft', tenant, entry))
        case 'oauth2/v2.0/token':
          return microsoft('token', () => token(req, res, 'microsoft', entry))
        case 'discovery/v2.0/keys':
          return microsoft('jwks', () => sendJson(res, 200, { keys: [{ ...keys.microsoft.publicJwk, issuer: msIssuer('{tenantid}') }] }, { 'Cache-Control': 'public, max-age=3600' }))
        default:
          return microsoft('discovery', () => sendJson(res, 200, discovery('microsoft', tenant), { 'Cache-Control': 'public, max-age=3600' }))
      }
    }
    return undefined
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin)
    const entry: Partial<JournalEntry> = { method: req.method ?? 'GET', path: url.pathname, provider: 'admin', endpoint: 'unknown' }
    res.on('finish', () => {
      journal.push({ at: new Date(now()).toISOString(), provider: entry.provider ?? 'admin', endpoint: entry.endpoint ?? 'unknown', method: entry.method ?? '', path: entry.path ?? '', status: res.statusCode, ...(entry.grantType ? { grantType: entry.grantType } : {}), ...(entry.error ? { error: entry.error } : {}) })
    })
    try {
      if (url.pathname.startsWith('/__admin/')) {
        entry.endpoint = 'admin'
        return await admin(req, res, url)
      }
      const found = route(req, res, url, entry)
      if (!found) {
        entry.provider = url.pathname.startsWith('/microsoft') ? 'microsoft' : url.pathname.startsWith('/google') ? 'google' : 'admin'
        return sendJson(res, 404, { error: 'not_found', error_description: `No fake endpoint at ${url.pathname}` })
      }
      entry.provider = found.provider
      entry.endpoint = found.endpoint
      const fault = takeFault(found.provider, found.endpoint)
      if (fault) {
        entry.error = 'injected_fault'
        return sendFault(res, fault)
      }
      await found.handle()
    } catch (err) {
      if (res.headersSent) {
        res.destroy()
        return
      }
      if (err instanceof HttpError) {
        const e = err.body.error
        entry.error = typeof e === 'string' ? e : typeof e === 'object' && e && 'code' in e ? String(e.code) : 'error'
        return sendJson(res, err.status, err.body, err.headers)
      }
      entry.error = 'server_error'
      sendJson(res, 500, { error: 'server_error', error_description: err instanceof Error ? err.message : String(err) })
    }
  }

  /** HTTP twins of the test hooks, for Playwright specs that run the fakes in another process. */
  async function admin(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const body = req.method === 'POST' ? await readBody(req) : ''
    const json = (): Record<string, unknown> => {
      try {
        return body ? (JSON.parse(body) as Record<string, unknown>) : {}
      } catch {
        throw new HttpError(400, { error: 'invalid_request', error_description: 'Body must be JSON.' })
      }
    }
    const key = `${req.method} ${url.pathname}`
    switch (key) {
      case 'GET /__admin/journal':
        return sendJson(res, 200, journal)
      case 'DELETE /__admin/journal':
        journal.length = 0
        return sendJson(res, 200, {})
      case 'POST /__admin/faults':
        api.injectFault(json() as unknown as FaultSpec)
        return sendJson(res, 200, {})
      case 'DELETE /__admin/faults':
        faults.length = 0
        return sendJson(res, 200, {})
      case 'POST /__admin/clock/advance': {
        const ms = Number(json().ms)
        if (!Number.isFinite(ms)) throw new HttpError(400, { error: 'invalid_request', error_description: 'ms must be a number.' })
        clockOffsetMs += ms
        return sendJson(res, 200, { now: new Date(now()).toISOString() })
      }
      case 'POST /__admin/access-token-ttl': {
        const b = json()
        api.setAccessTokenTtl(Number(b.seconds), b.provider === 'google' || b.provider === 'microsoft' ? b.provider : undefined)
        return sendJson(res, 200, {})
      }
    }
    throw new HttpError(404, { error: 'not_found', error_description: `No admin endpoint ${key}` })
  }

  const server = createServer((req, res) => void handle(req, res))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`

  const api: IdentityFakes = {
    origin,
    google: {
      authorizeUrl: `${origin}/google/o/oauth2/v2/auth`,
      tokenUrl: `${origin}/google/token`,
      jwksUrl: `${origin}/google/oauth2/v3/certs`,
      issuer: `${origin}/google`,
      discoveryUrl: `${origin}/google/.well-known/openid-configuration`,
      userinfoUrl: `${origin}/google/oauth2/v3/userinfo`,
      revokeUrl: `${origin}/google/revoke`,
    },
    microsoft: {
      authorizeUrl: `${origin}/microsoft/common/oauth2/v2.0/authorize`,
      tokenUrl: `${origin}/microsoft/common/oauth2/v2.0/token`,
      jwksUrl: `${origin}/microsoft/common/discovery/v2.0/keys`,
      issuerTemplate: `${origin}/microsoft/{tenantid}/v2.0`,
      graphUrl: `${origin}/microsoft/graph/v1.0`,
      discoveryUrl: `${origin}/microsoft/common/v2.0/.well-known/openid-configuration`,
    },
    journal,
    clearJournal: () => {
      journal.length = 0
    },
    injectFault(fault) {
      if (fault.provider !== 'google' && fault.provider !== 'microsoft') throw new Error(`Unknown provider ${String(fault.provider)}`)
      if (!Number.isInteger(fault.status) || fault.status < 100 || fault.status > 599) throw new Error(`Invalid status ${fault.status}`)
      faults.push({ ...fault, remaining: fault.times ?? 1 })
    },
    clearFaults: () => {
      faults.length = 0
    },
    advanceClock(ms) {
      clockOffsetMs += ms
    },
    now: () => new Date(now()),
    setAccessTokenTtl(seconds, provider) {
      if (!Number.isInteger(seconds) || seconds <= 0) throw new Error('Access token TTL must be a positive whole number of seconds')
      for (const p of provider ? [provider] : (['google', 'microsoft'] as const)) ttl[p] = seconds
    },
    revokeRefreshTokens(provider, email) {
      revokeUpTo(`${provider}:${email ? normalizeEmail(email) : '*'}`)
    },
    introspect(provider, token) {
      const claims = validAccessToken(provider, token)
      if (!claims) return null
      return { provider, clientId: claims.c, email: claims.e, name: claims.n, scopes: splitScopes(claims.s), expiresAt: new Date(claims.x ?? 0) }
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()))
        // Keep-alive connections from fetch would otherwise hold close() open.
        server.closeAllConnections()
      }),
  }
  return api
}
