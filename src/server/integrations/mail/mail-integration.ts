import type { Config } from '#server/config.ts'
import { createGmailOAuth } from './gmail/gmail-oauth.ts'
import { createGmailProvider } from './gmail/gmail-provider.ts'
import type { MailCredentials, MailProvider, MailProviderName, MailTokens, PushTarget } from './mail-provider.ts'
import { createOutlookOAuth, OUTLOOK_CONSENT_MANAGEMENT } from './outlook/outlook-oauth.ts'
import { createOutlookProvider } from './outlook/outlook-provider.ts'

/** The connect flow's OAuth client for one provider (incremental consent for mail access, issue 12). */
export interface MailOAuthClient {
  readonly scopes: readonly string[]
  createAuthorizationUrl(state: string, codeVerifier: string, loginHint?: string): URL
  exchangeCode(code: string, codeVerifier: string): Promise<MailTokens>
  refresh(refreshToken: string): Promise<MailTokens>
  /**
   * Ends the grant where the provider allows it. `revoked: false` with a hint when it cannot (Microsoft
   * has no call for one delegated grant): the person removes access themselves.
   */
  revoke(tokens: Pick<MailTokens, 'accessToken' | 'refreshToken'>): Promise<{ revoked: boolean; hint?: string }>
  hasRequiredScopes(grantedScope: string): boolean
}

/** Facts about a provider that the rest of the server needs as data, never as a branch on its name. */
export interface MailProviderTraits {
  /** "Gmail" / "Outlook", for messages. */
  label: string
  /** What a dead grant (invalid_grant) makes the mailbox: SPEC 4 has no "revoked" status for Outlook. */
  revokedStatus: 'revoked' | 'action_required'
  /** Whether the status answer offers a re-authorization URL (SPEC 4 "Gmail re-authentication"). */
  offersReauthorization: boolean
  /** Push is renewed at least this often whatever its expiry says (Google: watch daily, providers.md A3). */
  renewPushEveryMs: number | null
}

export interface MailIntegration {
  traits(provider: MailProviderName): MailProviderTraits
  oauth(provider: MailProviderName): MailOAuthClient
  provider(provider: MailProviderName, credentials: MailCredentials): MailProvider
  /** Where the provider sends push notifications for a mailbox (Outlook also echoes the clientState). */
  pushTarget(provider: MailProviderName, clientState: string): PushTarget
  /** Whether push can be set up at all (Gmail needs a Pub/Sub topic in config). */
  pushAvailable(provider: MailProviderName): boolean
}

const TRAITS: Record<MailProviderName, MailProviderTraits> = {
  gmail: { label: 'Gmail', revokedStatus: 'revoked', offersReauthorization: true, renewPushEveryMs: 24 * 3600_000 },
  outlook: { label: 'Outlook', revokedStatus: 'action_required', offersReauthorization: false, renewPushEveryMs: null },
}

export const mailCallbackUrl = (config: Pick<Config, 'appOrigin'>, provider: MailProviderName) => `${config.appOrigin}/_api/${provider}/callback`

/**
 * The one place that maps a provider name to its adapter, OAuth client and push settings
 * (DESIGN "integrations/mail": only this folder branches on the provider).
 */
export interface MailIntegrationOptions {
  /** Backoff of both adapters' retries (tests shorten it; Retry-After is honoured either way). */
  retry?: { maxAttempts?: number; baseDelayMs?: number; maxDelayMs?: number }
  /** The clock push expirations are computed from (tests move it with the fakes' clocks). */
  now?: () => Date
}

export function createMailIntegration(config: Config, options: MailIntegrationOptions = {}): MailIntegration {
  const gmailOAuth = createGmailOAuth({
    clientId: config.google.clientId,
    clientSecret: config.google.clientSecret,
    redirectUri: mailCallbackUrl(config, 'gmail'),
    authUrl: config.google.authUrl,
    tokenUrl: config.google.tokenUrl,
    revokeUrl: config.gmail.revokeUrl,
  })
  const outlookOAuth = createOutlookOAuth({
    clientId: config.microsoft.clientId,
    clientSecret: config.microsoft.clientSecret,
    redirectUri: mailCallbackUrl(config, 'outlook'),
    authUrl: config.microsoft.authUrl,
    tokenUrl: config.microsoft.tokenUrl,
  })
  const oauth: Record<MailProviderName, MailOAuthClient> = {
    gmail: {
      scopes: gmailOAuth.scopes,
      createAuthorizationUrl: (state, verifier, hint) => gmailOAuth.createAuthorizationUrl(state, verifier, hint),
      exchangeCode: (code, verifier) => gmailOAuth.exchangeCode(code, verifier),
      refresh: (token) => gmailOAuth.refresh(token),
      revoke: async (tokens) => {
        await gmailOAuth.revoke(tokens)
        return { revoked: true }
      },
      hasRequiredScopes: (scope) => gmailOAuth.hasRequiredScopes(scope),
    },
    outlook: {
      scopes: outlookOAuth.scopes,
      createAuthorizationUrl: (state, verifier, hint) => outlookOAuth.createAuthorizationUrl(state, verifier, hint),
      exchangeCode: (code, verifier) => outlookOAuth.exchangeCode(code, verifier),
      refresh: (token) => outlookOAuth.refresh(token),
      revoke: async () => ({
        revoked: false,
        hint: `Microsoft does not let apps end their own access: remove Inbox Guard at ${OUTLOOK_CONSENT_MANAGEMENT.personal} (personal accounts) or ${OUTLOOK_CONSENT_MANAGEMENT.work} (work accounts) if you want to.`,
      }),
      hasRequiredScopes: (scope) => outlookOAuth.hasRequiredScopes(scope),
    },
  }
  return {
    traits: (provider) => TRAITS[provider],
    oauth: (provider) => oauth[provider],
    provider: (provider, credentials) =>
      provider === 'gmail'
        ? createGmailProvider({ apiUrl: config.gmail.apiUrl, credentials, retry: options.retry })
        : createOutlookProvider({ graphUrl: config.microsoft.graphUrl, credentials, retry: options.retry, now: options.now }),
    pushTarget: (provider, clientState) =>
      provider === 'gmail'
        ? { gmailTopic: config.gmail.pubsubTopic }
        : {
            notificationUrl: `${config.appUrl}/_api/webhooks/outlook`,
            lifecycleNotificationUrl: `${config.appUrl}/_api/webhooks/outlook/lifecycle`,
            clientState,
          },
    pushAvailable: (provider) => provider !== 'gmail' || Boolean(config.gmail.pubsubTopic),
  }
}
