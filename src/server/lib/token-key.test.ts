import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { DEMO_KEY_FILE, loadTokenCipher } from './token-key.ts'

describe('loadTokenCipher', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('in demo mode without TOKEN_ENCRYPTION_KEY, generates a key once under DATA_DIR, readable by the owner only', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'inbox-guard-key-'))
    dirs.push(dataDir)
    const config = loadConfig({ DATA_DIR: dataDir })
    const first = loadTokenCipher(config)
    const stored = first.encrypt('demo-token', 'ctx')
    expect(statSync(path.join(dataDir, DEMO_KEY_FILE)).mode & 0o777).toBe(0o600)
    // A restart reads the same key.
    expect(loadTokenCipher(config).decrypt(stored, 'ctx')).toBe('demo-token')
  })

  it('uses TOKEN_ENCRYPTION_KEY when set, and writes no key file', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'inbox-guard-key-'))
    dirs.push(dataDir)
    const cipher = loadTokenCipher(loadConfig({ DATA_DIR: dataDir, TOKEN_ENCRYPTION_KEY: 'k'.repeat(40), TOKEN_ENCRYPTION_KEY_VERSION: '2' }))
    expect(cipher.currentVersion).toBe(2)
    expect(() => statSync(path.join(dataDir, DEMO_KEY_FILE))).toThrow()
  })
})
