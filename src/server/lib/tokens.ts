import { createHash, randomBytes } from 'node:crypto'

/** 256 bits of randomness, URL-safe: session cookies, temp tokens, OAuth state and browser binding. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url')

/**
 * Only hashes of bearer secrets are stored (DESIGN "How data flows" 1), so a database leak does not
 * hand out live sessions. Plain SHA-256 is enough: the inputs are 256-bit random values, not passwords.
 */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')
