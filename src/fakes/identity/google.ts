import { FakeHttpError, json, type FakeRequest, type FakeResponse, type FakeRoute } from '#fakes/http/fake-server.ts'
import { googleSubject, normalizeEmail, splitName } from './identities.ts'
import type { SigningKey } from './keys.ts'
import { bearer, providerRoute, PUBLIC_CACHE, splitScopes, type ClientRegistration, type OAuthCore, type ProviderProfile } from './oauth-core.ts'
import { readToken } from './tokens.ts'

/**
 * Google's OAuth 2.0 / OpenID Connect endpoints (providers.md A1, D2): authorize with the consent page,
 * token, JWKS, discovery, userinfo and revoke. The flows are shared (oauth-core.ts); this file holds what
 * Google does its own way: plain `{error, error_description}` bodies, error pages instead of redirects,
 * refresh tokens only for `access_type=offline`, and the `email_verified` claim.
 */

const PATHS = {
  authorize: '/google/o/oauth2/v2/auth',
  token: '/google/token',
  jwks: '/google/oauth2/v3/certs',
  discovery: '/google/.well-known/openid-configuration',
  userinfo: '/google/oauth2/v3/userinfo',
  revoke: '/google/revoke',
}

export function googleUrls(origin: string) {
  return {
    authorizeUrl: `${origin}${PATHS.authorize}`,
    tokenUrl: `${origin}${PATHS.token}`,
    jwksUrl: `${origin}${PATHS.jwks}`,
    issuer: `${origin}/google`,
    discoveryUrl: `${origin}${PATHS.discovery}`,
    userinfoUrl: `${origin}${PATHS.userinfo}`,
    revokeUrl: `${origin}${PATHS.revoke}`,
  }
}

const SCOPE_ALIASES: Record<string, string> = {
  email: 'https://www.googleapis.com/auth/userinfo.email',
  profile: 'https://www.googleapis.com/auth/userinfo.profile',
}

function grantedScopes(scopes: string[]): string[] {
  return [...new Set(scopes.map((s) => SCOPE_ALIASES[s] ?? s))].sort()
}

function oauthError(status: number, error: string, description: string): FakeHttpError {
  return new FakeHttpError(status, { error, error_description: description }, {}, error)
}

const missing = (name: string) => oauthError(400, 'invalid_request', `Missing required parameter: ${name}`)

export function googleRoutes(core: OAuthCore, options: { client: ClientRegistration; key: SigningKey; origin: () => string }): FakeRoute[] {
  const urls = () => googleUrls(options.origin())
  /** Google issues a refresh token on first consent only (or with prompt=consent) — providers.md A1. */
  const consented = new Set<string>()

  const profile: ProviderProfile = {
    provider: 'google',
    client: options.client,
    key: options.key,
    defaultAccessTokenTtl: 3599,
    // Google marks a Google account's address `email_verified: true` (A1).
    defaultEmailVerified: true,
    codePrefix: '4/0',
    codeChallengeMethods: ['S256', 'plain'],
    unknownClientPage: () => ({ status: 401, error: 'invalid_client', description: 'The OAuth client was not found.' }),
    unregisteredRedirectPage: (redirectUri) => ({
      status: 400,
      error: 'redirect_uri_mismatch',
      description: `redirect_uri is missing or not registered for this client: ${redirectUri ?? '(none)'}`,
    }),
    // Google never sends an invalid request back to the app: it shows "Access blocked" itself.
    authorizeProblem: (_check, error, description) => ({ kind: 'page', status: 400, error, description }),
    loginRequiredDescription: 'No session: prompt=none cannot be satisfied.',
    codeRedirectParams: (request) => ({ scope: grantedScopes(request.scopes).join(' '), authuser: '0', prompt: 'consent' }),
    tokenErrors: {
      notForm: () => oauthError(400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded.'),
      duplicate: (name) => oauthError(400, 'invalid_request', `Parameter '${name}' was sent more than once.`),
      malformedBasic: () => oauthError(401, 'invalid_client', 'Malformed Basic credentials.'),
      unknownClient: () => oauthError(401, 'invalid_client', 'The OAuth client was not found.'),
      missingSecret: () => oauthError(400, 'invalid_request', 'client_secret is missing.'),
      wrongSecret: () => oauthError(401, 'invalid_client', 'Unauthorized'),
      missing,
      badCode: () => oauthError(400, 'invalid_grant', 'Malformed auth code.'),
      codeReplayed: () => oauthError(400, 'invalid_grant', 'Bad Request'),
      codeExpired: () => oauthError(400, 'invalid_grant', 'Bad Request'),
      redirectMismatch: () => oauthError(400, 'redirect_uri_mismatch', 'Bad Request'),
      missingVerifier: () => oauthError(400, 'invalid_grant', 'Missing code verifier.'),
      badVerifier: () => oauthError(400, 'invalid_grant', 'Invalid code verifier.'),
      badRefreshToken: () => oauthError(400, 'invalid_grant', 'Token has been expired or revoked.'),
      missingGrantType: () => oauthError(400, 'unsupported_grant_type', 'Invalid grant_type: '),
      unsupportedGrantType: (grantType) => oauthError(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType}`),
    },
    issuesRefreshToken(grant) {
      const consentKey = `${grant.clientId}:${normalizeEmail(grant.email)}`
      const issue = grant.accessType === 'offline' && (!consented.has(consentKey) || splitScopes(grant.prompt).includes('consent'))
      consented.add(consentKey)
      return issue
    },
    rotatesRefreshTokens: false,
    idTokenClaims(grant, { iat, exp }) {
      const { given, family } = splitName(grant.name)
      return {
        iss: urls().issuer,
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
        exp,
      }
    },
    tokenBody: (tokens, grant) => ({
      access_token: tokens.access_token,
      expires_in: tokens.expires_in,
      ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
      scope: grantedScopes(grant.scopes).join(' '),
      token_type: 'Bearer',
      ...(tokens.id_token ? { id_token: tokens.id_token } : {}),
    }),
  }

  function discovery(): Record<string, unknown> {
    const u = urls()
    return {
      issuer: u.issuer,
      authorization_endpoint: u.authorizeUrl,
      token_endpoint: u.tokenUrl,
      userinfo_endpoint: u.userinfoUrl,
      revocation_endpoint: u.revokeUrl,
      jwks_uri: u.jwksUrl,
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

  function userinfo(request: FakeRequest): FakeResponse {
    const token = bearer(request)
    const claims = token ? core.validAccessToken('google', token) : null
    if (!claims) {
      throw new FakeHttpError(
        401,
        { error: 'invalid_request', error_description: 'Invalid Credentials' },
        { 'WWW-Authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
        'invalid_request',
      )
    }
    const { given, family } = splitName(claims.n)
    return json(200, {
      sub: googleSubject(claims.e),
      name: claims.n,
      given_name: given,
      ...(family ? { family_name: family } : {}),
      email: normalizeEmail(claims.e),
      email_verified: claims.v ?? true,
    })
  }

  function revoke(request: FakeRequest): FakeResponse {
    if (request.method !== 'POST') throw new FakeHttpError(405, { error: 'invalid_request' }, { Allow: 'POST' }, 'invalid_request')
    const value = new URLSearchParams(request.body).get('token') ?? request.url.searchParams.get('token') ?? ''
    const claims = readToken(value, 'google', 'refresh') ?? readToken(value, 'google', 'access')
    if (!claims || core.isRevoked(claims)) throw oauthError(400, 'invalid_token', 'Token expired or revoked')
    // Revoking either token ends the whole grant for that identity, as Google does.
    core.revokeGrants('google', claims.e)
    return json(200, {})
  }

  return [
    providerRoute('google', 'discovery', PATHS.discovery, () => json(200, discovery(), PUBLIC_CACHE)),
    providerRoute('google', 'authorize', PATHS.authorize, (request) => core.authorize(profile, request)),
    providerRoute('google', 'token', PATHS.token, (request) => core.token(profile, request)),
    providerRoute('google', 'jwks', PATHS.jwks, () => json(200, { keys: [options.key.publicJwk] }, PUBLIC_CACHE)),
    providerRoute('google', 'userinfo', PATHS.userinfo, userinfo),
    providerRoute('google', 'revoke', PATHS.revoke, revoke),
  ]
}
