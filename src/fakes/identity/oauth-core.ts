import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { JWTPayload } from 'jose'
import { FakeHttpError, json, type FakeHandler, type FakeRequest, type FakeResponse, type FakeRoute } from '#fakes/http/fake-server.ts'
import { CONSENT_FIELDS, renderConsentPage, renderErrorPage, type ProviderName } from './consent-page.ts'
import { isValidEmail, nameFromEmail, normalizeEmail } from './identities.ts'
import type { SigningKey } from './keys.ts'
import { mintToken, newTokenId, readToken, type TokenClaims } from './tokens.ts'

/**
 * What the Google and Microsoft OAuth 2.0 / OpenID Connect fakes share: the movable clock, authorization
 * codes, token minting and revocation, the authorize endpoint with its consent page, and the token
 * endpoint with PKCE. google.ts and microsoft.ts describe only how each provider differs (a
 * ProviderProfile: error bodies, claims, token response shape, refresh-token policy) and their own
 * routes. Behaviour follows /work/shared/reference/providers.md A1, B1, D1-D3; why fakes over stubs:
 * docs/decisions/004-local-fakes.md.
 */

export interface ClientRegistration {
  clientId: string
  clientSecret: string
  /** When given, authorize requests must use one of these exactly (as the real consoles enforce). */
  redirectUris?: string[]
}

export type IdentityEndpoint = 'authorize' | 'token' | 'jwks' | 'discovery' | 'graph' | 'userinfo' | 'revoke'

type CodeChallengeMethod = 'S256' | 'plain'

export interface AuthorizeRequest {
  provider: ProviderName
  clientId: string
  redirectUri: string
  scopes: string[]
  state: string
  codeChallenge: string
  codeChallengeMethod: CodeChallengeMethod
  nonce?: string
  accessType?: string
  prompt?: string
}

/** Who consented, and whether the provider vouches for the address (email_verified / xms_edov). */
export interface Grant {
  clientId: string
  email: string
  name: string
  emailVerified: boolean
  scopes: string[]
  nonce?: string
}

export interface CodeGrant extends AuthorizeRequest {
  email: string
  name: string
  emailVerified: boolean
  expiresAt: number
  used: boolean
  /** Token ids issued from this code, revoked if the code is replayed (RFC 6749 §4.1.2). */
  issued: string[]
}

/** An authorize error the provider shows on its own page instead of redirecting. */
export interface PageError {
  status: number
  error: string
  description: string
}

export type AuthorizeProblem =
  | ({ kind: 'page' } & PageError)
  | { kind: 'redirect'; redirectUri: string; state?: string; error: string; description: string }

/** Authorize checks made once the redirect URI is trusted (Microsoft gives each its AADSTS number). */
export type AuthorizeCheck = 'duplicate' | 'missing' | 'response_type' | 'response_mode' | 'scope' | 'code_challenge_method' | 'code_challenge'

/** The token endpoint's refusals, in each provider's words and status codes. */
export interface TokenErrors {
  notForm(): FakeHttpError
  duplicate(name: string): FakeHttpError
  malformedBasic(): FakeHttpError
  unknownClient(clientId: string): FakeHttpError
  missingSecret(): FakeHttpError
  wrongSecret(): FakeHttpError
  missing(name: string): FakeHttpError
  badCode(): FakeHttpError
  codeReplayed(): FakeHttpError
  codeExpired(): FakeHttpError
  redirectMismatch(redirectUri: string): FakeHttpError
  missingVerifier(): FakeHttpError
  badVerifier(): FakeHttpError
  badRefreshToken(): FakeHttpError
  missingGrantType(): FakeHttpError
  unsupportedGrantType(grantType: string): FakeHttpError
}

export interface IssuedTokens {
  access_token: string
  expires_in: number
  refresh_token?: string
  id_token?: string
}

/** How one provider differs; the flows below are the same for both. */
export interface ProviderProfile {
  provider: ProviderName
  client: ClientRegistration
  key: SigningKey
  /** Access token lifetime in seconds unless the options or setAccessTokenTtl() say otherwise. */
  defaultAccessTokenTtl: number
  /** Whether the provider vouches for the address when the consent form does not say (A1, B1). */
  defaultEmailVerified: boolean
  /** Authorization codes start like the real ones. */
  codePrefix: string
  codeChallengeMethods: readonly CodeChallengeMethod[]
  /** When set, a `response_mode` must be one of these. */
  responseModes?: readonly string[]
  /** Shown on the provider's page: the redirect URI cannot be trusted yet. */
  unknownClientPage(clientId: string): PageError
  unregisteredRedirectPage(redirectUri: string | undefined): PageError
  /** Any later authorize problem: Google shows a page, Microsoft sends the error back to the app. */
  authorizeProblem(check: AuthorizeCheck, error: string, description: string, back: { redirectUri: string; state?: string }): AuthorizeProblem
  loginRequiredDescription: string
  accessDeniedDescription?: string
  /** Parameters the redirect carries besides `code` and `state`. */
  codeRedirectParams?(request: AuthorizeRequest): Record<string, string>
  tokenErrors: TokenErrors
  /** Whether a code exchange also issues a refresh token. */
  issuesRefreshToken(grant: CodeGrant): boolean
  /** Whether a refresh token stops working once used (a new one comes with the answer). */
  rotatesRefreshTokens: boolean
  idTokenClaims(grant: Grant, times: { iat: number; exp: number }): JWTPayload
  tokenBody(tokens: IssuedTokens, grant: Grant): Record<string, unknown>
}

const CODE_TTL_MS = 10 * 60 * 1000
const ID_TOKEN_TTL_S = 3600
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/
const REQUIRED_AUTHORIZE_PARAMS = ['response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method']

/** For discovery documents and key sets, which real providers let clients cache. */
export const PUBLIC_CACHE = { 'Cache-Control': 'public, max-age=3600' }

/** Routes and faults name an endpoint `google.token`; the journal splits it back (server.ts). */
export function endpointName(provider: ProviderName, endpoint: IdentityEndpoint): string {
  return `${provider}.${endpoint}`
}

/**
 * Any method reaches the handler, which answers a wrong one as the provider does (405 with its body),
 * rather than the helper's generic 404.
 */
export function providerRoute(provider: ProviderName, endpoint: IdentityEndpoint, pattern: string, handle: FakeHandler): FakeRoute {
  return { method: '*', pattern, endpoint: endpointName(provider, endpoint), handle }
}

export function notFoundBody(path: string): Record<string, string> {
  return { error: 'not_found', error_description: `No fake endpoint at ${path}` }
}

/** An injected fault without its own body, in OAuth's error shape. */
export function oauthFaultBody(status: number): Record<string, string> {
  return { error: status === 429 ? 'rate_limit_exceeded' : 'temporarily_unavailable', error_description: `Injected fault (${status}).` }
}

export function splitScopes(scope: string | undefined): string[] {
  return (scope ?? '').split(/\s+/).filter(Boolean)
}

/** The Bearer token of a request: undefined without an Authorization header, '' when malformed. */
export function bearer(request: FakeRequest): string | undefined {
  const header = request.headers.authorization
  if (!header) return undefined
  return /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] ?? ''
}

function safeEqual(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest()
  const y = createHash('sha256').update(b).digest()
  return timingSafeEqual(x, y)
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url')
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

function htmlPage(status: number, render: (nonce: string) => string): FakeResponse {
  const nonce = randomBytes(16).toString('base64')
  return {
    status,
    // Deliberately no Cross-Origin-Opener-Policy: the app's sign-in popup must keep window.opener.
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; frame-ancestors 'none'`,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
    body: render(nonce),
  }
}

function redirectTo(location: string): FakeResponse {
  return { status: 302, headers: { Location: location } }
}

export type OAuthCore = ReturnType<typeof createOAuthCore>

export function createOAuthCore(options: { accessTokenTtlSeconds?: number } = {}) {
  let clockOffsetMs = 0
  const now = () => Date.now() + clockOffsetMs
  const ttlOverride: Partial<Record<ProviderName, number>> = {}
  const codes = new Map<string, CodeGrant>()
  const revokedTokenIds = new Set<string>()
  /** provider:email (or provider:*) → tokens issued at or before this time are revoked. */
  const revokedBefore = new Map<string, number>()

  let lastRevocation = 0
  /** Issue time for a new token: strictly after any revocation, so a revocation never hits newer tokens. */
  const issueTime = () => Math.max(now(), lastRevocation + 1)

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

  /** Ends every grant issued so far for that identity (or everyone), as after a password change. */
  function revokeGrants(provider: ProviderName, email?: string): void {
    lastRevocation = Math.max(now(), lastRevocation + 1)
    revokedBefore.set(`${provider}:${email ? normalizeEmail(email) : '*'}`, lastRevocation)
  }

  function setAccessTokenTtl(seconds: number, provider?: ProviderName): void {
    if (!Number.isInteger(seconds) || seconds <= 0) throw new Error('Access token TTL must be a positive whole number of seconds')
    for (const p of provider ? [provider] : (['google', 'microsoft'] as const)) ttlOverride[p] = seconds
  }

  // ---------- authorize and consent ----------

  function validateAuthorize(profile: ProviderProfile, p: Record<string, string>, duplicate?: string): AuthorizeRequest | AuthorizeProblem {
    const { client } = profile
    if (!p.client_id || p.client_id !== client.clientId) return { kind: 'page', ...profile.unknownClientPage(p.client_id ?? '') }
    const redirectUri = p.redirect_uri
    if (!redirectUri || !isAbsoluteHttpUrl(redirectUri) || (client.redirectUris && !client.redirectUris.includes(redirectUri))) {
      return { kind: 'page', ...profile.unregisteredRedirectPage(redirectUri) }
    }
    // From here on the redirect URI is trusted: the profile decides between an error page and a redirect.
    const back = { redirectUri, state: p.state }
    const problem = (check: AuthorizeCheck, error: string, description: string) => profile.authorizeProblem(check, error, description, back)
    if (duplicate) return problem('duplicate', 'invalid_request', `Parameter '${duplicate}' was sent more than once.`)
    for (const name of REQUIRED_AUTHORIZE_PARAMS) {
      if (!p[name]) return problem('missing', 'invalid_request', `Required parameter is missing: ${name}`)
    }
    if (p.response_type !== 'code') {
      return problem('response_type', 'unsupported_response_type', `Only response_type=code is supported, got '${p.response_type}'.`)
    }
    if (profile.responseModes && p.response_mode && !profile.responseModes.includes(p.response_mode)) {
      return problem('response_mode', 'invalid_request', `This fake supports only response_mode=${profile.responseModes.join(', ')}, got '${p.response_mode}'.`)
    }
    // The fakes keep no sign-in session, so a silent request always needs interaction.
    if (splitScopes(p.prompt).includes('none')) {
      return { kind: 'redirect', ...back, error: 'login_required', description: profile.loginRequiredDescription }
    }
    const scopes = splitScopes(p.scope)
    if (!scopes.includes('openid')) return problem('scope', 'invalid_scope', "The scope must include 'openid'.")
    const method = profile.codeChallengeMethods.find((m) => m === p.code_challenge_method)
    if (!method) return problem('code_challenge_method', 'invalid_request', `Unsupported code_challenge_method '${p.code_challenge_method}'.`)
    if (!PKCE_VALUE.test(p.code_challenge ?? '')) {
      return problem('code_challenge', 'invalid_request', 'Invalid code_challenge: 43-128 characters of [A-Za-z0-9-._~] expected.')
    }
    return {
      provider: profile.provider,
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

  function problemResponse(profile: ProviderProfile, problem: AuthorizeProblem, request: FakeRequest): FakeResponse {
    request.note('error', problem.error)
    if (problem.kind === 'page') return htmlPage(problem.status, (nonce) => renderErrorPage({ provider: profile.provider, nonce, ...problem }))
    return redirectTo(withQuery(problem.redirectUri, { error: problem.error, error_description: problem.description, state: problem.state }))
  }

  /** GET shows the consent page; the page posts back here with the person's choice (decision 004). */
  function authorize(profile: ProviderProfile, request: FakeRequest): FakeResponse {
    const { provider } = profile
    const action = request.path
    if (request.method === 'GET') {
      const { params, duplicate } = formParams(request.url.searchParams)
      const result = validateAuthorize(profile, params, duplicate)
      if ('kind' in result) return problemResponse(profile, result, request)
      return htmlPage(200, (nonce) =>
        renderConsentPage({ provider, nonce, action, params, clientId: result.clientId, scope: result.scopes.join(' '), email: params.login_hint }),
      )
    }
    if (request.method !== 'POST') throw new FakeHttpError(405, { error: 'method_not_allowed' }, { Allow: 'GET, POST' }, 'method_not_allowed')
    const { params: all, duplicate } = formParams(new URLSearchParams(request.body))
    const params = Object.fromEntries(Object.entries(all).filter(([k]) => !CONSENT_FIELDS.has(k)))
    const result = validateAuthorize(profile, params, duplicate)
    if ('kind' in result) return problemResponse(profile, result, request)
    if (all.decision === 'deny') {
      request.note('error', 'access_denied')
      return redirectTo(withQuery(result.redirectUri, { error: 'access_denied', error_description: profile.accessDeniedDescription, state: result.state }))
    }
    if (all.decision !== 'allow') {
      throw new FakeHttpError(400, { error: 'invalid_request', error_description: "decision must be 'allow' or 'deny'" }, {}, 'invalid_request')
    }
    const email = (all.email ?? '').trim()
    if (!isValidEmail(email)) {
      request.note('error', 'invalid_email')
      return htmlPage(400, (nonce) =>
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
    }
    const name = (all.name ?? '').trim() || nameFromEmail(email)
    const emailVerified = all.email_verified === undefined ? profile.defaultEmailVerified : all.email_verified === 'true'
    const code = `${profile.codePrefix}${randomBytes(32).toString('base64url')}`
    codes.set(code, { ...result, email, name, emailVerified, expiresAt: now() + CODE_TTL_MS, used: false, issued: [] })
    return redirectTo(withQuery(result.redirectUri, { code, ...profile.codeRedirectParams?.(result), state: result.state }))
  }

  // ---------- tokens ----------

  function authenticateClient(profile: ProviderProfile, request: FakeRequest, p: Record<string, string>): ClientRegistration {
    const { client, tokenErrors: errors } = profile
    let clientId = p.client_id
    let secret = p.client_secret
    const header = request.headers.authorization
    if (header?.toLowerCase().startsWith('basic ')) {
      const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8')
      const colon = decoded.indexOf(':')
      if (colon < 0) throw errors.malformedBasic()
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
    if (!clientId || clientId !== client.clientId) throw errors.unknownClient(clientId ?? '')
    if (!secret) throw errors.missingSecret()
    if (!safeEqual(secret, client.clientSecret)) throw errors.wrongSecret()
    return client
  }

  function refreshToken(profile: ProviderProfile, grant: Grant): { token: string; id: string } {
    const id = newTokenId()
    return { token: mintToken({ p: profile.provider, k: 'refresh', c: grant.clientId, e: grant.email, n: grant.name, v: grant.emailVerified, s: grant.scopes.join(' '), j: id, i: issueTime() }), id }
  }

  /** Access token and (with openid) id token, in the provider's response shape, plus the ids it minted. */
  async function tokenResponse(profile: ProviderProfile, grant: Grant, refresh: { token: string } | undefined): Promise<{ body: Record<string, unknown>; ids: string[] }> {
    const { provider } = profile
    const id = newTokenId()
    const issuedAt = issueTime()
    const expiresIn = ttlOverride[provider] ?? options.accessTokenTtlSeconds ?? profile.defaultAccessTokenTtl
    const accessToken = mintToken({ p: provider, k: 'access', c: grant.clientId, e: grant.email, n: grant.name, v: grant.emailVerified, s: grant.scopes.join(' '), j: id, i: issuedAt, x: issuedAt + expiresIn * 1000 })
    const iat = Math.floor(now() / 1000)
    const idToken = grant.scopes.includes('openid') ? await profile.key.sign(profile.idTokenClaims(grant, { iat, exp: iat + ID_TOKEN_TTL_S })) : undefined
    const tokens: IssuedTokens = {
      access_token: accessToken,
      expires_in: expiresIn,
      ...(refresh ? { refresh_token: refresh.token } : {}),
      ...(idToken ? { id_token: idToken } : {}),
    }
    return { body: profile.tokenBody(tokens, grant), ids: [id] }
  }

  async function codeGrant(profile: ProviderProfile, client: ClientRegistration, p: Record<string, string>): Promise<FakeResponse> {
    const errors = profile.tokenErrors
    if (!p.code) throw errors.missing('code')
    const grant = codes.get(p.code)
    if (!grant || grant.provider !== profile.provider || grant.clientId !== client.clientId) throw errors.badCode()
    if (grant.used) {
      // A replayed code revokes what it produced (RFC 6749 §4.1.2): an attacker's copy is worth nothing.
      for (const id of grant.issued) revokedTokenIds.add(id)
      throw errors.codeReplayed()
    }
    grant.used = true
    if (grant.expiresAt <= now()) throw errors.codeExpired()
    if (p.redirect_uri !== grant.redirectUri) throw errors.redirectMismatch(p.redirect_uri ?? '')
    if (!p.code_verifier) throw errors.missingVerifier()
    const expected = grant.codeChallengeMethod === 'S256' ? s256(p.code_verifier) : p.code_verifier
    if (!PKCE_VALUE.test(p.code_verifier) || !safeEqual(expected, grant.codeChallenge)) throw errors.badVerifier()
    const refresh = profile.issuesRefreshToken(grant) ? refreshToken(profile, grant) : undefined
    const { body, ids } = await tokenResponse(profile, grant, refresh)
    grant.issued.push(...ids, ...(refresh ? [refresh.id] : []))
    return json(200, body)
  }

  async function refreshGrant(profile: ProviderProfile, client: ClientRegistration, p: Record<string, string>): Promise<FakeResponse> {
    if (!p.refresh_token) throw profile.tokenErrors.missing('refresh_token')
    const claims = readToken(p.refresh_token, profile.provider, 'refresh')
    if (!claims || claims.c !== client.clientId || isRevoked(claims)) throw profile.tokenErrors.badRefreshToken()
    const grant = { clientId: claims.c, email: claims.e, name: claims.n, emailVerified: claims.v ?? profile.defaultEmailVerified, scopes: splitScopes(claims.s) }
    let rotated: { token: string } | undefined
    if (profile.rotatesRefreshTokens) {
      // The old one stops working here; the answer carries its successor.
      revokedTokenIds.add(claims.j)
      rotated = refreshToken(profile, grant)
    }
    const { body } = await tokenResponse(profile, grant, rotated)
    return json(200, body)
  }

  async function token(profile: ProviderProfile, request: FakeRequest): Promise<FakeResponse> {
    const errors = profile.tokenErrors
    if (request.method !== 'POST') throw new FakeHttpError(405, { error: 'invalid_request', error_description: 'Use POST' }, { Allow: 'POST' }, 'invalid_request')
    const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase()
    if (contentType !== 'application/x-www-form-urlencoded') throw errors.notForm()
    const { params: p, duplicate } = formParams(new URLSearchParams(request.body))
    if (p.grant_type) request.note('grantType', p.grant_type)
    if (duplicate) throw errors.duplicate(duplicate)
    const client = authenticateClient(profile, request, p)
    if (p.grant_type === 'authorization_code') return codeGrant(profile, client, p)
    if (p.grant_type === 'refresh_token') return refreshGrant(profile, client, p)
    throw p.grant_type ? errors.unsupportedGrantType(p.grant_type) : errors.missingGrantType()
  }

  return {
    now,
    advanceClock(ms: number): void {
      clockOffsetMs += ms
    },
    setAccessTokenTtl,
    revokeGrants,
    isRevoked,
    validAccessToken,
    authorize,
    token,
  }
}
