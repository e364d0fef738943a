import { SignJWT, exportJWK, calculateJwkThumbprint, generateKeyPair, type JWK, type JWTPayload, type CryptoKey } from 'jose'

/** One RS256 signing key per provider, generated at start; its public half is served as the JWKS. */
export interface SigningKey {
  kid: string
  publicJwk: JWK
  sign(payload: JWTPayload): Promise<string>
}

export async function createSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048 })
  const jwk = await exportJWK(publicKey)
  const kid = await calculateJwkThumbprint(jwk)
  const publicJwk: JWK = { ...jwk, kid, alg: 'RS256', use: 'sig' }
  const key: CryptoKey = privateKey
  return {
    kid,
    publicJwk,
    sign: (payload) => new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key),
  }
}
