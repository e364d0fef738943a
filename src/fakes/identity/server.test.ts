import { createHash, randomBytes } from 'node:crypto'
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { MSA_CONSUMER_TENANT_ID } from './identities.ts'
import { startIdentityFakes, type IdentityFakes } from './server.ts'

const GOOGLE = { clientId: 'google-client.apps.example', clientSecret: 'google-secret' }
const MICROSOFT = { clientId: '11111111-2222-3333-4444-555555555555', clientSecret: 'microsoft-secret' }
const REDIRECT_URI = 'http://127.0.0.1:5173/_api/auth/callback'

let fakes: IdentityFakes

beforeAll(async () => {
  fakes = await startIdentityFakes({ google: GOOGLE, microsoft: MICROSOFT })
})
afterAll(async () => {
  await fakes.close()
})
afterEach(() => {
  fakes.clearFaults()
})

type Provider = 'google' | 'microsoft'

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

function authorizeParams(provider: Provider, challenge: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    client_id: provider === 'google' ? GOOGLE.clientId : MICROSOFT.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: provider === 'google' ? 'openid email profile' : 'openid profile email offline_access User.Read Mail.ReadWrite',
    state: randomBytes(16).toString('base64url'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    nonce: randomBytes(8).toString('hex'),
    ...extra,
  }
}

function authorizeUrl(provider: Provider): string {
  return provider === 'google' ? fakes.google.authorizeUrl : fakes.microsoft.authorizeUrl
}

function tokenUrl(provider: Provider): string {
  return provider === 'google' ? fakes.google.tokenUrl : fakes.microsoft.tokenUrl
}

/** What the consent page's form does when a person picks an identity or presses Cancel. */
async function consent(provider: Provider, params: Record<string, string>, choice: { email?: string; name?: string; decision: 'allow' | 'deny' }) {
  const body = new URLSearchParams({ ...params, email: choice.email ?? '', name: choice.name ?? '', decision: choice.decision })
  return fetch(authorizeUrl(provider), { method: 'POST', body, redirect: 'manual' })
}

async function signIn(provider: Provider, opts: { email?: string; name?: string; extra?: Record<string, string> } = {}) {
  const { verifier, challenge } = pkce()
  const params = authorizeParams(provider, challenge, opts.extra)
  const res = await consent(provider, params, { email: opts.email ?? 'alex.morgan@example.com', name: opts.name ?? 'Alex Morgan', decision: 'allow' })
  expect(res.status).toBe(302)
  const location = new URL(res.headers.get('location') ?? '')
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI)
  expect(location.searchParams.get('state')).toBe(params.state)
  const code = location.searchParams.get('code')
  expect(code).toBeTruthy()
  return { code: code ?? '', verifier, params, location }
}

async function exchange(provider: Provider, fields: Record<string, string>, auth: 'basic' | 'post' = 'basic', secret?: string) {
  const client = provider === 'google' ? GOOGLE : MICROSOFT
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' }
  const body = new URLSearchParams(fields)
  if (auth === 'basic') {
    headers.Authorization = `Basic ${Buffer.from(`${client.clientId}:${secret ?? client.clientSecret}`).toString('base64')}`
  } else {
    body.set('client_id', client.clientId)
    body.set('client_secret', secret ?? client.clientSecret)
  }
  const res = await fetch(tokenUrl(provider), { method: 'POST', headers, body })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

function codeExchange(code: string, verifier: string, redirectUri = REDIRECT_URI) {
  return { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }
}

describe('Google fake', () => {
  it('GET authorize shows a local consent page with the demo identities, a typed-identity form and no COOP header', async () => {
    const { challenge } = pkce()
    const res = await fetch(`${fakes.google.authorizeUrl}?${new URLSearchParams(authorizeParams('google', challenge))}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('cross-origin-opener-policy')).toBeNull()
    const html = await res.text()
    expect(html).toContain('<title>Sign in with Google (demo)</title>')
    expect(html).toContain('local demo identity provider')
    for (const email of ['alex.morgan@example.com', 'priya@example.org', 'sam.okafor@example.net']) {
      expect(html).toContain(`aria-label="Continue as ${email}"`)
    }
    expect(html).toContain('Alex Morgan')
    expect(html).toMatch(/<label for="email">Email<\/label>\s*<input id="email" name="email" type="email"/)
    expect(html).toMatch(/<button type="submit" name="decision" value="allow"[^>]*>Continue<\/button>/)
    expect(html).toMatch(/<button type="submit" name="decision" value="deny"[^>]*>Cancel<\/button>/)
    // Nothing loaded from elsewhere: the only style is the nonce'd inline one.
    expect(html).not.toMatch(/<(script|link)\b/)
    expect(html).not.toMatch(/\b(src|href)=/)
    const nonce = /<style nonce="([^"]+)">/.exec(html)?.[1]
    expect(res.headers.get('content-security-policy')).toContain(`style-src 'nonce-${nonce}'`)
  })

  it('GET authorize with an unknown client_id shows an invalid_client error page instead of redirecting', async () => {
    const { challenge } = pkce()
    const res = await fetch(`${fakes.google.authorizeUrl}?${new URLSearchParams(authorizeParams('google', challenge, { client_id: 'someone-else' }))}`, { redirect: 'manual' })
    expect(res.status).toBe(401)
    expect(await res.text()).toContain('invalid_client')
  })

  it.each([
    ['response_type', { response_type: 'token' }],
    ['missing state', { state: '' }],
    ['missing code_challenge', { code_challenge: '' }],
    ['code_challenge_method', { code_challenge_method: 'S512' }],
    ['scope without openid', { scope: 'email profile' }],
  ])('GET authorize rejects a bad request (%s) with a 400 error page', async (_label, extra) => {
    const { challenge } = pkce()
    const res = await fetch(`${fakes.google.authorizeUrl}?${new URLSearchParams(authorizeParams('google', challenge, extra))}`, { redirect: 'manual' })
    expect(res.status).toBe(400)
  })

  it('completes the code flow with PKCE: the id token verifies against the served JWKS with iss, aud and nonce', async () => {
    const { code, verifier, params, location } = await signIn('google', { extra: { access_type: 'offline' } })
    expect(location.searchParams.get('scope')).toContain('openid')
    const { status, body } = await exchange('google', codeExchange(code, verifier))
    expect(status).toBe(200)
    expect(body).toMatchObject({ expires_in: 3599, token_type: 'Bearer' })
    expect(body.access_token).toMatch(/^ya29\./)
    expect(body.refresh_token).toMatch(/^1\/\//)
    expect(String(body.scope).split(' ')).toEqual(expect.arrayContaining(['openid', 'https://www.googleapis.com/auth/userinfo.email']))

    const idToken = String(body.id_token)
    const jwks = createRemoteJWKSet(new URL(fakes.google.jwksUrl))
    const { payload, protectedHeader } = await jwtVerify(idToken, jwks, {
      issuer: fakes.google.issuer,
      audience: GOOGLE.clientId,
      algorithms: ['RS256'],
      currentDate: fakes.now(),
    })
    expect(protectedHeader.kid).toBeTruthy()
    expect(payload).toMatchObject({
      azp: GOOGLE.clientId,
      email: 'alex.morgan@example.com',
      email_verified: true,
      name: 'Alex Morgan',
      given_name: 'Alex',
      family_name: 'Morgan',
      nonce: params.nonce,
    })
    expect(payload.sub).toMatch(/^\d{21}$/)
  })

  it('gives the same sub to the same email on every sign-in (any case) and a different one to another email', async () => {
    const subOf = async (email: string) => {
      const { code, verifier } = await signIn('google', { email })
      const { body } = await exchange('google', codeExchange(code, verifier))
      return decodeJwt(String(body.id_token)).sub
    }
    const first = await subOf('priya@example.org')
    expect(await subOf('Priya@Example.org')).toBe(first)
    expect(await subOf('sam.okafor@example.net')).not.toBe(first)
  })

  it('id token signature does not verify with a tampered payload', async () => {
    const { code, verifier } = await signIn('google')
    const { body } = await exchange('google', codeExchange(code, verifier))
    const [h, p, s] = String(body.id_token).split('.')
    const forged = Buffer.from(JSON.stringify({ ...decodeJwt(String(body.id_token)), email: 'admin@example.com' })).toString('base64url')
    expect(p).not.toBe(forged)
    await expect(jwtVerify(`${h}.${forged}.${s}`, createRemoteJWKSet(new URL(fakes.google.jwksUrl)), { currentDate: fakes.now() })).rejects.toThrow()
  })

  it('issues a refresh token only with access_type=offline, and again only with prompt=consent', async () => {
    const email = 'refresh-rules@example.com'
    const online = await signIn('google', { email })
    expect((await exchange('google', codeExchange(online.code, online.verifier))).body.refresh_token).toBeUndefined()
    const first = await signIn('google', { email: 'offline-first@example.com', extra: { access_type: 'offline' } })
    expect((await exchange('google', codeExchange(first.code, first.verifier))).body.refresh_token).toBeTruthy()
    const again = await signIn('google', { email: 'offline-first@example.com', extra: { access_type: 'offline' } })
    expect((await exchange('google', codeExchange(again.code, again.verifier))).body.refresh_token).toBeUndefined()
    const forced = await signIn('google', { email: 'offline-first@example.com', extra: { access_type: 'offline', prompt: 'consent' } })
    expect((await exchange('google', codeExchange(forced.code, forced.verifier))).body.refresh_token).toBeTruthy()
  })

  it('accepts client_secret_post as well as HTTP Basic', async () => {
    const { code, verifier } = await signIn('google')
    const { status } = await exchange('google', codeExchange(code, verifier), 'post')
    expect(status).toBe(200)
  })

  it('a replayed code answers 400 invalid_grant "Bad Request"', async () => {
    const { code, verifier } = await signIn('google')
    expect((await exchange('google', codeExchange(code, verifier))).status).toBe(200)
    const replay = await exchange('google', codeExchange(code, verifier))
    expect(replay).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'Bad Request' } })
  })

  it('a wrong code_verifier answers 400 invalid_grant', async () => {
    const { code } = await signIn('google')
    const res = await exchange('google', codeExchange(code, pkce().verifier))
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('invalid_grant')
  })

  it('a redirect_uri different from the authorize one answers 400 redirect_uri_mismatch', async () => {
    const { code, verifier } = await signIn('google')
    const res = await exchange('google', codeExchange(code, verifier, 'http://127.0.0.1:5173/other'))
    expect(res).toEqual({ status: 400, body: { error: 'redirect_uri_mismatch', error_description: 'Bad Request' } })
  })

  it('a wrong client secret answers 401 invalid_client', async () => {
    const { code, verifier } = await signIn('google')
    const res = await exchange('google', codeExchange(code, verifier), 'basic', 'not-the-secret')
    expect(res).toEqual({ status: 401, body: { error: 'invalid_client', error_description: 'Unauthorized' } })
  })

  it('a code older than 10 minutes answers invalid_grant', async () => {
    const { code, verifier } = await signIn('google')
    fakes.advanceClock(10 * 60 * 1000 + 1)
    const res = await exchange('google', codeExchange(code, verifier))
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('invalid_grant')
  })

  it('Cancel redirects back with error=access_denied and the state', async () => {
    const { challenge } = pkce()
    const params = authorizeParams('google', challenge)
    const res = await consent('google', params, { decision: 'deny' })
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get('location') ?? '')
    expect(location.searchParams.get('error')).toBe('access_denied')
    expect(location.searchParams.get('state')).toBe(params.state)
    expect(location.searchParams.get('code')).toBeNull()
  })

  it('an invalid typed email re-renders the consent page with an error and issues no code', async () => {
    const { challenge } = pkce()
    const res = await consent('google', authorizeParams('google', challenge), { email: 'not-an-email', decision: 'allow' })
    expect(res.status).toBe(400)
    expect(res.headers.get('location')).toBeNull()
    const html = await res.text()
    expect(html).toContain('role="alert"')
    expect(html).toContain('not a valid email address')
    expect(html).toContain('value="not-an-email"')
  })

  it('refresh_token grant returns a new access token and keeps the refresh token usable', async () => {
    const { code, verifier } = await signIn('google', { email: 'keeps-refresh@example.com', extra: { access_type: 'offline' } })
    const first = await exchange('google', codeExchange(code, verifier))
    const refreshToken = String(first.body.refresh_token)
    const refreshed = await exchange('google', { grant_type: 'refresh_token', refresh_token: refreshToken })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.refresh_token).toBeUndefined()
    expect(refreshed.body.access_token).not.toBe(first.body.access_token)
    expect((await exchange('google', { grant_type: 'refresh_token', refresh_token: refreshToken })).status).toBe(200)

    fakes.revokeRefreshTokens('google', 'keeps-refresh@example.com')
    const revoked = await exchange('google', { grant_type: 'refresh_token', refresh_token: refreshToken })
    expect(revoked).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' } })
  })

  it('serves a discovery document pointing at the fake endpoints', async () => {
    const doc = (await (await fetch(`${fakes.google.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>
    expect(doc).toMatchObject({
      issuer: fakes.google.issuer,
      authorization_endpoint: fakes.google.authorizeUrl,
      token_endpoint: fakes.google.tokenUrl,
      jwks_uri: fakes.google.jwksUrl,
    })
  })
})

describe('Microsoft fake', () => {
  async function verifyMicrosoftIdToken(idToken: string) {
    const tid = String(decodeJwt(idToken).tid)
    const issuer = fakes.microsoft.issuerTemplate.replace('{tenantid}', tid)
    return jwtVerify(idToken, createRemoteJWKSet(new URL(fakes.microsoft.jwksUrl)), {
      issuer,
      audience: MICROSOFT.clientId,
      algorithms: ['RS256'],
      // Other tests move the fakes' clock forward; verify on that clock.
      currentDate: fakes.now(),
    })
  }

  it('GET authorize shows the Microsoft consent page without a COOP header', async () => {
    const { challenge } = pkce()
    const res = await fetch(`${fakes.microsoft.authorizeUrl}?${new URLSearchParams(authorizeParams('microsoft', challenge))}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cross-origin-opener-policy')).toBeNull()
    const html = await res.text()
    expect(html).toContain('<title>Sign in with Microsoft (demo)</title>')
    expect(html).toContain('aria-label="Continue as sam.okafor@example.net"')
  })

  it('completes the code flow with PKCE: id token with tenant issuer, tid, oid, pairwise sub and nonce', async () => {
    const { code, verifier, params } = await signIn('microsoft', { email: 'sam.okafor@example.net', name: 'Sam Okafor' })
    const { status, body } = await exchange('microsoft', codeExchange(code, verifier))
    expect(status).toBe(200)
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, ext_expires_in: 3600 })
    expect(body.refresh_token).toBeTruthy()
    expect(String(body.scope).split(' ')).toContain('https://graph.microsoft.com/Mail.ReadWrite')
    const { payload, protectedHeader } = await verifyMicrosoftIdToken(String(body.id_token))
    expect(protectedHeader.kid).toBe(decodeProtectedHeader(String(body.id_token)).kid)
    expect(payload).toMatchObject({
      ver: '2.0',
      name: 'Sam Okafor',
      preferred_username: 'sam.okafor@example.net',
      email: 'sam.okafor@example.net',
      nonce: params.nonce,
    })
    expect(payload.tid).not.toBe(MSA_CONSUMER_TENANT_ID)
    expect(payload.tid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(payload.oid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(payload.sub).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('uses the consumer tenant for outlook.com, and leaves out email and refresh token when not in scope', async () => {
    const { code, verifier } = await signIn('microsoft', { email: 'someone@outlook.com', extra: { scope: 'openid profile User.Read' } })
    const { body } = await exchange('microsoft', codeExchange(code, verifier))
    expect(body.refresh_token).toBeUndefined()
    const { payload } = await verifyMicrosoftIdToken(String(body.id_token))
    expect(payload.tid).toBe(MSA_CONSUMER_TENANT_ID)
    expect(payload.iss).toBe(`${fakes.origin}/microsoft/${MSA_CONSUMER_TENANT_ID}/v2.0`)
    expect(payload.email).toBeUndefined()
    expect(payload.preferred_username).toBe('someone@outlook.com')
  })

  it('keeps oid and tid per user across apps and sub stable per user', async () => {
    const ids = async () => {
      const { code, verifier } = await signIn('microsoft', { email: 'priya@example.org' })
      const { body } = await exchange('microsoft', codeExchange(code, verifier))
      const claims = decodeJwt(String(body.id_token))
      return { oid: claims.oid, tid: claims.tid, sub: claims.sub }
    }
    expect(await ids()).toEqual(await ids())
  })

  it('a replayed code answers an AADSTS invalid_grant body', async () => {
    const { code, verifier } = await signIn('microsoft')
    expect((await exchange('microsoft', codeExchange(code, verifier))).status).toBe(200)
    const { status, body } = await exchange('microsoft', codeExchange(code, verifier))
    expect(status).toBe(400)
    expect(body).toMatchObject({ error: 'invalid_grant', error_codes: [54005] })
    expect(body.error_description).toMatch(/^AADSTS54005: /)
    for (const field of ['timestamp', 'trace_id', 'correlation_id']) expect(typeof body[field]).toBe('string')
  })

  it('a wrong code_verifier, redirect_uri or secret is refused', async () => {
    const a = await signIn('microsoft')
    expect((await exchange('microsoft', codeExchange(a.code, pkce().verifier))).body).toMatchObject({ error: 'invalid_grant', error_codes: [501481] })
    const b = await signIn('microsoft')
    expect((await exchange('microsoft', codeExchange(b.code, b.verifier, 'http://127.0.0.1:5173/elsewhere'))).body.error).toBe('invalid_grant')
    const c = await signIn('microsoft')
    const wrongSecret = await exchange('microsoft', codeExchange(c.code, c.verifier), 'post', 'nope')
    expect(wrongSecret.status).toBe(401)
    expect(wrongSecret.body).toMatchObject({ error: 'invalid_client', error_codes: [7000215] })
  })

  it('rotates refresh tokens: the new one works, the old one answers invalid_grant', async () => {
    const { code, verifier } = await signIn('microsoft')
    const first = await exchange('microsoft', codeExchange(code, verifier))
    const original = String(first.body.refresh_token)
    const rotated = await exchange('microsoft', { grant_type: 'refresh_token', refresh_token: original, scope: 'openid offline_access User.Read' })
    expect(rotated.status).toBe(200)
    const next = String(rotated.body.refresh_token)
    expect(next).toBeTruthy()
    expect(next).not.toBe(original)
    expect(rotated.body.id_token).toBeTruthy()
    const reused = await exchange('microsoft', { grant_type: 'refresh_token', refresh_token: original })
    expect(reused.status).toBe(400)
    expect(reused.body.error).toBe('invalid_grant')
    expect(reused.body.error_description).toMatch(/^AADSTS\d+: /)
    expect((await exchange('microsoft', { grant_type: 'refresh_token', refresh_token: next })).status).toBe(200)
  })

  it('Cancel redirects back with error=access_denied, an error_description and the state', async () => {
    const { challenge } = pkce()
    const params = authorizeParams('microsoft', challenge)
    const res = await consent('microsoft', params, { decision: 'deny' })
    const location = new URL(res.headers.get('location') ?? '')
    expect(location.searchParams.get('error')).toBe('access_denied')
    expect(location.searchParams.get('error_description')).toMatch(/^AADSTS65004/)
    expect(location.searchParams.get('state')).toBe(params.state)
  })

  it('an authorize request without code_challenge is sent back to the app as invalid_request', async () => {
    const { challenge } = pkce()
    const params = authorizeParams('microsoft', challenge, { code_challenge: '' })
    const res = await fetch(`${fakes.microsoft.authorizeUrl}?${new URLSearchParams(params)}`, { redirect: 'manual' })
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get('location') ?? '')
    expect(location.searchParams.get('error')).toBe('invalid_request')
    expect(location.searchParams.get('state')).toBe(params.state)
  })

  it('Graph /me answers the profile for a valid access token and 401 otherwise', async () => {
    const { code, verifier } = await signIn('microsoft', { email: 'priya@example.org', name: 'Priya Natarajan' })
    const { body } = await exchange('microsoft', codeExchange(code, verifier))
    const me = await fetch(`${fakes.microsoft.graphUrl}/me`, { headers: { Authorization: `Bearer ${String(body.access_token)}` } })
    expect(me.status).toBe(200)
    expect(await me.json()).toMatchObject({
      id: decodeJwt(String(body.id_token)).oid,
      displayName: 'Priya Natarajan',
      givenName: 'Priya',
      surname: 'Natarajan',
      mail: 'priya@example.org',
      userPrincipalName: 'priya@example.org',
    })

    const missing = await fetch(`${fakes.microsoft.graphUrl}/me`)
    expect(missing.status).toBe(401)
    expect(await missing.json()).toMatchObject({ error: { code: 'InvalidAuthenticationToken' } })

    const google = await signIn('google')
    const googleToken = (await exchange('google', codeExchange(google.code, google.verifier))).body.access_token
    expect((await fetch(`${fakes.microsoft.graphUrl}/me`, { headers: { Authorization: `Bearer ${String(googleToken)}` } })).status).toBe(401)
  })

  it('Graph /me refuses an access token once it has expired on the fake clock', async () => {
    fakes.setAccessTokenTtl(60, 'microsoft')
    try {
      const { code, verifier } = await signIn('microsoft')
      const { body } = await exchange('microsoft', codeExchange(code, verifier))
      expect(body.expires_in).toBe(60)
      const call = () => fetch(`${fakes.microsoft.graphUrl}/me`, { headers: { Authorization: `Bearer ${String(body.access_token)}` } })
      expect((await call()).status).toBe(200)
      fakes.advanceClock(61_000)
      const expired = await call()
      expect(expired.status).toBe(401)
      expect(await expired.json()).toMatchObject({ error: { code: 'InvalidAuthenticationToken', message: expect.stringContaining('expired') } })
    } finally {
      fakes.setAccessTokenTtl(3600, 'microsoft')
    }
  })

  it('serves a discovery document with the tenant-templated issuer', async () => {
    const doc = (await (await fetch(fakes.microsoft.discoveryUrl)).json()) as Record<string, unknown>
    expect(doc).toMatchObject({
      issuer: fakes.microsoft.issuerTemplate,
      authorization_endpoint: fakes.microsoft.authorizeUrl,
      token_endpoint: fakes.microsoft.tokenUrl,
      jwks_uri: fakes.microsoft.jwksUrl,
    })
  })
})

describe('test hooks', () => {
  it('an injected fault answers the next request(s) and then the endpoint recovers', async () => {
    fakes.injectFault({ provider: 'microsoft', endpoint: 'token', status: 503, times: 2 })
    const { code, verifier } = await signIn('microsoft')
    expect((await exchange('microsoft', codeExchange(code, verifier))).status).toBe(503)
    expect((await exchange('microsoft', codeExchange(code, verifier))).status).toBe(503)
    expect((await exchange('microsoft', codeExchange(code, verifier))).status).toBe(200)
  })

  it('an injected 429 carries Retry-After and a custom body', async () => {
    fakes.injectFault({ provider: 'google', endpoint: 'jwks', status: 429, body: { error: 'slow down' } })
    const res = await fetch(fakes.google.jwksUrl)
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('1')
    expect(await res.json()).toEqual({ error: 'slow down' })
  })

  it('the journal records method, path and status but never codes, tokens or secrets', async () => {
    fakes.clearJournal()
    const { code, verifier } = await signIn('google')
    const { body } = await exchange('google', codeExchange(code, verifier))
    expect(fakes.journal.map((e) => [e.provider, e.endpoint, e.method, e.status])).toEqual([
      ['google', 'authorize', 'POST', 302],
      ['google', 'token', 'POST', 200],
    ])
    expect(fakes.journal[1]?.grantType).toBe('authorization_code')
    const text = JSON.stringify(fakes.journal)
    for (const secret of [code, verifier, GOOGLE.clientSecret, String(body.access_token)]) expect(text).not.toContain(secret)
  })

  it('close() stops the server so a new request fails', async () => {
    const other = await startIdentityFakes({ google: GOOGLE, microsoft: MICROSOFT, port: 0 })
    expect((await fetch(other.google.jwksUrl)).status).toBe(200)
    await other.close()
    await expect(fetch(other.google.jwksUrl)).rejects.toThrow()
  })
})

describe('extras', () => {
  it('prompt=none redirects back with login_required (the fakes keep no session)', async () => {
    const { challenge } = pkce()
    const params = authorizeParams('microsoft', challenge, { prompt: 'none' })
    const res = await fetch(`${fakes.microsoft.authorizeUrl}?${new URLSearchParams(params)}`, { redirect: 'manual' })
    const location = new URL(res.headers.get('location') ?? '')
    expect(location.searchParams.get('error')).toBe('login_required')
    expect(location.searchParams.get('state')).toBe(params.state)
  })

  it('introspect() tells other fakes whose access token it is, and refuses foreign or expired ones', async () => {
    const { code, verifier } = await signIn('google', { email: 'intro@example.com' })
    const token = String((await exchange('google', codeExchange(code, verifier))).body.access_token)
    expect(fakes.introspect('google', token)).toMatchObject({ provider: 'google', clientId: GOOGLE.clientId, email: 'intro@example.com', scopes: ['openid', 'email', 'profile'] })
    expect(fakes.introspect('microsoft', token)).toBeNull()
    expect(fakes.introspect('google', `${token.slice(0, -2)}xx`)).toBeNull()
    fakes.advanceClock(3600 * 1000)
    expect(fakes.introspect('google', token)).toBeNull()
  })

  it('Google userinfo answers for a valid token; revoke ends the grant', async () => {
    const { code, verifier } = await signIn('google', { email: 'revoke-me@example.com', name: 'Revoke Me', extra: { access_type: 'offline', prompt: 'consent' } })
    const { body } = await exchange('google', codeExchange(code, verifier))
    const userinfo = () => fetch(fakes.google.userinfoUrl, { headers: { Authorization: `Bearer ${String(body.access_token)}` } })
    const info = await userinfo()
    expect(info.status).toBe(200)
    expect(await info.json()).toMatchObject({ email: 'revoke-me@example.com', name: 'Revoke Me', email_verified: true, sub: decodeJwt(String(body.id_token)).sub })

    const revoke = await fetch(fakes.google.revokeUrl, { method: 'POST', body: new URLSearchParams({ token: String(body.refresh_token) }) })
    expect(revoke.status).toBe(200)
    expect((await userinfo()).status).toBe(401)
    expect((await exchange('google', { grant_type: 'refresh_token', refresh_token: String(body.refresh_token) })).body.error).toBe('invalid_grant')
  })

  it('with registered redirect URIs, an unregistered one gets an error page and no redirect', async () => {
    const strict = await startIdentityFakes({ google: { ...GOOGLE, redirectUris: [REDIRECT_URI] }, microsoft: { ...MICROSOFT, redirectUris: [REDIRECT_URI] } })
    try {
      const { challenge } = pkce()
      const bad = authorizeParams('microsoft', challenge, { redirect_uri: 'https://attacker.example/cb' })
      const res = await fetch(`${strict.microsoft.authorizeUrl}?${new URLSearchParams(bad)}`, { redirect: 'manual' })
      expect(res.status).toBe(400)
      expect(res.headers.get('location')).toBeNull()
      expect(await res.text()).toContain('AADSTS50011')
      const good = await fetch(`${strict.google.authorizeUrl}?${new URLSearchParams(authorizeParams('google', challenge))}`)
      expect(good.status).toBe(200)
    } finally {
      await strict.close()
    }
  })

  it('the /__admin routes drive the same hooks over HTTP for specs in another process', async () => {
    expect((await fetch(`${fakes.origin}/__admin/faults`, { method: 'POST', body: JSON.stringify({ provider: 'microsoft', endpoint: 'graph', status: 429 }) })).status).toBe(200)
    const throttled = await fetch(`${fakes.microsoft.graphUrl}/me`)
    expect(throttled.status).toBe(429)
    expect(await throttled.json()).toMatchObject({ error: { code: 'TooManyRequests' } })

    const before = fakes.now().getTime()
    const advanced = await fetch(`${fakes.origin}/__admin/clock/advance`, { method: 'POST', body: JSON.stringify({ ms: 60_000 }) })
    expect(advanced.status).toBe(200)
    expect(fakes.now().getTime() - before).toBeGreaterThanOrEqual(60_000)

    const journal = (await (await fetch(`${fakes.origin}/__admin/journal`)).json()) as { path: string; status: number }[]
    expect(journal).toContainEqual(expect.objectContaining({ path: '/microsoft/graph/v1.0/me', status: 429 }))
  })
})
