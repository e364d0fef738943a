import { randomUUID } from 'node:crypto'
import { FakeHttpError, json, type FakeRequest, type FakeResponse, type FakeRoute } from '#fakes/http/fake-server.ts'
import { microsoftObjectId, microsoftPairwiseSubject, microsoftTenantId, splitName } from './identities.ts'
import type { SigningKey } from './keys.ts'
import {
  bearer,
  notFoundBody,
  providerRoute,
  PUBLIC_CACHE,
  splitScopes,
  type AuthorizeCheck,
  type ClientRegistration,
  type OAuthCore,
  type ProviderProfile,
} from './oauth-core.ts'
import { readToken } from './tokens.ts'

/**
 * Microsoft identity platform v2.0 endpoints per tenant (authorize, token, keys, discovery) and Graph
 * `/me` (providers.md B1, D3). The flows are shared (oauth-core.ts); this file holds what Microsoft does
 * its own way: AADSTS error bodies, authorize errors sent back to the app, refresh tokens only with
 * `offline_access` and rotated on every use, tenant-templated issuers, and Graph's error shape.
 */

const PATHS = {
  authorize: '/microsoft/:tenant/oauth2/v2.0/authorize',
  token: '/microsoft/:tenant/oauth2/v2.0/token',
  jwks: '/microsoft/:tenant/discovery/v2.0/keys',
  discovery: '/microsoft/:tenant/v2.0/.well-known/openid-configuration',
  graphMe: '/microsoft/graph/v1.0/me',
}

export function microsoftUrls(origin: string, tenant = 'common') {
  const at = (pattern: string) => `${origin}${pattern.replace(':tenant', tenant)}`
  return {
    authorizeUrl: at(PATHS.authorize),
    tokenUrl: at(PATHS.token),
    jwksUrl: at(PATHS.jwks),
    issuerTemplate: `${origin}/microsoft/{tenantid}/v2.0`,
    graphUrl: `${origin}/microsoft/graph/v1.0`,
    discoveryUrl: at(PATHS.discovery),
  }
}

/** A tenant GUID, a domain, or common/organizations/consumers; `graph` is Graph's own prefix. */
const TENANT = /^[A-Za-z0-9.-]+$/
const MULTI_TENANT = new Set(['common', 'organizations', 'consumers'])
const GRAPH_RESOURCE = 'https://graph.microsoft.com/'
const OIDC_SCOPES = new Set(['openid', 'profile', 'email', 'offline_access'])
const USER_READ_SCOPES = ['User.Read', 'User.ReadWrite', 'User.ReadBasic.All', 'User.Read.All', 'Directory.Read.All']
/** The AADSTS number Microsoft sends for each authorize check. */
const AUTHORIZE_AADSTS: Record<AuthorizeCheck, number> = {
  duplicate: 90015,
  missing: 900144,
  response_type: 700054,
  response_mode: 900144,
  scope: 70011,
  code_challenge_method: 501491,
  code_challenge: 501491,
}

/** Microsoft reports Graph short names as full resource URIs, and OIDC scopes as they are. */
function grantedScopes(scopes: string[]): string[] {
  return [...new Set(scopes.map((s) => (OIDC_SCOPES.has(s) || s.includes('://') ? s : `${GRAPH_RESOURCE}${s}`)))]
}

/** An injected Graph fault without its own body, in Graph's error shape. */
export function graphFaultBody(status: number): { error: { code: string; message: string } } {
  const code = status === 429 ? 'TooManyRequests' : status === 503 ? 'ServiceNotAvailable' : 'generalException'
  return { error: { code, message: `Injected fault (${status}).` } }
}

/** A handler for a `/microsoft/:tenant/…` route; an impossible tenant is a path no endpoint has. */
function perTenant(handle: (request: FakeRequest, tenant: string) => FakeResponse | Promise<FakeResponse>) {
  return (request: FakeRequest) => {
    const tenant = request.params.tenant ?? ''
    if (!TENANT.test(tenant) || tenant === 'graph') throw new FakeHttpError(404, notFoundBody(request.path), {}, 'not_found')
    return handle(request, tenant)
  }
}

export function microsoftRoutes(core: OAuthCore, options: { client: ClientRegistration; key: SigningKey; origin: () => string }): FakeRoute[] {
  const urls = (tenant?: string) => microsoftUrls(options.origin(), tenant)
  const issuer = (tid: string) => urls().issuerTemplate.replace('{tenantid}', tid)
  const timestamp = () => `${new Date(core.now()).toISOString().replace('T', ' ').slice(0, 19)}Z`

  function aadError(status: number, error: string, description: string, aadsts: number): FakeHttpError {
    return new FakeHttpError(
      status,
      {
        error,
        error_description: `AADSTS${aadsts}: ${description} Trace ID: ${randomUUID()} Correlation ID: ${randomUUID()} Timestamp: ${timestamp()}`,
        error_codes: [aadsts],
        timestamp: timestamp(),
        trace_id: randomUUID(),
        correlation_id: randomUUID(),
      },
      {},
      error,
    )
  }

  function graphError(status: number, code: string, message: string): FakeHttpError {
    const headers: Record<string, string> = {}
    if (status === 401) headers['WWW-Authenticate'] = `Bearer realm="", authorization_uri="${urls().authorizeUrl}"`
    const innerError = { date: new Date(core.now()).toISOString().slice(0, 19), 'request-id': randomUUID(), 'client-request-id': randomUUID() }
    return new FakeHttpError(status, { error: { code, message, innerError } }, headers, code)
  }

  const missing = (name: string) => aadError(400, 'invalid_request', `The request body must contain the following parameter: '${name}'.`, 900144)

  const profile: ProviderProfile = {
    provider: 'microsoft',
    client: options.client,
    key: options.key,
    defaultAccessTokenTtl: 3600,
    // No verification unless the app registration asks for the optional `xms_edov` claim and the
    // tenant verified the domain (B1).
    defaultEmailVerified: false,
    codePrefix: 'M.C5_',
    codeChallengeMethods: ['S256'],
    responseModes: ['query'],
    unknownClientPage: (clientId) => ({
      status: 400,
      error: 'unauthorized_client',
      description: `AADSTS700016: Application with identifier '${clientId}' was not found in the directory.`,
    }),
    unregisteredRedirectPage: (redirectUri) => ({
      status: 400,
      error: 'invalid_request',
      description: `AADSTS50011: The redirect URI '${redirectUri ?? ''}' specified in the request does not match the redirect URIs configured for the application '${options.client.clientId}'.`,
    }),
    authorizeProblem: (check, error, description, back) => ({ kind: 'redirect', ...back, error, description: `AADSTS${AUTHORIZE_AADSTS[check]}: ${description}` }),
    loginRequiredDescription: 'AADSTS50058: A silent sign-in request was sent but no user is signed in.',
    accessDeniedDescription: 'AADSTS65004: User declined to consent to access the app.',
    tokenErrors: {
      notForm: () => aadError(400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded.', 900144),
      duplicate: (name) => aadError(400, 'invalid_request', `Parameter '${name}' was sent more than once.`, 90015),
      malformedBasic: () => aadError(401, 'invalid_client', 'Malformed Basic credentials.', 7000215),
      unknownClient: (clientId) => aadError(400, 'unauthorized_client', `Application with identifier '${clientId}' was not found in the directory.`, 700016),
      missingSecret: () => aadError(401, 'invalid_client', "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.", 7000218),
      wrongSecret: () =>
        aadError(401, 'invalid_client', 'Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.', 7000215),
      missing,
      badCode: () => aadError(400, 'invalid_grant', "The provided value for the 'code' parameter is not valid.", 9002313),
      codeReplayed: () =>
        aadError(400, 'invalid_grant', 'OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.', 54005),
      codeExpired: () =>
        aadError(
          400,
          'invalid_grant',
          'The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource.',
          70008,
        ),
      redirectMismatch: (redirectUri) =>
        aadError(400, 'invalid_grant', `The redirect URI '${redirectUri}' specified in the request does not match the redirect URI used to obtain the authorization code.`, 50011),
      missingVerifier: () => missing('code_verifier'),
      badVerifier: () => aadError(400, 'invalid_grant', 'The code_verifier does not match the code_challenge supplied in the authorization request.', 501481),
      badRefreshToken: () =>
        aadError(
          400,
          'invalid_grant',
          'The provided grant has expired due to it being revoked, a fresh auth token is needed. The user might have changed or reset their password.',
          50173,
        ),
      missingGrantType: () => missing('grant_type'),
      unsupportedGrantType: () => aadError(400, 'unsupported_grant_type', `The provided value for the input parameter 'grant_type' is not valid.`, 70003),
    },
    issuesRefreshToken: (grant) => grant.scopes.includes('offline_access'),
    // Microsoft rotates refresh tokens on every use — providers.md B1.
    rotatesRefreshTokens: true,
    idTokenClaims(grant, { iat, exp }) {
      const tid = microsoftTenantId(grant.email)
      return {
        ver: '2.0',
        iss: issuer(tid),
        aud: grant.clientId,
        iat,
        nbf: iat,
        exp,
        tid,
        oid: microsoftObjectId(grant.email),
        sub: microsoftPairwiseSubject(grant.email, grant.clientId),
        name: grant.name,
        preferred_username: grant.email,
        // xms_edov ("email domain owner verified") is Microsoft's only statement that the address is
        // verified; without it the email claim is whatever the tenant typed in (B1).
        ...(grant.scopes.includes('email') ? { email: grant.email, ...(grant.emailVerified ? { xms_edov: true } : {}) } : {}),
        ...(grant.nonce ? { nonce: grant.nonce } : {}),
      }
    },
    tokenBody: (tokens, grant) => ({
      token_type: 'Bearer',
      scope: grantedScopes(grant.scopes).join(' '),
      expires_in: tokens.expires_in,
      ext_expires_in: tokens.expires_in,
      access_token: tokens.access_token,
      ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
      ...(tokens.id_token ? { id_token: tokens.id_token } : {}),
    }),
  }

  function discovery(tenant: string): Record<string, unknown> {
    const u = urls(tenant)
    return {
      issuer: issuer(MULTI_TENANT.has(tenant) ? '{tenantid}' : tenant),
      authorization_endpoint: u.authorizeUrl,
      token_endpoint: u.tokenUrl,
      jwks_uri: u.jwksUrl,
      userinfo_endpoint: `${options.origin()}/microsoft/graph/oidc/userinfo`,
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

  function graphMe(request: FakeRequest): FakeResponse {
    if (request.method !== 'GET') throw graphError(405, 'Request_BadRequest', 'Specified HTTP method is not allowed for the request target.')
    const token = bearer(request)
    if (!token) throw graphError(401, 'InvalidAuthenticationToken', 'Access token is empty.')
    const claims = readToken(token, 'microsoft', 'access')
    if (!claims || core.isRevoked(claims)) throw graphError(401, 'InvalidAuthenticationToken', 'Access token validation failure. Invalid audience.')
    if ((claims.x ?? 0) <= core.now()) throw graphError(401, 'InvalidAuthenticationToken', 'Lifetime validation failed, the token is expired.')
    const scopes = splitScopes(claims.s)
    if (!USER_READ_SCOPES.some((s) => scopes.includes(s) || scopes.includes(`${GRAPH_RESOURCE}${s}`))) {
      throw graphError(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.')
    }
    const { given, family } = splitName(claims.n)
    return json(200, {
      '@odata.context': `${urls().graphUrl}/$metadata#users/$entity`,
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

  return [
    providerRoute('microsoft', 'graph', PATHS.graphMe, graphMe),
    providerRoute('microsoft', 'authorize', PATHS.authorize, perTenant((request) => core.authorize(profile, request))),
    providerRoute('microsoft', 'token', PATHS.token, perTenant((request) => core.token(profile, request))),
    providerRoute('microsoft', 'jwks', PATHS.jwks, perTenant(() => json(200, { keys: [{ ...options.key.publicJwk, issuer: issuer('{tenantid}') }] }, PUBLIC_CACHE))),
    providerRoute('microsoft', 'discovery', PATHS.discovery, perTenant((_request, tenant) => json(200, discovery(tenant), PUBLIC_CACHE))),
  ]
}
