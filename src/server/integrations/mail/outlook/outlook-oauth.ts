import { ArcticFetchError, CodeChallengeMethod, OAuth2Client, OAuth2RequestError, UnexpectedErrorResponseBodyError, UnexpectedResponseError, type OAuth2Tokens } from 'arctic'
import { z } from 'zod'
import { MailAuthRevokedError, MailProviderError, type MailTokens } from '../mail-provider.ts'

/**
 * OAuth for connecting an Outlook mailbox (providers.md B1), on arctic's OAuth2Client like sign-in
 * (docs/decisions/001-oauth-library.md), with every endpoint from config so the identity fake stands in.
 * Why these scopes, and what disconnecting can and cannot do: docs/decisions/011-outlook-adapter-and-fake.md.
 */

/**
 * - `openid email`: who consented (the id token), so the app can tell which account was connected.
 * - `offline_access`: without it Microsoft issues no refresh token, and the filter stops after an hour.
 * - `User.Read`: `GET /me` (the mailbox's address) needs it; Mail.* scopes do not cover `/me`.
 * - `Mail.Read`: reading messages, delta and subscriptions on messages.
 * - `Mail.ReadWrite`: moving messages into our folders and creating those folders (and back, to restore).
 * - `MailboxSettings.Read`: asked by the product brief; no call of this adapter uses it yet (see 011).
 */
export const OUTLOOK_SCOPES = ['openid', 'email', 'offline_access', 'User.Read', 'Mail.Read', 'Mail.ReadWrite', 'MailboxSettings.Read'] as const

/** Without these the adapter cannot work: moving needs Mail.ReadWrite (which includes reading), the address needs User.Read. */
const REQUIRED_SCOPES = ['mail.readwrite', 'user.read']
const GRAPH_RESOURCE = 'https://graph.microsoft.com/'

/**
 * Where a person removes the app's access themselves: Microsoft offers apps no call to revoke one
 * delegated grant (only admin-level or all-sessions revocation), so disconnecting points here.
 */
export const OUTLOOK_CONSENT_MANAGEMENT = {
  personal: 'https://account.live.com/consent/Manage',
  work: 'https://myapplications.microsoft.com/',
} as const

export interface OutlookOAuthConfig {
  clientId: string
  clientSecret: string
  redirectUri: string
  authUrl: string
  tokenUrl: string
}

export interface OutlookOAuth {
  readonly scopes: readonly string[]
  createAuthorizationUrl(state: string, codeVerifier: string, loginHint?: string): URL
  exchangeCode(code: string, codeVerifier: string): Promise<MailTokens>
  /** Microsoft rotates the refresh token on every refresh: store the one returned. invalid_grant → MailAuthRevokedError. */
  refresh(refreshToken: string): Promise<MailTokens>
  /** Resolves without a network call: there is nothing to call (see OUTLOOK_CONSENT_MANAGEMENT). */
  revoke(refreshToken?: string): Promise<void>
  hasRequiredScopes(grantedScope: string): boolean
}

const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  expires_in: z.coerce.number().positive(),
  scope: z.string().optional(),
})

/** "https://graph.microsoft.com/Mail.ReadWrite" and "Mail.ReadWrite" → "mail.readwrite". */
function normalizeScope(scope: string): string {
  const lower = scope.toLowerCase()
  return lower.startsWith(GRAPH_RESOURCE) ? lower.slice(GRAPH_RESOURCE.length) : lower
}

/** The AADSTS number of a Microsoft error description, for logs (the rest can carry trace ids). */
const aadsts = (description: string | null) => /AADSTS\d+/.exec(description ?? '')?.[0]

async function tokenCall(what: 'code exchange' | 'refresh', call: () => Promise<OAuth2Tokens>): Promise<OAuth2Tokens> {
  try {
    return await call()
  } catch (error) {
    if (error instanceof OAuth2RequestError) {
      const detail = [error.code, aadsts(error.description)].filter(Boolean).join(' ')
      // A dead refresh token (expired, revoked, password reset, consent removed): only the person can fix it (B1).
      if (what === 'refresh' && error.code === 'invalid_grant') throw new MailAuthRevokedError(`Microsoft refused the refresh token (${detail}): the mailbox must be reconnected`)
      throw new MailProviderError(`Microsoft token endpoint refused the ${what} (${detail})`, 400, error.code)
    }
    if (error instanceof ArcticFetchError) throw new MailProviderError(`Microsoft token endpoint unreachable during ${what}`, 0, 'network_error')
    if (error instanceof UnexpectedResponseError || error instanceof UnexpectedErrorResponseBodyError) {
      throw new MailProviderError(`Microsoft token endpoint answered ${error.status} during ${what}`, error.status, 'unexpected_response')
    }
    throw error
  }
}

function toMailTokens(tokens: OAuth2Tokens, previousRefreshToken?: string): MailTokens {
  const parsed = TokenResponseSchema.safeParse(tokens.data)
  if (!parsed.success) throw new MailProviderError('Microsoft token endpoint answered an unexpected shape', 200, 'InvalidResponse')
  const refreshToken = parsed.data.refresh_token ?? previousRefreshToken
  if (!refreshToken) throw new MailProviderError('Microsoft issued no refresh token (offline_access was not granted)', 200, 'no_refresh_token')
  return {
    accessToken: parsed.data.access_token,
    refreshToken,
    expiresAt: new Date(Date.now() + parsed.data.expires_in * 1000),
    scope: parsed.data.scope ?? '',
  }
}

export function createOutlookOAuth(config: OutlookOAuthConfig): OutlookOAuth {
  const client = new OAuth2Client(config.clientId, config.clientSecret, config.redirectUri)
  const scopes = [...OUTLOOK_SCOPES]
  return {
    scopes,
    createAuthorizationUrl(state, codeVerifier, loginHint) {
      const url = client.createAuthorizationURLWithPKCE(config.authUrl, state, CodeChallengeMethod.S256, codeVerifier, scopes)
      url.searchParams.set('response_mode', 'query')
      // The person may be signed in to several Microsoft accounts: let them pick the mailbox to connect.
      url.searchParams.set('prompt', 'select_account')
      if (loginHint) url.searchParams.set('login_hint', loginHint)
      return url
    },
    async exchangeCode(code, codeVerifier) {
      return toMailTokens(await tokenCall('code exchange', () => client.validateAuthorizationCode(config.tokenUrl, code, codeVerifier)))
    },
    async refresh(refreshToken) {
      // Microsoft wants the scopes again on refresh (B1); the answer carries a new refresh token.
      return toMailTokens(await tokenCall('refresh', () => client.refreshAccessToken(config.tokenUrl, refreshToken, scopes)), refreshToken)
    },
    async revoke() {
      // Nothing to call: the Microsoft identity platform has no per-grant revocation endpoint for this
      // flow. Disconnecting stops the subscription and forgets the tokens (the caller's part); the person
      // removes the consent itself at OUTLOOK_CONSENT_MANAGEMENT.
    },
    hasRequiredScopes(grantedScope) {
      const granted = new Set(grantedScope.split(/\s+/).filter(Boolean).map(normalizeScope))
      return REQUIRED_SCOPES.every((s) => granted.has(s))
    },
  }
}
