import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IdentityFakes } from '#fakes/identity/server.ts'
import { startTestIdentity, TEST_REDIRECT_URI } from '#fakes/graph-mail/test-support.ts'
import { MailAuthRevokedError, MailProviderError } from '../mail-provider.ts'
import { OUTLOOK_SCOPES } from './outlook-oauth.ts'
import { connectTokens, testOutlookOAuth } from './outlook-test-support.ts'

/** The Outlook mailbox OAuth client against the Microsoft identity fake over loopback HTTP (providers.md B1). */

let identity: IdentityFakes

beforeAll(async () => {
  identity = await startTestIdentity()
})

afterAll(async () => {
  await identity.close()
})

describe('createOutlookOAuth', () => {
  it('builds an authorization URL with PKCE S256, response_mode=query, prompt=select_account and the login hint', () => {
    const url = testOutlookOAuth(identity).createAuthorizationUrl('state-1', 'v'.repeat(43), 'pat@contoso.example')
    expect(`${url.origin}${url.pathname}`).toBe(identity.microsoft.authorizeUrl)
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      redirect_uri: TEST_REDIRECT_URI,
      state: 'state-1',
      code_challenge_method: 'S256',
      response_mode: 'query',
      prompt: 'select_account',
      login_hint: 'pat@contoso.example',
      scope: 'openid email offline_access User.Read Mail.Read Mail.ReadWrite MailboxSettings.Read',
    })
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(testOutlookOAuth(identity).scopes).toEqual([...OUTLOOK_SCOPES])
  })

  it('exchanges the code for tokens with a refresh token and Graph scopes reported as full URIs', async () => {
    const oauth = testOutlookOAuth(identity)
    const tokens = await connectTokens(oauth, 'pat@contoso.example')
    expect(tokens.accessToken).toBeTruthy()
    expect(tokens.refreshToken).toBeTruthy()
    expect(tokens.expiresAt.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000)
    expect(tokens.scope.split(' ')).toContain('https://graph.microsoft.com/Mail.ReadWrite')
    expect(oauth.hasRequiredScopes(tokens.scope)).toBe(true)
  })

  it('refresh returns the rotated refresh token; the old one is then dead (invalid_grant → MailAuthRevokedError)', async () => {
    const oauth = testOutlookOAuth(identity)
    const first = await connectTokens(oauth, 'rotate@contoso.example')
    const second = await oauth.refresh(first.refreshToken)
    expect(second.refreshToken).not.toBe(first.refreshToken)
    expect(second.accessToken).not.toBe(first.accessToken)
    await expect(oauth.refresh(first.refreshToken)).rejects.toBeInstanceOf(MailAuthRevokedError)
    expect((await oauth.refresh(second.refreshToken)).refreshToken).toBeTruthy()
  })

  it('a revoked grant makes refresh throw MailAuthRevokedError', async () => {
    const oauth = testOutlookOAuth(identity)
    const tokens = await connectTokens(oauth, 'revoked@contoso.example')
    identity.revokeRefreshTokens('microsoft', 'revoked@contoso.example')
    await expect(oauth.refresh(tokens.refreshToken)).rejects.toThrow(/invalid_grant AADSTS50173.*reconnected/)
  })

  it('a bad code is a MailProviderError (invalid_grant), not a revoked mailbox', async () => {
    const error = await testOutlookOAuth(identity)
      .exchangeCode('M.C5_not-a-code', 'v'.repeat(43))
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MailProviderError)
    expect(error).toMatchObject({ code: 'invalid_grant', status: 400 })
  })

  it('hasRequiredScopes needs Mail.ReadWrite and User.Read, in short or full-URI form', () => {
    const oauth = testOutlookOAuth(identity)
    expect(oauth.hasRequiredScopes('openid email https://graph.microsoft.com/User.Read https://graph.microsoft.com/Mail.ReadWrite')).toBe(true)
    expect(oauth.hasRequiredScopes('User.Read mail.readwrite')).toBe(true)
    expect(oauth.hasRequiredScopes('openid https://graph.microsoft.com/User.Read https://graph.microsoft.com/Mail.Read')).toBe(false)
    expect(oauth.hasRequiredScopes('https://graph.microsoft.com/Mail.ReadWrite')).toBe(false)
    expect(oauth.hasRequiredScopes('')).toBe(false)
  })

  it('revoke makes no call: Microsoft has no per-grant revocation for this flow', async () => {
    identity.clearJournal()
    await testOutlookOAuth(identity).revoke('any-refresh-token')
    expect(identity.journal).toEqual([])
  })
})
