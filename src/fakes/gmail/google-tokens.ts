import { createHash, randomBytes } from 'node:crypto'
import type { IdentityFakes } from '../identity/server.ts'

/**
 * Gets Google tokens from the identity fakes the way a browser and the app would: the consent form is
 * posted (what the demo consent page does when a person picks an identity), then the code is exchanged
 * with PKCE. For tests and demo seeding that need a Gmail access token with chosen scopes.
 */

export interface GoogleTokenSet {
  accessToken: string
  refreshToken?: string
  scope: string
  expiresIn: number
}

export async function googleTokensFor(
  identity: IdentityFakes,
  client: { clientId: string; clientSecret: string; redirectUri?: string },
  email: string,
  scopes: readonly string[],
): Promise<GoogleTokenSet> {
  const redirectUri = client.redirectUri ?? 'http://127.0.0.1:1/oauth/callback'
  const verifier = randomBytes(32).toString('base64url')
  const form = new URLSearchParams({
    client_id: client.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: scopes.join(' '),
    state: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    access_type: 'offline',
    prompt: 'consent',
    email,
    name: email.split('@')[0] ?? email,
    decision: 'allow',
  })
  const consent = await fetch(identity.google.authorizeUrl, { method: 'POST', body: form, redirect: 'manual' })
  const code = new URL(consent.headers.get('location') ?? 'http://invalid/').searchParams.get('code')
  if (consent.status !== 302 || !code) throw new Error(`consent failed with ${consent.status}`)
  const res = await fetch(identity.google.tokenUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: client.clientId,
      client_secret: client.clientSecret,
      code_verifier: verifier,
    }),
  })
  const body = (await res.json()) as { access_token?: string; refresh_token?: string; scope?: string; expires_in?: number; error?: string }
  if (!res.ok || !body.access_token) throw new Error(`token exchange failed: ${body.error ?? res.status}`)
  return { accessToken: body.access_token, refreshToken: body.refresh_token, scope: body.scope ?? '', expiresIn: body.expires_in ?? 0 }
}
