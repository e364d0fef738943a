import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MailAuthRevokedError, MailProviderError } from '../mail-provider.ts'
import { GMAIL_MODIFY_SCOPE } from './gmail-oauth.ts'
import { startGmailTestbed, type GmailTestbed } from './gmail-test-kit.ts'

// Connecting a Gmail mailbox: google-auth-library's OAuth2Client against the Google identity fake (A1).

let bed: GmailTestbed

beforeAll(async () => {
  bed = await startGmailTestbed()
})
afterAll(async () => {
  await bed.close()
})

describe('createAuthorizationUrl', () => {
  it('asks for openid, email and gmail.modify with PKCE S256, offline access, incremental grants and forced consent', () => {
    const verifier = randomBytes(32).toString('base64url')
    const url = bed.oauth.createAuthorizationUrl('state-123', verifier, 'ada@example.com')
    expect(`${url.origin}${url.pathname}`).toBe(bed.identity.google.authorizeUrl)
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'inbox-guard-gmail-test.apps.example',
      redirect_uri: 'http://127.0.0.1:3999/_api/gmail/callback',
      response_type: 'code',
      scope: `openid email ${GMAIL_MODIFY_SCOPE}`,
      state: 'state-123',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      access_type: 'offline',
      include_granted_scopes: 'true',
      prompt: 'consent',
      login_hint: 'ada@example.com',
    })
    expect(bed.oauth.createAuthorizationUrl('s', verifier).searchParams.has('login_hint')).toBe(false)
  })
})

describe('tokens', () => {
  it('exchanges the code for access and refresh tokens with the granted scopes', async () => {
    const before = Date.now()
    const tokens = await bed.authorize('connect@example.com')
    expect(tokens.accessToken).toMatch(/^ya29\./)
    expect(tokens.refreshToken).toMatch(/^1\/\/0/)
    expect(tokens.expiresAt.getTime()).toBeGreaterThan(before + 3500_000)
    expect(bed.oauth.hasRequiredScopes(tokens.scope)).toBe(true)
    expect(bed.identity.introspect('google', tokens.accessToken)?.scopes).toContain(GMAIL_MODIFY_SCOPE)
  })

  it('hasRequiredScopes is false when the person unticked Gmail access', () => {
    expect(bed.oauth.hasRequiredScopes('openid https://www.googleapis.com/auth/userinfo.email')).toBe(false)
    expect(bed.oauth.hasRequiredScopes('https://www.googleapis.com/auth/gmail.readonly openid')).toBe(false)
  })

  it('refuses a bad code with MailProviderError invalid_grant', async () => {
    const error = await bed.oauth.exchangeCode('4/0not-a-code', randomBytes(32).toString('base64url')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MailProviderError)
    expect(error).toMatchObject({ status: 400, code: 'invalid_grant' })
    expect(JSON.stringify(error)).not.toContain('4/0not-a-code')
  })

  it('refresh returns a new access token and keeps the refresh token Google did not replace', async () => {
    const tokens = await bed.authorize('refresh@example.com')
    const refreshed = await bed.oauth.refresh(tokens.refreshToken)
    expect(refreshed.accessToken).not.toBe(tokens.accessToken)
    expect(refreshed.refreshToken).toBe(tokens.refreshToken)
    expect(bed.identity.introspect('google', refreshed.accessToken)?.email).toBe('refresh@example.com')
  })

  it('revoke ends the grant: refresh then fails with MailAuthRevokedError, and revoking again is fine', async () => {
    const tokens = await bed.authorize('revoke@example.com')
    await bed.oauth.revoke(tokens)
    expect(bed.identity.introspect('google', tokens.accessToken)).toBeNull()
    await expect(bed.oauth.refresh(tokens.refreshToken)).rejects.toBeInstanceOf(MailAuthRevokedError)
    await expect(bed.oauth.revoke(tokens)).resolves.toBeUndefined()
  })
})
