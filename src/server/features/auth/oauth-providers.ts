import { CodeChallengeMethod, OAuth2Client, OAuth2RequestError } from 'arctic'
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload } from 'jose'
import { z } from 'zod'
import type { Config } from '#server/config.ts'
import { oauthCallbackPath, type AuthProvider } from '#shared/api/auth.ts'
import { OAuthFlowError } from './auth.errors.ts'

/**
 * Sign-in providers built on arctic's generic OAuth2Client (PKCE S256) and jose (id token checks),
 * with every endpoint taken from config so local fakes can stand in
 * (docs/decisions/001-oauth-library.md, reference A1/B1).
 */

export interface VerifiedProfile {
  /** Google `sub`; Microsoft `${tid}:${oid}` (reference B1: sub is pairwise per app, key on tid+oid). */
  subject: string
  email: string
  /**
   * Whether the provider vouches for the address: Google `email_verified`, Microsoft the optional
   * `xms_edov` claim (docs/decisions/008-verified-addresses.md). Only a verified address may match
   * an existing account or earn the admin role.
   */
  emailVerified: boolean
  displayName: string
}

/** Providers send these claims as booleans, and some as strings or 1. */
const isTrueClaim = (value: unknown) => value === true || value === 'true' || value === 1 || value === '1'

export interface SignInProvider {
  id: AuthProvider
  createAuthorizationUrl(state: string, codeVerifier: string, nonce: string): URL
  /** Exchanges the code and verifies the id token; throws OAuthFlowError with a precise code. */
  completeSignIn(code: string, codeVerifier: string, nonce: string): Promise<VerifiedProfile>
}

export const SIGN_IN_SCOPES: Record<AuthProvider, string[]> = {
  google: ['openid', 'email', 'profile'],
  microsoft: ['openid', 'profile', 'email', 'offline_access', 'User.Read'],
}

/** Tokens may be issued by a server whose clock is a little ahead of ours. */
const CLOCK_TOLERANCE_S = 60

export const callbackUrl = (config: Config, provider: AuthProvider) => `${config.appOrigin}${oauthCallbackPath(provider)}`

const jwksCache = new Map<string, ReturnType<typeof createRemoteJWKSet>>()
function remoteJwks(url: string) {
  let jwks = jwksCache.get(url)
  if (!jwks) {
    jwks = createRemoteJWKSet(new URL(url), { cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 })
    jwksCache.set(url, jwks)
  }
  return jwks
}

async function exchangeCode(client: OAuth2Client, tokenUrl: string, code: string, codeVerifier: string, provider: AuthProvider) {
  try {
    return await client.validateAuthorizationCode(tokenUrl, code, codeVerifier)
  } catch (error) {
    const reason = error instanceof OAuth2RequestError ? `token endpoint: ${error.code}` : `token endpoint unreachable or invalid: ${(error as Error).message}`
    throw OAuthFlowError.of('token_exchange_failed', provider, reason)
  }
}

function idTokenOf(tokens: { idToken(): string }, provider: AuthProvider): string {
  try {
    return tokens.idToken()
  } catch {
    throw OAuthFlowError.of('invalid_id_token', provider, 'token response had no id_token')
  }
}

async function verify(idToken: string, jwksUrl: string, issuer: string | string[], audience: string, nonce: string, provider: AuthProvider) {
  let payload: JWTPayload
  try {
    ;({ payload } = await jwtVerify(idToken, remoteJwks(jwksUrl), {
      issuer,
      audience,
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ['exp', 'iat', 'sub'],
    }))
  } catch (error) {
    throw OAuthFlowError.of('invalid_id_token', provider, `id token rejected: ${(error as Error).message}`)
  }
  // The nonce ties the id token to this browser's authorization request (replay protection).
  if (payload.nonce !== nonce) throw OAuthFlowError.of('invalid_id_token', provider, 'id token nonce mismatch')
  return payload
}

const displayNameOf = (name: unknown, email: string) =>
  typeof name === 'string' && name.trim() ? name.trim().slice(0, 200) : (email.split('@')[0] ?? email)

const EmailSchema = z.email()

export function createGoogleProvider(config: Config): SignInProvider {
  const c = config.google
  const client = new OAuth2Client(c.clientId, c.clientSecret, callbackUrl(config, 'google'))
  return {
    id: 'google',
    createAuthorizationUrl(state, codeVerifier, nonce) {
      const url = client.createAuthorizationURLWithPKCE(c.authUrl, state, CodeChallengeMethod.S256, codeVerifier, SIGN_IN_SCOPES.google)
      url.searchParams.set('nonce', nonce)
      url.searchParams.set('prompt', 'select_account')
      return url
    },
    async completeSignIn(code, codeVerifier, nonce) {
      const tokens = await exchangeCode(client, c.tokenUrl, code, codeVerifier, 'google')
      const claims = await verify(idTokenOf(tokens, 'google'), c.jwksUrl, c.issuers, c.clientId, nonce, 'google')
      const email = typeof claims.email === 'string' ? claims.email : ''
      if (!EmailSchema.safeParse(email).success) throw OAuthFlowError.of('email_missing', 'google', 'id token without an email')
      return { subject: claims.sub as string, email, emailVerified: isTrueClaim(claims.email_verified), displayName: displayNameOf(claims.name, email) }
    },
  }
}

const GraphMeSchema = z.object({ mail: z.string().nullish(), userPrincipalName: z.string().nullish() })

/** Real tenant ids are GUIDs; accept any plain token so the issuer template cannot be abused. */
const TenantIdSchema = z.string().regex(/^[A-Za-z0-9-]{1,64}$/)

export function createMicrosoftProvider(config: Config, fetchImpl: typeof fetch = fetch): SignInProvider {
  const c = config.microsoft
  const client = new OAuth2Client(c.clientId, c.clientSecret, callbackUrl(config, 'microsoft'))

  async function emailFromGraph(accessToken: string): Promise<string | null> {
    try {
      const res = await fetchImpl(`${c.graphUrl}/me?$select=mail,userPrincipalName`, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      })
      if (!res.ok) return null
      const me = GraphMeSchema.safeParse(await res.json())
      if (!me.success) return null
      return me.data.mail ?? me.data.userPrincipalName ?? null
    } catch {
      return null
    }
  }

  return {
    id: 'microsoft',
    createAuthorizationUrl(state, codeVerifier, nonce) {
      const url = client.createAuthorizationURLWithPKCE(c.authUrl, state, CodeChallengeMethod.S256, codeVerifier, SIGN_IN_SCOPES.microsoft)
      url.searchParams.set('response_mode', 'query')
      url.searchParams.set('nonce', nonce)
      url.searchParams.set('prompt', 'select_account')
      return url
    },
    async completeSignIn(code, codeVerifier, nonce) {
      const tokens = await exchangeCode(client, c.tokenUrl, code, codeVerifier, 'microsoft')
      const idToken = idTokenOf(tokens, 'microsoft')
      // With the `common` endpoint the issuer depends on the user's tenant (reference B1): read tid
      // from the unverified token only to build the expected issuer, then verify everything.
      let tid: string
      try {
        tid = TenantIdSchema.parse(decodeJwt(idToken).tid)
      } catch {
        throw OAuthFlowError.of('invalid_id_token', 'microsoft', 'id token without a valid tid')
      }
      const issuer = c.issuerTemplate.replace('{tenantid}', tid)
      const claims = await verify(idToken, c.jwksUrl, issuer, c.clientId, nonce, 'microsoft')
      if (typeof claims.oid !== 'string' || !claims.oid) {
        throw OAuthFlowError.of('invalid_id_token', 'microsoft', 'id token without oid')
      }
      // `email` is optional and mutable in Entra tokens: any tenant can type any address into it
      // (reference B1, "nOAuth"). It counts as verified only with the optional claim xms_edov
      // ("email domain owner verified"); without an `email` claim, the mailbox address from Graph
      // /me is used, which is never verified for the same reason.
      let email = typeof claims.email === 'string' && EmailSchema.safeParse(claims.email).success ? claims.email : null
      const emailVerified = email !== null && isTrueClaim(claims.xms_edov)
      if (!email) {
        let accessToken: string | null = null
        try {
          accessToken = tokens.accessToken()
        } catch {
          accessToken = null
        }
        const fromGraph = accessToken ? await emailFromGraph(accessToken) : null
        email = fromGraph && EmailSchema.safeParse(fromGraph).success ? fromGraph : null
      }
      if (!email) throw OAuthFlowError.of('email_missing', 'microsoft', 'no email in id token or Graph /me')
      return { subject: `${tid}:${claims.oid}`, email, emailVerified, displayName: displayNameOf(claims.name, email) }
    },
  }
}

export function createSignInProviders(config: Config, fetchImpl?: typeof fetch): Record<AuthProvider, SignInProvider> {
  return { google: createGoogleProvider(config), microsoft: createMicrosoftProvider(config, fetchImpl) }
}
