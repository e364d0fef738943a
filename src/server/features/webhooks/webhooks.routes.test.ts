import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailboxes, pushReceipts, users } from '#server/db/schema.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { createTestApp, type TestApp } from '#server/test/harness.ts'

/**
 * The Pub/Sub push receiver's proof checks (providers.md A3), with tokens minted here against a JWKS
 * served here, so every way a token can be wrong is covered. The full push from the Gmail fake is in
 * mailboxes.routes.test.ts.
 */
const SERVICE_ACCOUNT = 'gmail-push@inbox-guard.iam.gserviceaccount.com'
const ISSUER = 'https://accounts.google.com'
const AUDIENCE = 'https://inbox.example/_api/webhooks/gmail'

describe.each(testDatabaseKinds())('POST /_api/webhooks/gmail on %s', (kind) => {
  let ctx: TestApp
  let jwksServer: Server
  let key: CryptoKey
  let otherKey: CryptoKey
  let mailboxId: number

  beforeAll(async () => {
    const trustedPair = await generateKeyPair('RS256')
    key = trustedPair.privateKey
    ;({ privateKey: otherKey } = await generateKeyPair('RS256'))
    const jwk: JWK = { ...(await exportJWK((await generateKeyPair('RS256')).publicKey)), kid: 'unused' }
    const trusted: JWK = { ...(await exportJWK(trustedPair.publicKey)), kid: 'trusted', alg: 'RS256', use: 'sig' }
    jwksServer = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ keys: [jwk, trusted] }))
    })
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve))
    const { port } = jwksServer.address() as AddressInfo
    ctx = await createTestApp(kind, {
      env: {
        GMAIL_PUSH_JWKS_URL: `http://127.0.0.1:${port}/certs`,
        GMAIL_PUSH_SERVICE_ACCOUNT: SERVICE_ACCOUNT,
        GMAIL_PUSH_ISSUER: ISSUER,
        GMAIL_PUSH_AUDIENCE: AUDIENCE,
      },
    })
    const [user] = await ctx.db.insert(users).values({ displayName: 'Pat', email: 'pat@example.com' }).returning()
    const [mailbox] = await ctx.db
      .insert(mailboxes)
      .values({ userId: user!.id, provider: 'gmail', emailAddress: 'Pat@Example.com', status: 'connected', accessToken: 'v1.x.y.z', refreshToken: 'v1.x.y.z' })
      .returning()
    mailboxId = mailbox!.id
  })
  afterAll(async () => {
    await ctx?.close()
    await new Promise((resolve) => jwksServer?.close(resolve))
  })

  const now = () => Math.floor(Date.now() / 1000)
  async function token(claims: Record<string, unknown> = {}, signWith: CryptoKey = key) {
    const { iss = ISSUER, aud = AUDIENCE, iat = now(), exp = now() + 3600, ...rest } = claims
    return new SignJWT({ email: SERVICE_ACCOUNT, email_verified: true, ...rest })
      .setProtectedHeader({ alg: 'RS256', kid: 'trusted' })
      .setIssuer(iss as string)
      .setAudience(aud as string)
      .setIssuedAt(iat as number)
      .setExpirationTime(exp as number)
      .sign(signWith)
  }
  const envelope = (messageId: string, data: unknown = { emailAddress: 'pat@example.com', historyId: 12345 }) => ({
    message: { data: Buffer.from(JSON.stringify(data)).toString('base64'), messageId, message_id: messageId, publishTime: new Date().toISOString() },
    subscription: 'projects/p/subscriptions/s',
  })
  const push = (body: unknown, bearer?: string) =>
    ctx.app.inject({ method: 'POST', url: '/_api/webhooks/gmail', headers: bearer ? { authorization: `Bearer ${bearer}` } : {}, payload: body as object })
  const receipts = () => ctx.db.select().from(pushReceipts)
  const syncJobs = async () => {
    const result = await ctx.db.execute(sql`select count(*)::int as n from pgboss.job where name = 'mailbox-sync' and data->>'mailboxId' = ${String(mailboxId)}`)
    return (result as unknown as { rows: Array<{ n: number }> }).rows[0]!.n
  }

  it.each([
    ['no token', undefined, 401],
    ['a token signed by another key (forged)', 'other-key', 401],
    ['an expired token', { exp: now() - 3600, iat: now() - 7200 }, 401],
    ['a token for another audience', { aud: 'https://evil.example/_api/webhooks/gmail' }, 401],
    ['a token from another issuer', { iss: 'https://evil.example' }, 401],
    ['a token for another service account', { email: 'someone@evil.iam.gserviceaccount.com' }, 403],
    ['a token whose email is not verified', { email_verified: false }, 403],
  ])('refuses %s and enqueues nothing', async (_label, claims, status) => {
    await ctx.boss()
    const bearer = claims === undefined ? undefined : claims === 'other-key' ? await token({}, otherKey) : await token(claims as Record<string, unknown>)
    const res = await push(envelope(`forged-${status}-${Math.random()}`), bearer)
    expect(res.statusCode).toBe(status)
    expect(await receipts()).toEqual([])
    expect(await syncJobs()).toBe(0)
  })

  it('accepts a valid push (historyId as a number or a string), finds the mailbox by address in any case, and enqueues one sync', async () => {
    const res = await push(envelope('pubsub-1'), await token())
    expect(res.statusCode).toBe(204)
    expect(await receipts()).toEqual([expect.objectContaining({ source: 'gmail', dedupeKey: `pubsub-1:${mailboxId}`, mailboxId })])
    expect(await syncJobs()).toBe(1)
    const asString = await push(envelope('pubsub-2', { emailAddress: 'PAT@example.com', historyId: '12346' }), await token())
    expect(asString.statusCode).toBe(204)
    expect(await receipts()).toHaveLength(2)
  })

  it('records a redelivered Pub/Sub message once', async () => {
    const before = (await receipts()).length
    for (let i = 0; i < 3; i++) expect((await push(envelope('pubsub-dup'), await token())).statusCode).toBe(204)
    expect(await receipts()).toHaveLength(before + 1)
  })

  it('acknowledges a push for an unknown mailbox, or with unreadable data, without enqueuing (no redelivery loop)', async () => {
    const before = (await receipts()).length
    expect((await push(envelope('pubsub-unknown', { emailAddress: 'nobody@example.com', historyId: 1 }), await token())).statusCode).toBe(204)
    const garbled = { message: { data: Buffer.from('not json').toString('base64'), messageId: 'pubsub-garbled' } }
    expect((await push(garbled, await token())).statusCode).toBe(204)
    expect(await receipts()).toHaveLength(before)
  })

  it('needs no session or CSRF header: the token is the proof', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/_api/webhooks/gmail',
      headers: { authorization: `Bearer ${await token()}`, origin: 'https://pubsub.googleapis.com' },
      payload: envelope('pubsub-origin'),
    })
    expect(res.statusCode).toBe(204)
  })
})
