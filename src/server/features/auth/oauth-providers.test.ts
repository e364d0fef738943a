import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { OAuthFlowError } from './auth.errors.ts'
import { createGoogleProvider, createMicrosoftProvider } from './oauth-providers.ts'

/**
 * Id token checks (iss, aud, exp, nonce, email_verified, tenant issuer) need tokens the identity fakes
 * would never mint, so this file runs a minimal token endpoint + JWKS over real HTTP that signs
 * whatever claims a test asks for.
 */

const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47'
let server: Server
let origin: string
let nextClaims: JWTPayload = {}
let nextGraph: { status: number; body: unknown } = { status: 200, body: {} }
let signingKey: CryptoKey
let rogueKey: CryptoKey
let useRogueKey = false

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true })
  signingKey = pair.privateKey
  rogueKey = (await generateKeyPair('RS256')).privateKey
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }
  server = createServer(async (req, res) => {
    if (req.url === '/jwks') {
      res.setHeader('content-type', 'application/json')
      return res.end(JSON.stringify({ keys: [jwk] }))
    }
    if (req.url === '/token') {
      const idToken = await new SignJWT(nextClaims)
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .sign(useRogueKey ? rogueKey : signingKey)
      res.setHeader('content-type', 'application/json')
      return res.end(JSON.stringify({ access_token: 'at', token_type: 'Bearer', expires_in: 3600, id_token: idToken }))
    }
    if (req.url?.startsWith('/graph/me')) {
      res.statusCode = nextGraph.status
      res.setHeader('content-type', 'application/json')
      return res.end(JSON.stringify(nextGraph.body))
    }
    res.statusCode = 404
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const config = () =>
  loadConfig({
    TOKEN_ENCRYPTION_KEY: 'test-token-encryption-key-of-32-characters-or-more',
    APP_URL: 'http://app.test',
    GOOGLE_CLIENT_ID: 'g-client',
    GOOGLE_CLIENT_SECRET: 'g-secret',
    GOOGLE_TOKEN_URL: `${origin}/token`,
    GOOGLE_JWKS_URL: `${origin}/jwks`,
    MICROSOFT_CLIENT_ID: 'm-client',
    MICROSOFT_CLIENT_SECRET: 'm-secret',
    MICROSOFT_TOKEN_URL: `${origin}/token`,
    MICROSOFT_JWKS_URL: `${origin}/jwks`,
    MICROSOFT_GRAPH_URL: `${origin}/graph`,
  })

const now = () => Math.floor(Date.now() / 1000)
const googleClaims = (over: JWTPayload = {}): JWTPayload => ({
  iss: 'https://accounts.google.com',
  aud: 'g-client',
  sub: '1234567890',
  email: 'ada@example.com',
  email_verified: true,
  name: 'Ada',
  nonce: 'n1',
  iat: now(),
  exp: now() + 3600,
  ...over,
})
const microsoftClaims = (over: JWTPayload = {}): JWTPayload => ({
  iss: `https://login.microsoftonline.com/${TENANT}/v2.0`,
  aud: 'm-client',
  sub: 'pairwise',
  tid: TENANT,
  oid: '00000000-0000-0000-1111-222222222222',
  email: 'grace@contoso.example',
  name: 'Grace',
  nonce: 'n1',
  iat: now(),
  exp: now() + 3600,
  ...over,
})

async function failureCode(promise: Promise<unknown>) {
  const error = await promise.catch((e: unknown) => e)
  expect(error).toBeInstanceOf(OAuthFlowError)
  return (error as OAuthFlowError).code
}

describe('Google id token verification', () => {
  it('accepts a well-formed token and returns the sub, email and name', async () => {
    nextClaims = googleClaims()
    const profile = await createGoogleProvider(config()).completeSignIn('code', 'verifier', 'n1')
    expect(profile).toEqual({ subject: '1234567890', email: 'ada@example.com', emailVerified: true, displayName: 'Ada' })
  })

  it('accepts the issuer without scheme, as Google also issues it', async () => {
    nextClaims = googleClaims({ iss: 'accounts.google.com' })
    await expect(createGoogleProvider(config()).completeSignIn('code', 'v', 'n1')).resolves.toBeTruthy()
  })

  it.each([
    ['a token for another client (aud)', { aud: 'someone-else' }],
    ['a token from another issuer (iss)', { iss: 'https://evil.example' }],
    ['an expired token (exp)', { exp: now() - 3600, iat: now() - 7200 }],
    ['a token minted for another sign-in (nonce)', { nonce: 'other' }],
  ])('rejects %s as invalid_id_token', async (_label, over) => {
    nextClaims = googleClaims(over)
    expect(await failureCode(createGoogleProvider(config()).completeSignIn('code', 'v', 'n1'))).toBe('invalid_id_token')
  })

  it('rejects a token signed by a key not in the JWKS', async () => {
    nextClaims = googleClaims()
    useRogueKey = true
    try {
      expect(await failureCode(createGoogleProvider(config()).completeSignIn('code', 'v', 'n1'))).toBe('invalid_id_token')
    } finally {
      useRogueKey = false
    }
  })

  it('reports an address with email_verified false as unverified', async () => {
    nextClaims = googleClaims({ email_verified: false })
    const profile = await createGoogleProvider(config()).completeSignIn('code', 'v', 'n1')
    expect(profile).toMatchObject({ email: 'ada@example.com', emailVerified: false })
  })

  it('refuses a token without an email address', async () => {
    nextClaims = googleClaims({ email: undefined })
    expect(await failureCode(createGoogleProvider(config()).completeSignIn('code', 'v', 'n1'))).toBe('email_missing')
  })
})

describe('Microsoft id token verification', () => {
  it('builds the issuer from the tid claim and keys the subject on tid:oid', async () => {
    nextClaims = microsoftClaims()
    const profile = await createMicrosoftProvider(config()).completeSignIn('code', 'v', 'n1')
    expect(profile).toEqual({
      subject: `${TENANT}:00000000-0000-0000-1111-222222222222`,
      email: 'grace@contoso.example',
      emailVerified: false,
      displayName: 'Grace',
    })
  })

  it.each([true, 'true', 1, '1'])('counts the email as verified only with xms_edov (%j)', async (xmsEdov) => {
    nextClaims = microsoftClaims({ xms_edov: xmsEdov })
    const profile = await createMicrosoftProvider(config()).completeSignIn('code', 'v', 'n1')
    expect(profile.emailVerified).toBe(true)
  })

  it.each([false, 'false', 0, undefined])('treats an email with xms_edov %j as unverified', async (xmsEdov) => {
    nextClaims = microsoftClaims({ xms_edov: xmsEdov })
    const profile = await createMicrosoftProvider(config()).completeSignIn('code', 'v', 'n1')
    expect(profile.emailVerified).toBe(false)
  })

  it('rejects a token whose issuer names a different tenant than its tid', async () => {
    nextClaims = microsoftClaims({ iss: 'https://login.microsoftonline.com/11111111-1111-1111-1111-111111111111/v2.0' })
    expect(await failureCode(createMicrosoftProvider(config()).completeSignIn('code', 'v', 'n1'))).toBe('invalid_id_token')
  })

  it('rejects a token for another client', async () => {
    nextClaims = microsoftClaims({ aud: 'other-app' })
    expect(await failureCode(createMicrosoftProvider(config()).completeSignIn('code', 'v', 'n1'))).toBe('invalid_id_token')
  })

  it('falls back to Graph /me mail when the id token has no email', async () => {
    nextClaims = microsoftClaims({ email: undefined })
    nextGraph = { status: 200, body: { mail: 'from-graph@contoso.example', userPrincipalName: 'upn@contoso.example' } }
    const profile = await createMicrosoftProvider(config()).completeSignIn('code', 'v', 'n1')
    expect(profile.email).toBe('from-graph@contoso.example')
  })

  it('never counts the Graph /me address as verified, even with xms_edov', async () => {
    nextClaims = microsoftClaims({ email: undefined, xms_edov: true })
    nextGraph = { status: 200, body: { mail: 'from-graph@contoso.example', userPrincipalName: 'upn@contoso.example' } }
    const profile = await createMicrosoftProvider(config()).completeSignIn('code', 'v', 'n1')
    expect(profile).toMatchObject({ email: 'from-graph@contoso.example', emailVerified: false })
  })

  it('falls back to userPrincipalName when Graph has no mail', async () => {
    nextClaims = microsoftClaims({ email: undefined })
    nextGraph = { status: 200, body: { mail: null, userPrincipalName: 'upn@contoso.example' } }
    expect((await createMicrosoftProvider(config()).completeSignIn('code', 'v', 'n1')).email).toBe('upn@contoso.example')
  })

  it('reports email_missing when neither the token nor Graph gives an address', async () => {
    nextClaims = microsoftClaims({ email: undefined })
    nextGraph = { status: 401, body: { error: { code: 'InvalidAuthenticationToken' } } }
    expect(await failureCode(createMicrosoftProvider(config()).completeSignIn('code', 'v', 'n1'))).toBe('email_missing')
  })
})
