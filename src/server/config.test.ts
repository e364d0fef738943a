import { describe, expect, it } from 'vitest'
import { ConfigError, configWarnings, isDemoMode, loadConfig } from './config.ts'

const KEY = 'a-token-encryption-key-of-32-characters-at-least'

describe('loadConfig', () => {
  it('runs with no environment at all: demo mode for both providers, PGlite under ./data, port 3000', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      host: '0.0.0.0',
      appUrl: 'http://localhost:3000',
      appOrigin: 'http://localhost:3000',
      dataDir: './data',
      databaseUrl: undefined,
      trustProxy: false,
      adminEmails: ['admin@example.com'],
      demoIdpPort: 0,
    })
    expect(config.google).toMatchObject({ demo: true, clientId: 'demo-google-client', clientSecret: 'demo-google-secret' })
    expect(config.microsoft).toMatchObject({ demo: true, clientId: 'demo-microsoft-client', clientSecret: 'demo-microsoft-secret' })
    expect(config.google.issuers).toEqual(['https://accounts.google.com', 'accounts.google.com'])
    expect(config.microsoft.authUrl).toBe('https://login.microsoftonline.com/common/oauth2/v2.0/authorize')
    expect(config.microsoft.issuerTemplate).toBe('https://login.microsoftonline.com/{tenantid}/v2.0')
    expect(isDemoMode(config)).toBe(true)
  })

  it('derives APP_URL from PORT and takes the origin of an explicit APP_URL', () => {
    expect(loadConfig({ PORT: '8080' }).appUrl).toBe('http://localhost:8080')
    expect(loadConfig({ APP_URL: 'https://inbox.example/' }).appOrigin).toBe('https://inbox.example')
  })

  it('switches a provider to the real service only when both its id and secret are set', () => {
    const config = loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', TOKEN_ENCRYPTION_KEY: KEY })
    expect(config.google).toMatchObject({ demo: false, clientId: 'id' })
    expect(config.microsoft.demo).toBe(true)
  })

  it('builds Microsoft endpoints from MICROSOFT_TENANT', () => {
    expect(loadConfig({ MICROSOFT_TENANT: 'organizations' }).microsoft.tokenUrl).toBe(
      'https://login.microsoftonline.com/organizations/oauth2/v2.0/token',
    )
  })

  it('lower-cases ADMIN_EMAILS and parses TRUST_PROXY forms', () => {
    expect(loadConfig({ ADMIN_EMAILS: ' Boss@Example.com ,ops@example.com' }).adminEmails).toEqual(['boss@example.com', 'ops@example.com'])
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true)
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2)
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual(['10.0.0.1', '10.0.0.0/8'])
  })

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', GOOGLE_CLIENT_ID: '', GOOGLE_CLIENT_SECRET: '' })).toMatchObject({ port: 3000, google: { demo: true } })
  })

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ APP_URL: 'not a url' }, 'APP_URL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ GOOGLE_TOKEN_URL: 'nope' }, 'GOOGLE_TOKEN_URL'],
    [{ MICROSOFT_ISSUER_TEMPLATE: 'https://login.microsoftonline.com/x/v2.0' }, 'MICROSOFT_ISSUER_TEMPLATE'],
    [{ TOKEN_ENCRYPTION_KEY: 'short' }, 'TOKEN_ENCRYPTION_KEY'],
    [{ DEMO_IDP_PORT: '-1' }, 'DEMO_IDP_PORT'],
    [{ TRUST_PROXY: 'everyone' }, 'TRUST_PROXY'],
    [{ ADMIN_EMAILS: 'boss@example.com,not-an-email' }, 'ADMIN_EMAILS'],
    [{ GOOGLE_CLIENT_ID: 'only-the-id' }, 'GOOGLE_CLIENT_SECRET'],
    [{ MICROSOFT_CLIENT_SECRET: 'only-the-secret' }, 'MICROSOFT_CLIENT_ID'],
    [{ ALLOW_DEMO_SIGN_IN: 'yes' }, 'ALLOW_DEMO_SIGN_IN'],
  ])('rejects %j with a message naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(new RegExp(`\\b${variable}\\b`))
  })

  it('does not echo an invalid ADMIN_EMAILS value (it is personal data)', () => {
    expect(() => loadConfig({ ADMIN_EMAILS: 'secret.admin@example.com,bad' })).not.toThrow(/secret\.admin/)
  })

  // Issue 11 item 7: production with no OAuth credentials used to run demo sign-in silently.
  it('stops production start-up without OAuth credentials unless demo sign-in is opted into', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError)
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/Google and Microsoft sign-in has no credentials.*ALLOW_DEMO_SIGN_IN=true/)
    const googleOnly = { NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', TOKEN_ENCRYPTION_KEY: KEY }
    expect(() => loadConfig(googleOnly)).toThrow(/NODE_ENV=production but Microsoft sign-in has no credentials/)
    const real = { ...googleOnly, MICROSOFT_CLIENT_ID: 'id', MICROSOFT_CLIENT_SECRET: 'secret' }
    expect(isDemoMode(loadConfig(real))).toBe(false)
    expect(isDemoMode(loadConfig({ NODE_ENV: 'production', ALLOW_DEMO_SIGN_IN: 'true' }))).toBe(true)
    // Development and tests keep the no-setup demo.
    expect(isDemoMode(loadConfig({}))).toBe(true)
  })
})

describe('configWarnings', () => {
  const production = { NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 's', MICROSOFT_CLIENT_ID: 'm', MICROSOFT_CLIENT_SECRET: 's', TOKEN_ENCRYPTION_KEY: KEY }

  it('warns when production trusts X-Forwarded-For from anyone (TRUST_PROXY=true)', () => {
    expect(configWarnings(loadConfig({ ...production, TRUST_PROXY: 'true' }))).toEqual([expect.stringMatching(/^TRUST_PROXY=true trusts X-Forwarded-For.*TRUST_PROXY=1/)])
  })

  it('stays quiet for a hop count, a list of addresses, or outside production', () => {
    expect(configWarnings(loadConfig({ ...production, TRUST_PROXY: '1' }))).toEqual([])
    expect(configWarnings(loadConfig({ ...production, TRUST_PROXY: '10.0.0.1' }))).toEqual([])
    expect(configWarnings(loadConfig({ TRUST_PROXY: 'true' }))).toEqual([])
  })

  it('reminds the operator that production runs demo sign-in when it was opted into', () => {
    expect(configWarnings(loadConfig({ NODE_ENV: 'production', ALLOW_DEMO_SIGN_IN: 'true' }))).toEqual([expect.stringMatching(/anyone can sign in as anyone/)])
  })
})

describe('token encryption and Gmail push settings (issue 12)', () => {
  it('needs TOKEN_ENCRYPTION_KEY with real provider credentials or with DATABASE_URL, naming the variable', () => {
    for (const env of [
      { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' },
      { MICROSOFT_CLIENT_ID: 'id', MICROSOFT_CLIENT_SECRET: 'secret' },
      { DATABASE_URL: 'postgres://localhost/x' },
    ]) {
      expect(() => loadConfig(env)).toThrow(/TOKEN_ENCRYPTION_KEY: required/)
    }
    // The all-demo embedded setup keeps a generated key under DATA_DIR instead.
    expect(loadConfig({}).tokenEncryption).toEqual({ key: undefined, version: 1, previous: [] })
  })

  it('reads the key version and the previous keys for rotation, without echoing a bad secret', () => {
    const config = loadConfig({ TOKEN_ENCRYPTION_KEY: KEY, TOKEN_ENCRYPTION_KEY_VERSION: '3', TOKEN_ENCRYPTION_PREVIOUS_KEYS: `1:${KEY}1, 2:${KEY}2` })
    expect(config.tokenEncryption).toEqual({ key: KEY, version: 3, previous: [{ version: 1, secret: `${KEY}1` }, { version: 2, secret: `${KEY}2` }] })
    expect(() => loadConfig({ TOKEN_ENCRYPTION_PREVIOUS_KEYS: '1:short-secret-value' })).toThrow(/TOKEN_ENCRYPTION_PREVIOUS_KEYS/)
    expect(() => loadConfig({ TOKEN_ENCRYPTION_PREVIOUS_KEYS: '1:short-secret-value' })).not.toThrow(/short-secret-value/)
    expect(() => loadConfig({ TOKEN_ENCRYPTION_KEY: KEY, TOKEN_ENCRYPTION_PREVIOUS_KEYS: `1:${KEY}` })).toThrow(/version 1 appears twice/)
  })

  it('defaults the Gmail push audience to the webhook URL and checks the topic name', () => {
    const config = loadConfig({ APP_URL: 'https://inbox.example' })
    expect(config.gmail.push.audience).toBe('https://inbox.example/_api/webhooks/gmail')
    expect(() => loadConfig({ GMAIL_PUBSUB_TOPIC: 'my-topic' })).toThrow(/GMAIL_PUBSUB_TOPIC/)
    expect(loadConfig({ GMAIL_PUBSUB_TOPIC: 'projects/p/topics/t' }).gmail.pubsubTopic).toBe('projects/p/topics/t')
  })
})
