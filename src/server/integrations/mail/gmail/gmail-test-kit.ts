import { randomBytes } from 'node:crypto'
import { startGmailFake, type GmailFake, type GmailFakeOptions } from '#fakes/gmail/server.ts'
import { startIdentityFakes, type IdentityFakes } from '#fakes/identity/server.ts'
import type { MailCredentials, MailTokens } from '../mail-provider.ts'
import { createGmailOAuth, type GmailOAuth } from './gmail-oauth.ts'

/**
 * For tests only: the identity fakes and the Gmail fake on loopback, and a way to connect a mailbox the
 * way the app will (consent form posted, code exchanged by the real OAuth client), with in-memory
 * MailCredentials standing in for the mailboxes feature's encrypted token store.
 */

const CLIENT = { clientId: 'inbox-guard-gmail-test.apps.example', clientSecret: 'gmail-test-secret' }
const REDIRECT_URI = 'http://127.0.0.1:3999/_api/gmail/callback'

export interface TestMailbox {
  email: string
  tokens: MailTokens
  credentials: MailCredentials
  /** How often credentials.refresh() ran. */
  refreshes(): number
}

export interface GmailTestbed {
  identity: IdentityFakes
  fake: GmailFake
  oauth: GmailOAuth
  /** Runs the consent flow for this identity and returns its tokens. */
  authorize(email: string): Promise<MailTokens>
  connect(email: string): Promise<TestMailbox>
  close(): Promise<void>
}

export async function startGmailTestbed(fakeOptions: Omit<GmailFakeOptions, 'identity'> = {}): Promise<GmailTestbed> {
  const identity = await startIdentityFakes({ google: { ...CLIENT, redirectUris: [REDIRECT_URI] }, microsoft: { clientId: 'unused', clientSecret: 'unused' } })
  const fake = await startGmailFake({ identity, ...fakeOptions })
  const oauth = createGmailOAuth({
    ...CLIENT,
    redirectUri: REDIRECT_URI,
    authUrl: identity.google.authorizeUrl,
    tokenUrl: identity.google.tokenUrl,
    revokeUrl: identity.google.revokeUrl,
  })

  async function authorize(email: string): Promise<MailTokens> {
    const verifier = randomBytes(32).toString('base64url')
    const url = oauth.createAuthorizationUrl(randomBytes(8).toString('hex'), verifier, email)
    // What the demo consent page's form posts when the person allows access.
    const form = new URLSearchParams(url.searchParams)
    form.set('email', email)
    form.set('name', email.split('@')[0] ?? email)
    form.set('decision', 'allow')
    const res = await fetch(`${url.origin}${url.pathname}`, { method: 'POST', body: form, redirect: 'manual' })
    const code = new URL(res.headers.get('location') ?? 'http://invalid/').searchParams.get('code')
    if (res.status !== 302 || !code) throw new Error(`consent failed with ${res.status}`)
    return oauth.exchangeCode(code, verifier)
  }

  return {
    identity,
    fake,
    oauth,
    authorize,
    async connect(email) {
      let tokens = await authorize(email)
      let refreshes = 0
      const credentials: MailCredentials = {
        accessToken: async () => tokens.accessToken,
        async refresh() {
          refreshes += 1
          tokens = await oauth.refresh(tokens.refreshToken)
          return tokens.accessToken
        },
      }
      return { email, tokens, credentials, refreshes: () => refreshes }
    },
    async close() {
      await fake.close()
      await identity.close()
    },
  }
}
