import { CodeChallengeMethod, OAuth2Client, OAuth2RequestError, generateCodeVerifier, generateState } from 'arctic'
import { createRemoteJWKSet, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startIdentityFakes, type IdentityFakes } from './server.ts'

/** The OAuth library the app uses (arctic, HTTP Basic client auth) completes sign-in against the fakes. */

const GOOGLE = { clientId: 'arctic-google', clientSecret: 's3cret:with/odd+chars' }
const MICROSOFT = { clientId: 'arctic-microsoft', clientSecret: 'another~secret' }
const REDIRECT_URI = 'http://localhost:5173/_api/auth/callback/google'

let fakes: IdentityFakes

beforeAll(async () => {
  fakes = await startIdentityFakes({ google: GOOGLE, microsoft: MICROSOFT })
})
afterAll(async () => {
  await fakes.close()
})

async function approve(authorizationUrl: URL, email: string): Promise<URL> {
  const body = new URLSearchParams(authorizationUrl.searchParams)
  body.set('email', email)
  body.set('name', 'Arctic User')
  body.set('decision', 'allow')
  const res = await fetch(`${authorizationUrl.origin}${authorizationUrl.pathname}`, { method: 'POST', body, redirect: 'manual' })
  expect(res.status).toBe(302)
  return new URL(res.headers.get('location') ?? '')
}

describe('arctic OAuth2Client against the fakes', () => {
  it('Google: authorization URL, code exchange with Basic auth, refresh, and a verifiable id token', async () => {
    const client = new OAuth2Client(GOOGLE.clientId, GOOGLE.clientSecret, REDIRECT_URI)
    const state = generateState()
    const verifier = generateCodeVerifier()
    const url = client.createAuthorizationURLWithPKCE(fakes.google.authorizeUrl, state, CodeChallengeMethod.S256, verifier, ['openid', 'email', 'profile'])
    url.searchParams.set('access_type', 'offline')
    url.searchParams.set('nonce', 'n-0S6_WzA2Mj')
    const callback = await approve(url, 'arctic@example.com')
    expect(callback.searchParams.get('state')).toBe(state)

    const tokens = await client.validateAuthorizationCode(fakes.google.tokenUrl, callback.searchParams.get('code') ?? '', verifier)
    expect(tokens.accessTokenExpiresInSeconds()).toBe(3599)
    const { payload } = await jwtVerify(tokens.idToken(), createRemoteJWKSet(new URL(fakes.google.jwksUrl)), {
      issuer: fakes.google.issuer,
      audience: GOOGLE.clientId,
      currentDate: fakes.now(),
    })
    expect(payload).toMatchObject({ email: 'arctic@example.com', nonce: 'n-0S6_WzA2Mj' })

    const refreshed = await client.refreshAccessToken(fakes.google.tokenUrl, tokens.refreshToken(), [])
    expect(refreshed.accessToken()).not.toBe(tokens.accessToken())
    expect(refreshed.hasRefreshToken()).toBe(false)
  })

  it('Microsoft: refresh returns a rotated token and the old one is refused as invalid_grant', async () => {
    const client = new OAuth2Client(MICROSOFT.clientId, MICROSOFT.clientSecret, REDIRECT_URI)
    const verifier = generateCodeVerifier()
    const url = client.createAuthorizationURLWithPKCE(fakes.microsoft.authorizeUrl, generateState(), CodeChallengeMethod.S256, verifier, [
      'openid',
      'profile',
      'offline_access',
      'User.Read',
    ])
    const callback = await approve(url, 'arctic@contoso.example')
    const tokens = await client.validateAuthorizationCode(fakes.microsoft.tokenUrl, callback.searchParams.get('code') ?? '', verifier)
    const rotated = await client.refreshAccessToken(fakes.microsoft.tokenUrl, tokens.refreshToken(), ['openid', 'offline_access', 'User.Read'])
    expect(rotated.refreshToken()).not.toBe(tokens.refreshToken())

    const error = await client.refreshAccessToken(fakes.microsoft.tokenUrl, tokens.refreshToken(), []).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OAuth2RequestError)
    expect((error as OAuth2RequestError).code).toBe('invalid_grant')
  })

  it('a wrong client secret surfaces as invalid_client', async () => {
    const client = new OAuth2Client(GOOGLE.clientId, 'wrong', REDIRECT_URI)
    const verifier = generateCodeVerifier()
    const url = client.createAuthorizationURLWithPKCE(fakes.google.authorizeUrl, generateState(), CodeChallengeMethod.S256, verifier, ['openid'])
    const callback = await approve(url, 'arctic@example.com')
    const error = await client.validateAuthorizationCode(fakes.google.tokenUrl, callback.searchParams.get('code') ?? '', verifier).catch((e: unknown) => e)
    expect((error as OAuth2RequestError).code).toBe('invalid_client')
  })
})
