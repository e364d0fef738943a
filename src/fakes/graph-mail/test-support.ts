import { createHash, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { startIdentityFakes, type IdentityFakes } from '../identity/server.ts'

/**
 * Test support for the Graph mail fake and the Outlook adapter: a Microsoft identity fake with a test
 * client, a consent step driven over HTTP exactly as a browser would (the form the fake's consent page
 * posts), and a local HTTP receiver for change notifications that behaves like a correct webhook
 * (providers.md B3) unless a test tells it to misbehave.
 */

export const TEST_MICROSOFT_CLIENT = { clientId: 'graph-mail-test-client', clientSecret: 'graph-mail-test-secret' } as const
export const TEST_REDIRECT_URI = 'http://app.test/_api/mailboxes/oauth_callback/outlook'
export const MAILBOX_SCOPES = ['openid', 'email', 'offline_access', 'User.Read', 'Mail.Read', 'Mail.ReadWrite', 'MailboxSettings.Read']

export function startTestIdentity(): Promise<IdentityFakes> {
  return startIdentityFakes({ google: { clientId: 'unused-google-client', clientSecret: 'unused-google-secret' }, microsoft: TEST_MICROSOFT_CLIENT })
}

/** Answers the identity fake's consent form for `email`; returns the redirect back to the app (with `code` and `state`). */
export async function consentAt(authorizationUrl: URL, email: string, name = 'Test Person'): Promise<URL> {
  const form = new URLSearchParams(authorizationUrl.searchParams)
  form.set('email', email)
  form.set('name', name)
  form.set('decision', 'allow')
  const res = await fetch(`${authorizationUrl.origin}${authorizationUrl.pathname}`, { method: 'POST', body: form, redirect: 'manual' })
  if (res.status !== 302) throw new Error(`consent answered ${res.status}`)
  return new URL(res.headers.get('location') ?? '')
}

export interface RawTokens {
  accessToken: string
  refreshToken: string
  scope: string
}

/** Tokens for `email` with the given scopes, through the authorize + token endpoints (PKCE S256). */
export async function microsoftTokens(identity: IdentityFakes, email: string, scopes: string[] = MAILBOX_SCOPES): Promise<RawTokens> {
  const verifier = randomBytes(32).toString('base64url')
  const authorize = new URL(identity.microsoft.authorizeUrl)
  for (const [k, v] of Object.entries({
    client_id: TEST_MICROSOFT_CLIENT.clientId,
    redirect_uri: TEST_REDIRECT_URI,
    response_type: 'code',
    response_mode: 'query',
    scope: scopes.join(' '),
    state: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  })) {
    authorize.searchParams.set(k, v)
  }
  const callback = await consentAt(authorize, email)
  const code = callback.searchParams.get('code')
  if (!code) throw new Error(`no code: ${callback.searchParams.get('error') ?? ''}`)
  const res = await fetch(identity.microsoft.tokenUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: TEST_REDIRECT_URI,
      client_id: TEST_MICROSOFT_CLIENT.clientId,
      client_secret: TEST_MICROSOFT_CLIENT.clientSecret,
      code_verifier: verifier,
    }),
  })
  const body = (await res.json()) as { access_token?: string; refresh_token?: string; scope?: string; error?: string }
  if (!res.ok || !body.access_token) throw new Error(`token endpoint: ${res.status} ${body.error ?? ''}`)
  return { accessToken: body.access_token, refreshToken: body.refresh_token ?? '', scope: body.scope ?? '' }
}

/** A minimal RFC 822 message. */
export function rawMessage(opts: { from: string; to: string; subject: string; body?: string; messageId?: string; date?: Date; headers?: Record<string, string> }): string {
  const lines = [
    `From: ${opts.from}`,
    `To: ${opts.to}`,
    `Subject: ${opts.subject}`,
    `Date: ${(opts.date ?? new Date()).toUTCString()}`,
    `Message-ID: ${opts.messageId ?? `<${randomBytes(8).toString('hex')}@test.example>`}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    ...Object.entries(opts.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    '',
    opts.body ?? 'Hello.',
    '',
  ]
  return lines.join('\r\n')
}

export interface ReceivedPush {
  path: string
  contentType: string
  body: { value: Array<Record<string, unknown>> }
}

export interface ReceiverBehaviour {
  /** How to answer the validation handshake: echo the token (correct), echo something else, answer JSON, 500, or too late. */
  validation: 'echo' | 'wrong-token' | 'json' | 'error' | 'slow'
  /** Status for notifications (Graph expects 2xx; 202 is usual). */
  notificationStatus: number
  slowMs: number
}

export interface Receiver {
  origin: string
  notificationUrl: string
  lifecycleNotificationUrl: string
  /** Change and lifecycle notifications, in arrival order (validation requests are not included). */
  received: ReceivedPush[]
  /** Validation tokens received, decoded. */
  validations: Array<{ path: string; token: string; bodyLength: number; contentType: string }>
  behaviour: ReceiverBehaviour
  /** Waits until `count` pushes to `path` (or any) have arrived. */
  waitFor(count: number, path?: string, timeoutMs?: number): Promise<ReceivedPush[]>
  close(): Promise<void>
}

/** A webhook receiver on loopback that behaves as B3 asks (validation echo in text/plain, 202 for notifications). */
export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedPush[] = []
  const validations: Receiver['validations'] = []
  const behaviour: ReceiverBehaviour = { validation: 'echo', notificationStatus: 202, slowMs: 500 }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://receiver.invalid')
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    const contentType = req.headers['content-type'] ?? ''
    // The token check comes before any JSON parsing: the validation POST has an empty body (B3, D5).
    const token = url.searchParams.get('validationToken')
    if (token !== null) {
      validations.push({ path: url.pathname, token, bodyLength: text.length, contentType })
      switch (behaviour.validation) {
        case 'echo':
          res.writeHead(200, { 'Content-Type': 'text/plain' })
          return res.end(token)
        case 'wrong-token':
          res.writeHead(200, { 'Content-Type': 'text/plain' })
          return res.end(`${token}\n`)
        case 'json':
          res.writeHead(200, { 'Content-Type': 'application/json' })
          return res.end(JSON.stringify({ validationToken: token }))
        case 'error':
          res.writeHead(500, { 'Content-Type': 'text/plain' })
          return res.end('nope')
        case 'slow':
          await sleep(behaviour.slowMs)
          res.writeHead(200, { 'Content-Type': 'text/plain' })
          return res.end(token)
      }
    }
    received.push({ path: url.pathname, contentType, body: JSON.parse(text || '{"value":[]}') as ReceivedPush['body'] })
    res.writeHead(behaviour.notificationStatus)
    res.end()
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    notificationUrl: `${origin}/graph/notify`,
    lifecycleNotificationUrl: `${origin}/graph/lifecycle`,
    received,
    validations,
    behaviour,
    async waitFor(count, path, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const matching = received.filter((r) => !path || r.path === path)
        if (matching.length >= count) return matching
        if (Date.now() > deadline) throw new Error(`expected ${count} pushes${path ? ` to ${path}` : ''}, got ${matching.length}`)
        await sleep(10)
      }
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()))
        server.closeAllConnections()
      }),
  }
}
