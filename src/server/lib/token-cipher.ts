import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes } from 'node:crypto'

/**
 * Mailbox tokens at rest (SPEC 1: AES-256-GCM, key derived with PBKDF2, 100,000 rounds; issue 12).
 * A value is `v<key version>.<iv>.<ciphertext>.<tag>` (base64url), with a fresh 96-bit IV each time.
 * The key version lets keys rotate: values written with an older key stay readable while that key is
 * configured as a previous key, and are re-encrypted with the current one when next written.
 * The context (e.g. `mailbox:12:refresh_token`) is bound as additional authenticated data, so a value
 * copied into another row or field does not decrypt.
 */

export const PBKDF2_ROUNDS = 100_000
const KEY_BYTES = 32
const IV_BYTES = 12

export interface TokenKey {
  version: number
  secret: string
}

export class TokenDecryptionError extends Error {
  override name = 'TokenDecryptionError'
}

export interface TokenCipher {
  readonly currentVersion: number
  encrypt(plaintext: string, context: string): string
  decrypt(value: string, context: string): string
  /** The key version a stored value was written with (to find values to re-encrypt). */
  versionOf(value: string): number
}

// Fixed per version: the secret is already high-entropy, the salt only separates the versions' keys.
const saltFor = (version: number) => `inbox-guard/token-key/v${version}`

export function createTokenCipher(current: TokenKey, previous: readonly TokenKey[] = []): TokenCipher {
  const keys = new Map<number, Buffer>()
  for (const key of [current, ...previous]) {
    if (!Number.isInteger(key.version) || key.version < 1) throw new Error(`Token key version must be a positive whole number, got ${key.version}`)
    if (keys.has(key.version)) throw new Error(`Token key version ${key.version} is configured twice`)
    keys.set(key.version, pbkdf2Sync(key.secret, saltFor(key.version), PBKDF2_ROUNDS, KEY_BYTES, 'sha256'))
  }

  function parse(value: string) {
    const match = /^v(\d+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)\.([A-Za-z0-9_-]+)$/.exec(value)
    if (!match) throw new TokenDecryptionError('Stored token is not in the expected format')
    return { version: Number(match[1]), iv: Buffer.from(match[2]!, 'base64url'), data: Buffer.from(match[3]!, 'base64url'), tag: Buffer.from(match[4]!, 'base64url') }
  }

  return {
    currentVersion: current.version,
    encrypt(plaintext, context) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', keys.get(current.version)!, iv)
      cipher.setAAD(Buffer.from(context, 'utf8'))
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return `v${current.version}.${iv.toString('base64url')}.${data.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`
    },
    decrypt(value, context) {
      const { version, iv, data, tag } = parse(value)
      const key = keys.get(version)
      if (!key) throw new TokenDecryptionError(`Stored token was encrypted with key version ${version}, which is not configured`)
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv)
        decipher.setAAD(Buffer.from(context, 'utf8'))
        decipher.setAuthTag(tag)
        return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8')
      } catch {
        throw new TokenDecryptionError(`Stored token failed authentication (wrong key for version ${version}, or the value was altered or moved)`)
      }
    },
    versionOf: (value) => parse(value).version,
  }
}
