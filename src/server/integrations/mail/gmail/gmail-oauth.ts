import { createHash } from 'node:crypto'
import { CodeChallengeMethod, OAuth2Client, type Credentials } from 'google-auth-library'
import { MailAuthRevokedError, MailProviderError, type MailTokens } from '../mail-provider.ts'

/**
 * OAuth for connecting a Gmail mailbox (providers.md A1), on google-auth-library's OAuth2Client with its
 * authorize, token and revoke endpoints taken from config (`endpoints`, supported since v9), so the
 * identity fakes stand in for Google in tests and demo mode. Scopes: docs/decisions/010.
 */

export const GMAIL_MODIFY_SCOPE = 'https://www.googleapis.com/auth/gmail.modify'

/** gmail.modify covers reading, labelling and watch; never https://mail.google.com/ (A5). */
export const GMAIL_CONNECT_SCOPES = ['openid', 'email', GMAIL_MODIFY_SCOPE] as const

export interface GmailOAuthConfig {
  clientId: string
  clientSecret: string
  redirectUri: string
  authUrl: string
  tokenUrl: string
  revokeUrl: string
}

export interface GmailOAuth {
  readonly scopes: readonly string[]
  /** The consent URL: PKCE S256, offline access (a refresh token), incremental grants, forced consent. */
  createAuthorizationUrl(state: string, codeVerifier: string, loginHint?: string): URL
  exchangeCode(code: string, codeVerifier: string): Promise<MailTokens>
  /** New access token; keeps the old refresh token unless Google sends a new one. invalid_grant → MailAuthRevokedError. */
  refresh(refreshToken: string): Promise<MailTokens>
  /** Ends the grant (revoking the refresh token revokes its access tokens too). Already revoked counts as done. */
  revoke(tokens: Pick<MailTokens, 'refreshToken' | 'accessToken'>): Promise<void>
  /** Whether the granted scopes (the token response's `scope`) let the adapter work: people can untick Gmail access. */
  hasRequiredScopes(grantedScope: string): boolean
}

/** google-auth-library keeps the raw refresh call protected; this exposes it so a new refresh token (if any) is not lost. */
class ConnectClient extends OAuth2Client {
  refreshWith(refreshToken: string) {
    return this.refreshTokenNoCache(refreshToken)
  }
}

interface OAuthFailure {
  status?: number
  error?: string
}

/** What the token endpoint said, without the SDK error (its config carries the request form, codes and tokens included). */
function failureOf(error: unknown): OAuthFailure {
  const response = (error as { response?: { status?: number; data?: unknown } } | undefined)?.response
  const data = response?.data as { error?: unknown } | undefined
  return { status: response?.status, error: typeof data?.error === 'string' ? data.error : undefined }
}

function toTokens(credentials: Credentials, fallbackRefreshToken?: string): MailTokens {
  const refreshToken = credentials.refresh_token ?? fallbackRefreshToken
  if (!credentials.access_token) throw new MailProviderError('Google answered without an access token', 502, 'invalid_response')
  if (!refreshToken) {
    // Only with access_type=offline and (first or forced) consent does Google send one (A1).
    throw new MailProviderError('Google answered without a refresh token', 502, 'missing_refresh_token')
  }
  return {
    accessToken: credentials.access_token,
    refreshToken,
    expiresAt: new Date(credentials.expiry_date ?? Date.now() + 3_300_000),
    scope: credentials.scope ?? '',
  }
}

export function createGmailOAuth(config: GmailOAuthConfig): GmailOAuth {
  const client = () =>
    new ConnectClient({
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      redirectUri: config.redirectUri,
      endpoints: { oauth2AuthBaseUrl: config.authUrl, oauth2TokenUrl: config.tokenUrl, oauth2RevokeUrl: config.revokeUrl },
    })

  return {
    scopes: GMAIL_CONNECT_SCOPES,

    createAuthorizationUrl(state, codeVerifier, loginHint) {
      return new URL(
        client().generateAuthUrl({
          scope: [...GMAIL_CONNECT_SCOPES],
          state,
          access_type: 'offline',
          include_granted_scopes: true,
          // Forces the consent screen, so Google issues a refresh token even on a reconnect (A1).
          prompt: 'consent',
          code_challenge_method: CodeChallengeMethod.S256,
          code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
          ...(loginHint ? { login_hint: loginHint } : {}),
        }),
      )
    },

    async exchangeCode(code, codeVerifier) {
      let tokens: Credentials
      try {
        ;({ tokens } = await client().getToken({ code, codeVerifier }))
      } catch (error) {
        const failure = failureOf(error)
        throw new MailProviderError(`Google token exchange failed${failure.error ? `: ${failure.error}` : ''}`, failure.status ?? 0, failure.error ?? 'token_exchange_failed')
      }
      return toTokens(tokens)
    },

    async refresh(refreshToken) {
      let tokens: Credentials
      try {
        ;({ tokens } = await client().refreshWith(refreshToken))
      } catch (error) {
        const failure = failureOf(error)
        // The grant is dead (revoked, expired, password change…); retrying cannot help (A1).
        if (failure.error === 'invalid_grant') throw new MailAuthRevokedError('Google refused the refresh token: invalid_grant')
        throw new MailProviderError(`Google token refresh failed${failure.error ? `: ${failure.error}` : ''}`, failure.status ?? 0, failure.error ?? 'refresh_failed')
      }
      return toTokens(tokens, refreshToken)
    },

    async revoke(tokens) {
      try {
        await client().revokeToken(tokens.refreshToken || tokens.accessToken)
      } catch (error) {
        const failure = failureOf(error)
        // Already revoked or expired: the grant is gone, which is what was asked.
        if (failure.status === 400 && (failure.error === 'invalid_token' || failure.error === 'invalid_grant')) return
        throw new MailProviderError(`Google token revocation failed${failure.error ? `: ${failure.error}` : ''}`, failure.status ?? 0, failure.error ?? 'revoke_failed')
      }
    },

    hasRequiredScopes(grantedScope) {
      return grantedScope.split(/\s+/).includes(GMAIL_MODIFY_SCOPE)
    },
  }
}
