import { createHmac } from 'node:crypto'

/**
 * Webhook delivery as Stripe does it (providers.md C2, C3, D4): each event POSTed as pretty-printed JSON
 * to the endpoint, signed `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` with the
 * endpoint's `whsec_` secret, redelivered with backoff while the endpoint answers anything but 2xx (a
 * redirect counts as a failure) or does not answer in time. Payloads are rendered in the endpoint's API
 * version. Fault modes add duplicates, held-then-reversed delivery, delays, lost deliveries, and stale or
 * wrong signatures.
 *
 * `t` is wall-clock time, not the fake's adjustable clock: receivers check it against their own clock
 * (SDK tolerance 300 s), and moving billing time forward must not make every signature look stale.
 */

export interface WebhookOptions {
  /** Waits before each redelivery after a failed attempt; its length is the number of retries (default 100, 400, 1600 ms). */
  retryDelaysMs?: number[]
  /** Per delivery attempt; a slower endpoint counts as a failure (default 10 s). */
  timeoutMs?: number
}

export interface WebhookEndpointConfig {
  url: string
  secret: string
  apiVersion: string
  /** Event types delivered; `*` for all (default). */
  enabledEvents: string[]
}

export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed' | 'dropped' | 'no_endpoint' | 'held' | 'not_enabled'

export interface DeliveryLogEntry {
  at: string
  eventId: string
  type: string
  outcome: DeliveryOutcome
  attempt: number
  status?: number
  error?: string
  duplicate?: boolean
  /** The signature was deliberately wrong or stale for this attempt. */
  tampered?: 'stale' | 'bad_signature'
}

export interface WebhookEvent {
  id: string
  type: string
}

export interface WebhookEmulator {
  readonly log: DeliveryLogEntry[]
  endpoint(): WebhookEndpointConfig | undefined
  setEndpoint(config: WebhookEndpointConfig | undefined): void
  /** Queues an event; returns whether an endpoint will receive it (for `pending_webhooks`). */
  publish(event: WebhookEvent): boolean
  /** The next `count` events are delivered twice (same event id), as at-least-once delivery does. */
  duplicateNext(count?: number): void
  /** The next `count` events are never delivered. */
  dropNext(count?: number): void
  /** The next `count` events wait `ms` before their first attempt, while later ones go ahead. */
  delayNext(ms: number, count?: number): void
  /** The next `count` events are signed with a timestamp 10 minutes old (outside the SDK's 300 s tolerance). */
  staleSignatureNext(count?: number): void
  /** The next `count` events carry a signature made with another secret. */
  badSignatureNext(count?: number): void
  /** Keeps events back until `release`. */
  hold(): void
  /** Sends the held events, newest first by default (reordering). */
  release(order?: 'reverse' | 'fifo'): void
  /** Resolves when no delivery or redelivery is pending. */
  idle(): Promise<void>
  close(): void
}

/** The header Stripe sends: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<payload>")>`. */
export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex')
  return `t=${timestamp},v1=${v1}`
}

const SUCCESS = (status: number) => status >= 200 && status < 300
const STALE_SECONDS = 600

interface Pending {
  event: WebhookEvent
  tamper?: 'stale' | 'bad_signature'
}

export function createWebhookEmulator(
  options: WebhookOptions,
  /** The event's JSON in the given API version. */
  render: (eventId: string, apiVersion: string) => unknown,
  now: () => number,
  onDelivered: (eventId: string) => void,
): WebhookEmulator {
  const retryDelays = options.retryDelaysMs ?? [100, 400, 1600]
  const timeoutMs = options.timeoutMs ?? 10_000
  let config: WebhookEndpointConfig | undefined
  const log: DeliveryLogEntry[] = []
  const pending = new Set<Promise<void>>()
  const timers = new Set<NodeJS.Timeout>()
  const held: Pending[] = []
  let holding = false
  let duplicates = 0
  let drops = 0
  let stale = 0
  let bad = 0
  const delays: number[] = []
  let closed = false
  // First attempts go out one after another, so the receiver sees events in the order they happened
  // unless a fault mode says otherwise; retries run beside the queue.
  let queue: Promise<void> = Promise.resolve()

  const entry = (e: WebhookEvent, outcome: DeliveryOutcome, attempt: number, extra: Partial<DeliveryLogEntry> = {}) =>
    log.push({ at: new Date(now()).toISOString(), eventId: e.id, type: e.type, outcome, attempt, ...extra })

  function track(promise: Promise<void>) {
    pending.add(promise)
    void promise.finally(() => pending.delete(promise))
  }

  function wait(ms: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer)
        resolve()
      }, ms)
      timers.add(timer)
    })
  }

  const enabled = (c: WebhookEndpointConfig, type: string) => c.enabledEvents.includes('*') || c.enabledEvents.includes(type)

  /** One POST; true when the event needs another attempt. */
  async function attempt(p: Pending, number: number, duplicate: boolean): Promise<boolean> {
    if (closed) return false
    const c = config
    const extra: Partial<DeliveryLogEntry> = { ...(duplicate ? { duplicate: true } : {}), ...(p.tamper ? { tampered: p.tamper } : {}) }
    if (!c) {
      entry(p.event, 'no_endpoint', number, extra)
      return false
    }
    // Stripe sends the JSON pretty-printed: verification needs the raw bytes, not a re-serialization.
    const payload = JSON.stringify(render(p.event.id, c.apiVersion), null, 2)
    const wallSeconds = Math.floor(Date.now() / 1000)
    const signature =
      p.tamper === 'bad_signature'
        ? signatureHeader(payload, `${c.secret}_wrong`, wallSeconds)
        : signatureHeader(payload, c.secret, p.tamper === 'stale' ? wallSeconds - STALE_SECONDS : wallSeconds)
    let status: number | undefined
    let error: string | undefined
    try {
      const res = await fetch(c.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          Accept: '*/*; q=0.5, application/xml',
          'Cache-Control': 'no-cache',
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Stripe-Signature': signature,
        },
        body: payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      })
      status = res.status
      await res.arrayBuffer().catch(() => undefined)
    } catch (e) {
      error = e instanceof Error ? e.name : 'error'
    }
    const result = { ...(status !== undefined ? { status } : {}), ...(error ? { error } : {}), ...extra }
    if (status !== undefined && SUCCESS(status)) {
      entry(p.event, 'delivered', number, result)
      if (!duplicate) onDelivered(p.event.id)
      return false
    }
    if (retryDelays[number - 1] === undefined || closed) {
      entry(p.event, 'failed', number, result)
      return false
    }
    entry(p.event, 'retrying', number, result)
    return true
  }

  async function retries(p: Pending, from: number, duplicate: boolean): Promise<void> {
    for (let number = from; ; number++) {
      await wait(retryDelays[number - 2] ?? 0)
      if (!(await attempt(p, number, duplicate))) return
    }
  }

  /** The first attempt; a failure's retries continue beside the queue, so they do not block later events. */
  async function send(p: Pending, duplicate: boolean) {
    if (await attempt(p, 1, duplicate)) track(retries(p, 2, duplicate))
  }

  function deliver(p: Pending): Promise<void> {
    if (drops > 0) {
      drops -= 1
      entry(p.event, 'dropped', 0)
      return Promise.resolve()
    }
    const twice = duplicates > 0
    if (twice) duplicates -= 1
    const delay = delays.shift()
    const run = async () => {
      if (delay) await wait(delay)
      await send(p, false)
      if (twice) await send(p, true)
    }
    if (!delay) return run()
    // A delayed event lets later ones overtake it.
    track(run())
    return Promise.resolve()
  }

  function enqueue(p: Pending) {
    const next = queue.then(() => deliver(p))
    queue = next
    track(next)
  }

  return {
    log,
    endpoint: () => config,
    setEndpoint(next) {
      if (next) {
        new URL(next.url)
        if (!next.secret) throw new Error('A webhook endpoint needs its signing secret')
      }
      config = next
    },
    publish(event) {
      if (closed) return false
      const c = config
      if (c && !enabled(c, event.type)) {
        entry(event, 'not_enabled', 0)
        return false
      }
      const p: Pending = { event }
      if (bad > 0) {
        bad -= 1
        p.tamper = 'bad_signature'
      } else if (stale > 0) {
        stale -= 1
        p.tamper = 'stale'
      }
      if (holding) {
        held.push(p)
        entry(event, 'held', 0)
        return c !== undefined
      }
      enqueue(p)
      return c !== undefined
    },
    duplicateNext(count = 1) {
      duplicates += count
    },
    dropNext(count = 1) {
      drops += count
    },
    delayNext(ms, count = 1) {
      if (!Number.isFinite(ms) || ms < 0) throw new Error('ms must be a non-negative number')
      for (let i = 0; i < count; i++) delays.push(ms)
    },
    staleSignatureNext(count = 1) {
      stale += count
    },
    badSignatureNext(count = 1) {
      bad += count
    },
    hold() {
      holding = true
    },
    release(order = 'reverse') {
      holding = false
      const batch = held.splice(0, held.length)
      if (order === 'reverse') batch.reverse()
      for (const p of batch) enqueue(p)
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
