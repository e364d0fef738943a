import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Config } from '#server/config.ts'
import { createTokenCipher, type TokenCipher } from './token-cipher.ts'

export const DEMO_KEY_FILE = 'token-encryption.key'

/**
 * The cipher for mailbox tokens. With TOKEN_ENCRYPTION_KEY set, that key (and the configured previous
 * ones). Without it — only allowed for the all-demo embedded setup (config.ts) — a key generated on
 * first start and kept in DATA_DIR, readable by the owner only, so demo tokens survive restarts.
 */
export function loadTokenCipher(config: Pick<Config, 'tokenEncryption' | 'dataDir'>): TokenCipher {
  const { key, version, previous } = config.tokenEncryption
  if (key) return createTokenCipher({ version, secret: key }, previous)
  const file = path.resolve(config.dataDir, DEMO_KEY_FILE)
  let secret: string
  try {
    secret = readFileSync(file, 'utf8').trim()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    secret = randomBytes(48).toString('base64url')
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' })
  }
  return createTokenCipher({ version, secret }, previous)
}
