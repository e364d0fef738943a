import { randomInt } from 'node:crypto'
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose'

/**
 * Cloud Pub/Sub push delivery as Gmail's `watch` uses it (providers.md A3, D2): the push envelope with
 * base64 JSON `{emailAddress, historyId}` (historyId sometimes a number), camelCase and snake_case ids,
 * an OIDC bearer token (RS256, signed by this fake's own key and served as a JWKS), at most one
 * notification per second per mailbox with the excess dropped, and redelivery with backoff while the
 * endpoint answers anything but success. Fault modes add duplicates, reordering and lost notifications.
 */

export interface PubSubOptions {
  /** The one topic `watch` accepts (default `projects/inbox-guard-demo/topics/gmail-push`). */
  topicName?: string
  /** The push subscription named in every envelope. */
  subscription?: string
  /** OIDC `aud`; default: the push endpoint URL at delivery time (Pub/Sub's default). */
  audience?: string
  /** OIDC `email`: the push subscription's service account. */
  serviceAccountEmail?: string
  /** OIDC `iss` (Google's is https://accounts.google.com). */
  issuer?: string
  /** Waits before each redelivery after a failed attempt; its length is the number of retries (default 100, 400, 1600 ms). */
  retryDelaysMs?: number[]
  /** At most one notification per this many ms per mailbox; the rest are dropped (default 1000). */
  minIntervalMs?: number
  /** How `historyId` is written in the data: Gmail sends strings and sometimes numbers (default random). */
  historyIdFormat?: 'string' | 'number' | 'random'
  /** Per delivery attempt; a slower endpoint counts as a failure (default 10 s, Pub/Sub's default ack deadline). */
  timeoutMs?: number
}

export type PushOutcome = 'delivered' | 'retrying' | 'failed' | 'rate_limited' | 'dropped' | 'no_endpoint' | 'held'

export interface PushLogEntry {
  at: string
  address: string
  historyId: string
  /** Pub/Sub message id ('' when the notification was never published). */
  messageId: string
  outcome: PushOutcome
  attempt: number
  status?: number
  error?: string
  duplicate?: boolean
}

interface Notification {
  address: string
  historyId: number
  messageId: string
  publishTime: string
}

export interface PushEmulator {
  readonly topicName: string
  readonly subscription: string
  readonly issuer: string
  readonly serviceAccountEmail: string
  readonly jwks: { keys: JWK[] }
  readonly log: PushLogEntry[]
  endpoint(): string | undefined
  setEndpoint(url: string | undefined): void
  /** The audience tokens carry right now. */
  audience(): string
  /** A change on a watched mailbox: publish unless one went out for it less than minIntervalMs ago. */
  publish(address: string, historyId: number, options?: { bypassRateLimit?: boolean }): void
  /** The next `count` notifications are delivered twice (same Pub/Sub message id), as at-least-once delivery does. */
  duplicateNext(count?: number): void
  /** The next `count` notifications are lost (published, never delivered). */
  dropNext(count?: number): void
  /** Keeps notifications back until `release`. */
  hold(): void
  /** Sends the held notifications, newest first by default (reordering). */
  release(order?: 'reverse' | 'fifo'): void
  /** Resolves when no delivery or redelivery is pending. */
  idle(): Promise<void>
  close(): void
}

const SUCCESS = (status: number) => status === 102 || (status >= 200 && status < 300)

export async function createPushEmulator(options: PubSubOptions, now: () => number): Promise<PushEmulator> {
  const topicName = options.topicName ?? 'projects/inbox-guard-demo/topics/gmail-push'
  const project = /^projects\/([^/]+)\//.exec(topicName)?.[1] ?? 'inbox-guard-demo'
  const subscription = options.subscription ?? `projects/${project}/subscriptions/gmail-push`
  const issuer = options.issuer ?? 'https://accounts.google.com'
  const serviceAccountEmail = options.serviceAccountEmail ?? `gmail-push@${project}.iam.gserviceaccount.com`
  const retryDelays = options.retryDelaysMs ?? [100, 400, 1600]
  const minInterval = options.minIntervalMs ?? 1000
  const timeoutMs = options.timeoutMs ?? 10_000
  // Service accounts have a numeric unique id; Pub/Sub puts it in `sub` and `azp`.
  const serviceAccountId = `1${String(randomInt(10 ** 9)).padStart(9, '0')}${String(randomInt(10 ** 10)).padStart(10, '0')}`

  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048 })
  const publicJwk = await exportJWK(publicKey)
  const kid = await calculateJwkThumbprint(publicJwk)
  const key: CryptoKey = privateKey
  const jwks = { keys: [{ ...publicJwk, kid, alg: 'RS256', use: 'sig' }] }

  let endpoint: string | undefined
  let nextMessageId = 10_000_000_000_000 + randomInt(10 ** 9)
  const lastPublished = new Map<string, number>()
  const log: PushLogEntry[] = []
  const pending = new Set<Promise<void>>()
  const timers = new Set<NodeJS.Timeout>()
  const held: Notification[] = []
  let holding = false
  let duplicates = 0
  let drops = 0
  let closed = false

  const audience = () => options.audience ?? endpoint ?? ''
  const entry = (n: Notification, outcome: PushOutcome, attempt: number, extra: Partial<PushLogEntry> = {}) =>
    log.push({ at: new Date(now()).toISOString(), address: n.address, historyId: String(n.historyId), messageId: n.messageId, outcome, attempt, ...extra })

  async function oidcToken(aud: string): Promise<string> {
    const iat = Math.floor(now() / 1000)
    return new SignJWT({ email: serviceAccountEmail, email_verified: true, azp: serviceAccountId })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(aud)
      .setSubject(serviceAccountId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 3600)
      .sign(key)
  }

  function body(n: Notification): string {
    const format = options.historyIdFormat ?? 'random'
    const asNumber = format === 'number' || (format === 'random' && randomInt(2) === 1)
    const data = Buffer.from(JSON.stringify({ emailAddress: n.address, historyId: asNumber ? n.historyId : String(n.historyId) })).toString('base64')
    return JSON.stringify({
      message: { attributes: {}, data, messageId: n.messageId, message_id: n.messageId, publishTime: n.publishTime, publish_time: n.publishTime },
      subscription,
    })
  }

  function track(promise: Promise<void>) {
    pending.add(promise)
    void promise.finally(() => pending.delete(promise))
  }

  async function attempt(n: Notification, number: number, duplicate: boolean): Promise<void> {
    if (closed) return
    const url = endpoint
    const extra = duplicate ? { duplicate: true } : {}
    if (!url) {
      entry(n, 'no_endpoint', number, extra)
      return
    }
    let status: number | undefined
    let error: string | undefined
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${await oidcToken(audience())}`,
          'User-Agent': 'APIs-Google; (+https://developers.google.com/webmasters/APIs-Google.html)',
        },
        body: body(n),
        signal: AbortSignal.timeout(timeoutMs),
      })
      status = res.status
      await res.arrayBuffer().catch(() => undefined)
    } catch (e) {
      error = e instanceof Error ? e.name : 'error'
    }
    if (status !== undefined && SUCCESS(status)) {
      entry(n, 'delivered', number, { status, ...extra })
      return
    }
    const delay = retryDelays[number - 1]
    if (delay === undefined || closed) {
      entry(n, 'failed', number, { ...(status !== undefined ? { status } : {}), ...(error ? { error } : {}), ...extra })
      return
    }
    entry(n, 'retrying', number, { ...(status !== undefined ? { status } : {}), ...(error ? { error } : {}), ...extra })
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer)
        resolve()
      }, delay)
      timers.add(timer)
    })
    await attempt(n, number + 1, duplicate)
  }

  async function deliver(n: Notification): Promise<void> {
    if (drops > 0) {
      drops -= 1
      entry(n, 'dropped', 0)
      return
    }
    const twice = duplicates > 0
    if (twice) duplicates -= 1
    await attempt(n, 1, false)
    if (twice) await attempt(n, 1, true)
  }

  return {
    topicName,
    subscription,
    issuer,
    serviceAccountEmail,
    jwks,
    log,
    endpoint: () => endpoint,
    setEndpoint(url) {
      if (url !== undefined) new URL(url)
      endpoint = url
    },
    audience,
    publish(address, historyId, publishOptions = {}) {
      if (closed) return
      const at = now()
      const n: Notification = { address, historyId, messageId: '', publishTime: new Date(at).toISOString() }
      const last = lastPublished.get(address)
      if (!publishOptions.bypassRateLimit && last !== undefined && at - last < minInterval) {
        // Gmail publishes at most one notification per second per user and drops the rest (A3).
        entry(n, 'rate_limited', 0)
        return
      }
      lastPublished.set(address, at)
      nextMessageId += 1 + randomInt(50)
      n.messageId = String(nextMessageId)
      if (holding) {
        held.push(n)
        entry(n, 'held', 0)
        return
      }
      track(deliver(n))
    },
    duplicateNext(count = 1) {
      duplicates += count
    },
    dropNext(count = 1) {
      drops += count
    },
    hold() {
      holding = true
    },
    release(order = 'reverse') {
      holding = false
      const batch = held.splice(0, held.length)
      if (order === 'reverse') batch.reverse()
      // One after the other, so the receiver sees exactly this order.
      track(
        (async () => {
          for (const n of batch) await deliver(n)
        })(),
      )
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending])
    },
    close() {
      closed = true
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
    },
  }
}
