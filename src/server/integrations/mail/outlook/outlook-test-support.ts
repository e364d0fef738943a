import { randomBytes } from 'node:crypto'
import type { IdentityFakes } from '#fakes/identity/server.ts'
import { consentAt, TEST_MICROSOFT_CLIENT, TEST_REDIRECT_URI } from '#fakes/graph-mail/test-support.ts'
import type { MailCredentials, MailTokens } from '../mail-provider.ts'
import { createOutlookOAuth, type OutlookOAuth } from './outlook-oauth.ts'

/**
 * Test support for the Outlook adapter: connects a mailbox through the real OAuth client against the
 * identity fake (authorize → consent → code exchange), and keeps its tokens the way the mailboxes
 * feature does (MailCredentials: hand out the access token, refresh on demand, store the rotated
 * refresh token).
 */

export function testOutlookOAuth(identity: IdentityFakes): OutlookOAuth {
  return createOutlookOAuth({
    clientId: TEST_MICROSOFT_CLIENT.clientId,
    clientSecret: TEST_MICROSOFT_CLIENT.clientSecret,
    redirectUri: TEST_REDIRECT_URI,
    authUrl: identity.microsoft.authorizeUrl,
    tokenUrl: identity.microsoft.tokenUrl,
  })
}

export async function connectTokens(oauth: OutlookOAuth, email: string): Promise<MailTokens> {
  const state = randomBytes(16).toString('base64url')
  const verifier = randomBytes(32).toString('base64url')
  const callback = await consentAt(oauth.createAuthorizationUrl(state, verifier, email), email)
  if (callback.searchParams.get('state') !== state) throw new Error('state mismatch')
  return oauth.exchangeCode(callback.searchParams.get('code') ?? '', verifier)
}

export interface StoredCredentials {
  credentials: MailCredentials
  /** The tokens as the mailboxes feature would have stored them. */
  tokens: MailTokens
  refreshes: number
}

export function storedCredentials(oauth: OutlookOAuth, initial: MailTokens): StoredCredentials {
  const store: StoredCredentials = {
    tokens: initial,
    refreshes: 0,
    credentials: {
      accessToken: async () => store.tokens.accessToken,
      refresh: async () => {
        store.tokens = await oauth.refresh(store.tokens.refreshToken)
        store.refreshes += 1
        return store.tokens.accessToken
      },
    },
  }
  return store
}
