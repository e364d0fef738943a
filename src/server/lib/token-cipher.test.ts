import { describe, expect, it } from 'vitest'
import { createTokenCipher, TokenDecryptionError } from './token-cipher.ts'

const SECRET = 'a-test-secret-of-at-least-thirty-two-characters'

describe('token cipher (AES-256-GCM, PBKDF2 100,000 rounds)', () => {
  const cipher = createTokenCipher({ version: 1, secret: SECRET })

  it('round-trips a token and never stores it in the clear', () => {
    const stored = cipher.encrypt('ya29.access-token-value', 'mailbox:1:access_token')
    expect(stored).toMatch(/^v1\./)
    expect(stored).not.toContain('access-token-value')
    expect(cipher.decrypt(stored, 'mailbox:1:access_token')).toBe('ya29.access-token-value')
  })

  it('uses a fresh IV every time, so equal tokens give different values', () => {
    const values = new Set(Array.from({ length: 200 }, () => cipher.encrypt('same', 'ctx')))
    expect(values.size).toBe(200)
    const ivs = new Set([...values].map((v) => v.split('.')[1]))
    expect(ivs.size).toBe(200)
  })

  it('fails loudly on a tampered value', () => {
    const stored = cipher.encrypt('secret-token', 'ctx')
    const [v, iv, data, tag] = stored.split('.')
    const flipped = Buffer.from(data!, 'base64url')
    flipped[0] = flipped[0]! ^ 1
    expect(() => cipher.decrypt([v, iv, flipped.toString('base64url'), tag].join('.'), 'ctx')).toThrow(TokenDecryptionError)
    expect(() => cipher.decrypt('not-a-token', 'ctx')).toThrow(/expected format/)
  })

  it('fails loudly when the value is moved to another row or field (the context is authenticated)', () => {
    const stored = cipher.encrypt('secret-token', 'mailbox:1:refresh_token')
    expect(() => cipher.decrypt(stored, 'mailbox:2:refresh_token')).toThrow(TokenDecryptionError)
  })

  it('fails loudly with the wrong key, and with a key version that is not configured', () => {
    const stored = cipher.encrypt('secret-token', 'ctx')
    const otherKey = createTokenCipher({ version: 1, secret: 'another-secret-that-is-thirty-two-chars-long' })
    expect(() => otherKey.decrypt(stored, 'ctx')).toThrow(/failed authentication/)
    const version2Only = createTokenCipher({ version: 2, secret: SECRET })
    expect(() => version2Only.decrypt(stored, 'ctx')).toThrow(/key version 1, which is not configured/)
  })

  it('rotates keys: a new current key still reads values written with a configured previous key', () => {
    const old = cipher.encrypt('old-token', 'ctx')
    const rotated = createTokenCipher({ version: 2, secret: 'the-new-secret-for-version-two-32chars' }, [{ version: 1, secret: SECRET }])
    expect(rotated.decrypt(old, 'ctx')).toBe('old-token')
    const fresh = rotated.encrypt('new-token', 'ctx')
    expect(rotated.versionOf(fresh)).toBe(2)
    expect(rotated.versionOf(old)).toBe(1)
  })
})
