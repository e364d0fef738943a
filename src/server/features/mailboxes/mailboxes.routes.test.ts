import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildRawMessage } from '#fakes/gmail/rfc822.ts'
import { decisions, mailboxes, pushReceipts } from '#server/db/schema.ts'
import { createTokenCipher } from '#server/lib/token-cipher.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { cookieValue, createTestApp, signIn, TEST_TOKEN_KEY, type TestApp } from '#server/test/harness.ts'
import { MailboxPopupMessageSchema, type MailboxProvider } from '#shared/api/mailboxes.ts'

/** Reads the message the connect popup would post to its opener. */
function popupMessage(html: string) {
  const match = /var message = (.*);\n/.exec(html)
  if (!match?.[1]) throw new Error('popup page has no message')
  return MailboxPopupMessageSchema.parse(JSON.parse(match[1]))
}

const XRW = { 'x-requested-with': 'XMLHttpRequest' }

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 8000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > until) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe.each(testDatabaseKinds())('mailbox connection (SPEC 4, 7, 8) on %s', (kind) => {
  let ctx: TestApp
  let sid: string
  let userId: number
  const cipher = createTokenCipher({ version: 1, secret: TEST_TOKEN_KEY })

  beforeAll(async () => {
    ctx = await createTestApp(kind, { mail: true })
    ;({ sid, user: { id: userId } } = await signIn(ctx, 'google', { email: 'owner@example.com', name: 'Owen Owner' }))
  })
  afterAll(async () => {
    await ctx?.close()
  })

  const get = (url: string, cookies: Record<string, string> = { sid }) => ctx.app.inject({ method: 'GET', url, cookies })
  const post = (url: string, payload: unknown, cookies: Record<string, string> = { sid }) =>
    ctx.app.inject({ method: 'POST', url, headers: XRW, cookies, payload: payload as object })
  const mailboxRow = async () => (await ctx.db.select().from(mailboxes).where(eq(mailboxes.userId, userId)))[0]

  /** The connect popup: authorize → the fake's consent form → the callback, as a browser would. */
  async function connect(provider: MailboxProvider, email: string, options: { decision?: 'allow' | 'deny'; mode?: 'popup' | 'redirect'; cookies?: Record<string, string> } = {}) {
    const cookies = options.cookies ?? { sid }
    const authorize = await ctx.app.inject({ method: 'GET', url: `/_api/${provider}/authorize?mode=${options.mode ?? 'popup'}`, cookies })
    if (authorize.statusCode !== 302) return { authorize, callback: authorize }
    const providerUrl = new URL(authorize.headers.location as string)
    const binding = cookieValue(authorize, 'mailbox_binding')
    const form = new URLSearchParams(providerUrl.searchParams)
    form.set('email', email)
    form.set('name', 'Mail Owner')
    form.set('decision', options.decision ?? 'allow')
    const consent = await fetch(`${providerUrl.origin}${providerUrl.pathname}`, { method: 'POST', body: form, redirect: 'manual' })
    const back = new URL(consent.headers.get('location') ?? '')
    const callback = await ctx.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      cookies: { ...cookies, ...(binding ? { mailbox_binding: binding } : {}) },
    })
    return { authorize, callback, providerUrl }
  }

  it('connects Gmail in the popup: incremental consent for gmail.modify, the address, tokens encrypted at rest, a watch started', async () => {
    const { callback, providerUrl } = await connect('gmail', 'owner@example.com')
    expect(providerUrl!.searchParams.get('scope')).toContain('https://www.googleapis.com/auth/gmail.modify')
    expect(providerUrl!.searchParams.get('access_type')).toBe('offline')
    expect(providerUrl!.searchParams.get('code_challenge_method')).toBe('S256')
    expect(callback.statusCode).toBe(200)
    expect(popupMessage(callback.body)).toEqual({ type: 'OAUTH_TOKEN_SUCCESS', provider: 'gmail', email: 'owner@example.com' })

    const status = await get('/_api/gmail/test')
    expect(status.statusCode).toBe(200)
    expect(status.json()).toEqual({ status: 'connected', message: 'Connected to owner@example.com', gmailEmail: 'owner@example.com', details: null, authorizationUrl: null })

    // The stored row holds ciphertext only: the plaintext token is what the Gmail fake accepts.
    const row = await mailboxRow()
    expect(row).toMatchObject({ provider: 'gmail', emailAddress: 'owner@example.com', status: 'connected' })
    const accessToken = cipher.decrypt(row!.accessToken!, `mailbox:${row!.id}:access_token`)
    const refreshToken = cipher.decrypt(row!.refreshToken!, `mailbox:${row!.id}:refresh_token`)
    expect(ctx.fakes.introspect('google', accessToken)).toMatchObject({ email: 'owner@example.com' })
    for (const field of [row!.accessToken, row!.refreshToken]) {
      expect(field).toMatch(/^v1\./)
      expect(field).not.toContain(accessToken)
      expect(field).not.toContain(refreshToken)
    }
    // Nothing in the logs of the whole connect either.
    const logs = ctx.logs.join('\n')
    for (const secret of [accessToken, refreshToken]) expect(logs).not.toContain(secret)

    expect(ctx.gmail!.mailbox('owner@example.com').watch).toMatchObject({ topicName: ctx.gmail!.pubsub.topicName, labelIds: ['INBOX'] })
    expect(row!.pushExpiresAt).not.toBeNull()
    expect(row!.syncCursor).toMatch(/^\d+$/)
  })

  it('new Gmail mail reaches the app as a verified Pub/Sub push, and the sync it starts decides the message', async () => {
    ctx.gmail!.deliver('owner@example.com', buildRawMessage({ from: 'friend@example.net', to: 'owner@example.com', subject: 'Lunch?', text: 'Tomorrow at noon?' }))
    await ctx.gmail!.push.idle()
    const receipts = await waitFor(
      () => ctx.db.select().from(pushReceipts),
      (rows) => rows.length > 0,
    )
    expect(receipts.every((r) => r.source === 'gmail')).toBe(true)
    const delivered = ctx.gmail!.push.log.filter((entry) => entry.outcome === 'delivered')
    expect(delivered.length).toBeGreaterThan(0)
    const decided = await waitFor(
      () => ctx.db.select().from(decisions),
      (rows) => rows.length > 0,
    )
    expect(decided).toEqual([expect.objectContaining({ senderAddress: 'friend@example.net', subject: 'Lunch?', state: 'kept' })])
  })

  it('refuses to connect Outlook while Gmail holds the tokens (409, clear message)', async () => {
    const authorize = await get('/_api/outlook/authorize?mode=popup')
    expect(authorize.statusCode).toBe(409)
    expect(popupMessage(authorize.body)).toEqual({
      type: 'OAUTH_ERROR',
      provider: 'outlook',
      error: { code: 'provider_conflict', message: 'Your Gmail mailbox is connected. Use "Switch Email Address" to disconnect it before connecting Outlook.' },
    })
    const outlook = await get('/_api/outlook/test')
    expect(outlook.json()).toMatchObject({ status: 'disconnected', outlookEmail: null })
  })

  it.each([
    [{ confirmDisconnection: false }, 'confirmDisconnection must be explicitly set to true'],
    [{}, 'confirmDisconnection must be explicitly set to true'],
    [{ confirmDisconnection: 'true' }, 'confirmDisconnection must be explicitly set to true'],
  ])('disconnect with %j answers 400 "%s" and keeps the mailbox', async (payload, error) => {
    const res = await post('/_api/gmail/disconnect', payload)
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toBe(error)
    expect((await mailboxRow())?.status).toBe('connected')
  })

  it('disconnects Gmail: push stopped, grant revoked at Google, tokens cleared; then Outlook connects', async () => {
    ctx.fakes.clearJournal()
    const res = await post('/_api/gmail/disconnect', { confirmDisconnection: true })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ success: true })
    expect(ctx.gmail!.mailbox('owner@example.com').watch).toBeUndefined()
    expect(ctx.fakes.journal.some((entry) => entry.endpoint === 'revoke' && entry.status === 200)).toBe(true)
    expect(await mailboxRow()).toMatchObject({ status: 'disconnected', accessToken: null, refreshToken: null, pushSubscriptionId: null })
    expect((await get('/_api/gmail/test')).json()).toMatchObject({ status: 'disconnected', gmailEmail: null })
    expect((await post('/_api/gmail/disconnect', { confirmDisconnection: true })).statusCode).toBe(404)

    const { callback } = await connect('outlook', 'owner@contoso.example')
    expect(popupMessage(callback.body)).toEqual({ type: 'OAUTH_TOKEN_SUCCESS', provider: 'outlook', email: 'owner@contoso.example' })
    expect((await get('/_api/outlook/test')).json()).toEqual({ status: 'connected', message: 'Connected to owner@contoso.example', outlookEmail: 'owner@contoso.example', details: null })
    const subscriptions = ctx.graph!.subscriptions('owner@contoso.example')
    expect(subscriptions).toHaveLength(1)
    expect(subscriptions[0]).toMatchObject({ notificationUrl: `${ctx.config.appUrl}/_api/webhooks/outlook`, hasClientState: true })
    expect((await mailboxRow())?.pushSubscriptionId).toBe(subscriptions[0]!.id)
  })

  it('new Outlook mail arrives as a change notification with the right clientState; a duplicate is recorded once', async () => {
    ctx.graph!.setNotificationFaults({ duplicate: true })
    const before = (await ctx.db.select().from(pushReceipts).where(eq(pushReceipts.source, 'outlook'))).length
    await ctx.graph!.deliver('owner@contoso.example', buildRawMessage({ from: 'client@example.org', to: 'owner@contoso.example', subject: 'Quote', text: 'Could you send a quote?' }))
    await ctx.graph!.notificationsSettled()
    ctx.graph!.setNotificationFaults({})
    const outlook = await waitFor(
      () => ctx.db.select().from(pushReceipts).where(eq(pushReceipts.source, 'outlook')),
      (rows) => rows.length > before,
    )
    expect(outlook).toHaveLength(before + 1)
    expect(ctx.graph!.pushes.filter((p) => p.kind === 'change').length).toBeGreaterThanOrEqual(2)
  })

  it('a wrong clientState is refused with 403 and records nothing', async () => {
    const before = await ctx.db.select().from(pushReceipts)
    const subscriptionId = (await mailboxRow())!.pushSubscriptionId!
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/_api/webhooks/outlook',
      payload: { value: [{ subscriptionId, clientState: 'guessed-secret', changeType: 'created', resource: 'Users/x/Messages/y', resourceData: { id: 'y' } }] },
    })
    expect(res.statusCode).toBe(403)
    expect(await ctx.db.select().from(pushReceipts)).toEqual(before)
  })

  it('answers the Graph validation handshake with the token as plain text', async () => {
    for (const path of ['/_api/webhooks/outlook', '/_api/webhooks/outlook/lifecycle']) {
      const res = await ctx.app.inject({ method: 'POST', url: `${path}?validationToken=Validation%3A%20Testing%20client%20application`, headers: { 'content-type': 'text/plain' }, payload: '' })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toContain('text/plain')
      expect(res.body).toBe('Validation: Testing client application')
    }
  })

  it('an access token the provider refuses is refreshed once for concurrent callers, and Microsoft\'s rotated refresh token is stored', async () => {
    const before = await mailboxRow()
    // The fakes' clock moves past the token's life; our stored expiry does not know yet, so the 401 says it.
    ctx.fakes.advanceClock(2 * 3600_000)
    ctx.graph!.advanceClock(2 * 3600_000)
    ctx.fakes.clearJournal()
    const answers = await Promise.all([get('/_api/outlook/test'), get('/_api/outlook/test'), get('/_api/outlook/test')])
    for (const answer of answers) expect(answer.json()).toMatchObject({ status: 'connected' })
    const refreshes = ctx.fakes.journal.filter((entry) => entry.provider === 'microsoft' && entry.endpoint === 'token' && entry.grantType === 'refresh_token')
    expect(refreshes).toHaveLength(1)
    const after = await mailboxRow()
    const oldRefresh = cipher.decrypt(before!.refreshToken!, `mailbox:${before!.id}:refresh_token`)
    const newRefresh = cipher.decrypt(after!.refreshToken!, `mailbox:${after!.id}:refresh_token`)
    expect(newRefresh).not.toBe(oldRefresh)
    // The rotated one works on the next refresh; the old one is dead at Microsoft.
    ctx.fakes.advanceClock(2 * 3600_000)
    ctx.graph!.advanceClock(2 * 3600_000)
    expect((await get('/_api/outlook/test')).json()).toMatchObject({ status: 'connected' })
  })

  it('a dead Outlook grant (invalid_grant) makes the mailbox action_required and clears the tokens', async () => {
    ctx.fakes.revokeRefreshTokens('microsoft', 'owner@contoso.example')
    ctx.fakes.advanceClock(2 * 3600_000)
    ctx.graph!.advanceClock(2 * 3600_000)
    const status = await get('/_api/outlook/test')
    expect(status.json()).toMatchObject({ status: 'action_required', outlookEmail: 'owner@contoso.example' })
    expect(await mailboxRow()).toMatchObject({ status: 'action_required', accessToken: null, refreshToken: null })
    // Disconnecting a mailbox without tokens still clears it.
    expect((await post('/_api/outlook/disconnect', { confirmDisconnection: true })).statusCode).toBe(200)
  })

  it('a denied consent reports access_denied in the popup and connects nothing', async () => {
    const { callback } = await connect('gmail', 'owner@example.com', { decision: 'deny' })
    expect(callback.statusCode).toBe(400)
    expect(popupMessage(callback.body)).toMatchObject({ type: 'OAUTH_ERROR', provider: 'gmail', error: { code: 'access_denied' } })
    expect((await mailboxRow())?.status).toBe('disconnected')
  })

  it('Gmail re-authentication in the full page comes back to /dashboard, or to /dashboard with SPEC 8 error parameters', async () => {
    const denied = await connect('gmail', 'owner@example.com', { mode: 'redirect', decision: 'deny' })
    expect(denied.callback.statusCode).toBe(302)
    const location = new URL(denied.callback.headers.location as string, 'http://x')
    expect(location.pathname).toBe('/dashboard')
    expect(location.searchParams.get('error')).toBe('access_denied')
    expect(location.searchParams.get('error_description')).toContain('Permission was not granted')

    const ok = await connect('gmail', 'owner@example.com', { mode: 'redirect' })
    expect(ok.callback.statusCode).toBe(302)
    expect(ok.callback.headers.location).toBe('/dashboard')
    expect((await get('/_api/gmail/test')).json()).toMatchObject({ status: 'connected' })
  })

  it('a Gmail grant without mail access (unticked on the consent screen) gives action_required with a re-authorization URL', async () => {
    await post('/_api/gmail/disconnect', { confirmDisconnection: true })
    ctx.fakes.injectFault({
      provider: 'google',
      endpoint: 'token',
      status: 200,
      body: { access_token: 'ya29.only-basic', expires_in: 3599, refresh_token: '1//only-basic', scope: 'openid https://www.googleapis.com/auth/userinfo.email', token_type: 'Bearer' },
    })
    const { callback } = await connect('gmail', 'owner@example.com')
    expect(callback.statusCode).toBe(200)
    const status = (await get('/_api/gmail/test')).json()
    expect(status).toMatchObject({ status: 'action_required', authorizationUrl: '/_api/gmail/authorize?mode=redirect' })
    expect(status.message).toContain('needs permission to read and label your mail')
    expect((await mailboxRow())?.refreshToken).toBeNull()
  })

  it('a state used by another signed-in user, or without the browser binding, is refused', async () => {
    const other = await signIn(ctx, 'google', { email: 'intruder@example.com' })
    const authorize = await get('/_api/gmail/authorize')
    const state = new URL(authorize.headers.location as string).searchParams.get('state')
    const binding = cookieValue(authorize, 'mailbox_binding')!
    const stolen = await ctx.app.inject({ method: 'GET', url: `/_api/gmail/callback?code=x&state=${state}`, cookies: { sid: other.sid, mailbox_binding: binding } })
    expect(popupMessage(stolen.body)).toMatchObject({ type: 'OAUTH_ERROR', error: { code: 'invalid_state' } })
    const authorize2 = await get('/_api/gmail/authorize')
    const state2 = new URL(authorize2.headers.location as string).searchParams.get('state')
    const unbound = await ctx.app.inject({ method: 'GET', url: `/_api/gmail/callback?code=x&state=${state2}`, cookies: { sid } })
    expect(popupMessage(unbound.body)).toMatchObject({ type: 'OAUTH_ERROR', error: { code: 'invalid_state' } })
  })

  it('requires sign-in: status and disconnect answer 401, the popup says to sign in', async () => {
    expect((await get('/_api/gmail/test', {})).statusCode).toBe(401)
    expect((await post('/_api/outlook/disconnect', { confirmDisconnection: true }, {})).statusCode).toBe(401)
    const popup = await get('/_api/gmail/authorize', {})
    expect(popupMessage(popup.body)).toMatchObject({ type: 'OAUTH_ERROR', error: { code: 'unauthenticated' } })
  })
})
