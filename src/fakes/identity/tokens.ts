import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { ProviderName } from './consent-page.ts'

/**
 * Access and refresh tokens are self-contained (payload + HMAC) rather than rows in a map, so tokens the
 * app stored in its database stay valid after demo mode restarts the fakes (`npm start` again). Revocation
 * and Microsoft's refresh-token rotation are tracked in memory on top of that (docs/decisions/004).
 * The HMAC key is fixed on purpose: these are demo credentials, not secrets.
 */

export interface TokenClaims {
  /** provider */
  p: ProviderName
  /** kind */
  k: 'access' | 'refresh'
  /** client id */
  c: string
  /** email and display name of the signed-in demo identity */
  e: string
  n: string
  /** whether the provider vouches for the address; absent in tokens minted before it existed */
  v?: boolean
  /** granted scopes, space separated */
  s: string
  /** token id (for revocation and rotation) */
  j: string
  /** issued at, ms on the fake clock */
  i: number
  /** expires at, ms on the fake clock (access tokens only) */
  x?: number
}

const TOKEN_KEY = 'inbox-guard-identity-fakes-token-v1'

const PREFIX: Record<ProviderName, Record<TokenClaims['k'], string>> = {
  // Shapes like the real ones so log redaction and length limits in the app get exercised.
  google: { access: 'ya29.', refresh: '1//0' },
  microsoft: { access: 'EwB', refresh: 'M.C5' },
}

function mac(data: string): string {
  return createHmac('sha256', TOKEN_KEY).update(data).digest('base64url')
}

export function newTokenId(): string {
  return randomBytes(12).toString('base64url')
}

export function mintToken(claims: TokenClaims): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url')
  return `${PREFIX[claims.p][claims.k]}${body}.${mac(body)}`
}

/** Returns the claims if the token was minted by these fakes for that provider and kind, else null. */
export function readToken(token: string, provider: ProviderName, kind: TokenClaims['k']): TokenClaims | null {
  const prefix = PREFIX[provider][kind]
  if (!token.startsWith(prefix)) return null
  const [body, signature, extra] = token.slice(prefix.length).split('.')
  if (!body || !signature || extra !== undefined) return null
  const expected = Buffer.from(mac(body))
  const given = Buffer.from(signature)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TokenClaims
    return claims.p === provider && claims.k === kind ? claims : null
  } catch {
    return null
  }
}
