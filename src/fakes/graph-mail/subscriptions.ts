import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { ChangeKind, Mailbox, StoredMessage } from './mailbox.ts'

/**
 * Graph change-notification subscriptions for the mail fake (providers.md B3, D3): the validation
 * handshake really POSTs to the app's URLs, change notifications really POST batches with the
 * subscription's clientState, lifecycle notifications go to the lifecycle URL, and every push is
 * logged (without clientState, tokens or message content). Fault modes: lost, duplicated, delayed
 * and reordered notifications.
 */

export type LifecycleEvent = 'reauthorizationRequired' | 'missed' | 'subscriptionRemoved'

export interface Subscription {
  id: string
  address: string
  applicationId: string
  creatorId: string
  changeTypes: ChangeKind[]
  resource: string
  /** null: every message of the mailbox (`me/messages`). */
  folderId: string | null
  notificationUrl: string
  lifecycleNotificationUrl: string | null
  expiresAt: number
  clientState: string | null
  latestSupportedTlsVersion: string
  /** Created with `Prefer: IdType="ImmutableId"`: notifications then carry immutable ids. */
  immutableIds: boolean
}

export interface PushRecord {
  at: string
  kind: 'validation' | 'change' | 'lifecycle'
  /** Path of the URL pushed to (no query: the validation token stays out of the log). */
  path: string
  subscriptionIds: string[]
  changeType?: ChangeKind
  lifecycleEvent?: LifecycleEvent
  /** Message ids named by a change notification. */
  messageIds?: string[]
  attempt: number
  /** HTTP status of the answer; 0 when there was none (timeout, refused connection) or the push was dropped. */
  status: number
  durationMs: number
  outcome: 'ok' | 'rejected' | 'timeout' | 'unreachable' | 'dropped' | 'held'
}

export interface NotificationFaults {
  /** Lose change notifications (the app then only learns through a `missed` lifecycle event or polling). */
  drop?: boolean
  /** Send every change notification twice (Graph does: B3 "expect duplicates"). */
  duplicate?: boolean
  /** Hold change notifications until flushNotifications(), then send them newest first. */
  reorder?: boolean
  /** Wait this long before each change notification. */
  delayMs?: number
}

export interface NotifierOptions {
  now: () => number
  validationTimeoutMs: number
  notificationTimeoutMs: number
  notificationRetries: number
  notificationRetryDelayMs: number
}

interface PendingChange {
  url: string
  items: Array<Record<string, unknown>>
  subscriptionIds: string[]
  changeType: ChangeKind
  messageIds: string[]
}

const VALIDATION_FAILED = 'Subscription validation request failed.'

export class Notifier {
  readonly subscriptions = new Map<string, Subscription>()
  readonly pushes: PushRecord[] = []
  private faults: NotificationFaults = {}
  private held: PendingChange[] = []
  private readonly inFlight = new Set<Promise<unknown>>()

  constructor(private readonly options: NotifierOptions) {}

  setFaults(faults: NotificationFaults): void {
    this.faults = { ...faults }
  }

  /** A live subscription (expired ones are gone, as Graph deletes them silently: B3). */
  get(id: string): Subscription | undefined {
    const sub = this.subscriptions.get(id)
    if (sub && sub.expiresAt <= this.options.now()) {
      this.subscriptions.delete(id)
      return undefined
    }
    return sub
  }

  live(address?: string): Subscription[] {
    return [...this.subscriptions.keys()].map((id) => this.get(id)).filter((s): s is Subscription => !!s && (!address || s.address === address))
  }

  /**
   * The handshake (B3): POST `{url}?validationToken=…` with an empty text/plain body; the endpoint must
   * answer 200 text/plain with exactly the decoded token within 10 s. Returns the failure message, or null.
   */
  async validate(url: string, subscriptionIds: string[]): Promise<string | null> {
    // Real tokens are human-readable text with spaces and punctuation (B3, D5): treat as opaque.
    const token = `Validation: Testing client application reachability for subscription Request-Id: ${randomUUID()}`
    const target = new URL(url)
    target.searchParams.set('validationToken', token)
    const started = Date.now()
    const record = (status: number, outcome: PushRecord['outcome']) =>
      this.log({ kind: 'validation', path: target.pathname, subscriptionIds, attempt: 1, status, durationMs: Date.now() - started, outcome })
    let res: Response
    try {
      res = await fetch(target, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain; charset=utf-8' },
        body: '',
        signal: AbortSignal.timeout(this.options.validationTimeoutMs),
        redirect: 'manual',
      })
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
      record(0, timedOut ? 'timeout' : 'unreachable')
      return timedOut
        ? `${VALIDATION_FAILED} Validation request timed out after ${this.options.validationTimeoutMs} ms.`
        : `${VALIDATION_FAILED} The remote name could not be resolved or the connection was refused.`
    }
    let body: string
    try {
      body = await res.text()
    } catch {
      record(res.status, 'timeout')
      return `${VALIDATION_FAILED} Validation request timed out after ${this.options.validationTimeoutMs} ms.`
    }
    const type = (res.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase()
    if (res.status !== 200) {
      record(res.status, 'rejected')
      return `${VALIDATION_FAILED} Must respond with 200 OK to this request.`
    }
    if (type !== 'text/plain') {
      record(res.status, 'rejected')
      return `${VALIDATION_FAILED} Response must have Content-Type text/plain.`
    }
    if (body !== token) {
      record(res.status, 'rejected')
      return `${VALIDATION_FAILED} Response must exactly match validationToken query parameter.`
    }
    record(res.status, 'ok')
    return null
  }

  /** A message entered or left a folder: notify every live subscription that covers it. */
  changed(mailbox: Mailbox, message: StoredMessage, folderId: string, changeType: ChangeKind): void {
    const byUrl = new Map<string, PendingChange>()
    for (const sub of this.live(mailbox.address)) {
      if (!sub.changeTypes.includes(changeType)) continue
      if (sub.folderId !== null && sub.folderId !== folderId) continue
      const messageId = sub.immutableIds ? message.immutableId : message.restId
      const resource = `Users/${mailbox.userId}/Messages/${messageId}`
      const pending = byUrl.get(sub.notificationUrl) ?? { url: sub.notificationUrl, items: [], subscriptionIds: [], changeType, messageIds: [] }
      pending.items.push({
        subscriptionId: sub.id,
        subscriptionExpirationDateTime: new Date(sub.expiresAt).toISOString(),
        changeType,
        resource,
        resourceData: { '@odata.type': '#Microsoft.Graph.Message', '@odata.id': resource, '@odata.etag': `W/"${message.changeKey}"`, id: messageId },
        clientState: sub.clientState,
        tenantId: mailbox.tenantId,
      })
      pending.subscriptionIds.push(sub.id)
      pending.messageIds.push(messageId)
      byUrl.set(sub.notificationUrl, pending)
    }
    for (const pending of byUrl.values()) {
      if (this.faults.drop) {
        this.log({ kind: 'change', path: new URL(pending.url).pathname, subscriptionIds: pending.subscriptionIds, changeType, messageIds: pending.messageIds, attempt: 0, status: 0, durationMs: 0, outcome: 'dropped' })
        continue
      }
      if (this.faults.reorder) {
        this.held.push(pending)
        this.log({ kind: 'change', path: new URL(pending.url).pathname, subscriptionIds: pending.subscriptionIds, changeType, messageIds: pending.messageIds, attempt: 0, status: 0, durationMs: 0, outcome: 'held' })
        continue
      }
      this.send(pending)
      if (this.faults.duplicate) this.send(pending)
    }
  }

  /** Sends the notifications held by the reorder fault, newest first. */
  flush(): void {
    const held = this.held.reverse()
    this.held = []
    for (const pending of held) {
      this.send(pending)
      if (this.faults.duplicate) this.send(pending)
    }
  }

  async lifecycle(sub: Subscription, event: LifecycleEvent, tenantId: string): Promise<PushRecord> {
    if (!sub.lifecycleNotificationUrl) throw new Error(`Subscription ${sub.id} has no lifecycleNotificationUrl`)
    if (event === 'subscriptionRemoved') this.subscriptions.delete(sub.id)
    const body = {
      value: [
        {
          subscriptionId: sub.id,
          subscriptionExpirationDateTime: new Date(sub.expiresAt).toISOString(),
          tenantId,
          clientState: sub.clientState,
          lifecycleEvent: event,
        },
      ],
    }
    return this.track(this.post(sub.lifecycleNotificationUrl, body, { kind: 'lifecycle', subscriptionIds: [sub.id], lifecycleEvent: event }))
  }

  /** Resolves once every push under way has been answered (or given up). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight])
  }

  private send(pending: PendingChange): void {
    void this.track(
      (async () => {
        if (this.faults.delayMs) await sleep(this.faults.delayMs)
        return this.post(pending.url, { value: pending.items }, { kind: 'change', subscriptionIds: pending.subscriptionIds, changeType: pending.changeType, messageIds: pending.messageIds })
      })(),
    )
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.inFlight.add(promise)
    void promise.finally(() => this.inFlight.delete(promise)).catch(() => undefined)
    return promise
  }

  /**
   * One push with Graph's delivery rule (B3): a non-2xx answer or none within 3 s is retried, with a
   * growing delay (Graph keeps trying for up to 4 hours; the fake's retries are few and fast).
   */
  private async post(url: string, body: unknown, meta: Pick<PushRecord, 'kind' | 'subscriptionIds' | 'changeType' | 'lifecycleEvent' | 'messageIds'>): Promise<PushRecord> {
    const path = new URL(url).pathname
    let last: PushRecord | undefined
    for (let attempt = 1; attempt <= 1 + this.options.notificationRetries; attempt++) {
      if (attempt > 1) await sleep(this.options.notificationRetryDelayMs * 2 ** (attempt - 2))
      const started = Date.now()
      let status = 0
      let outcome: PushRecord['outcome']
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json; charset=utf-8' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(this.options.notificationTimeoutMs),
          redirect: 'manual',
        })
        status = res.status
        await res.arrayBuffer().catch(() => undefined)
        outcome = res.ok ? 'ok' : 'rejected'
      } catch (error) {
        outcome = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError') ? 'timeout' : 'unreachable'
      }
      last = this.log({ ...meta, path, attempt, status, durationMs: Date.now() - started, outcome })
      if (outcome === 'ok') break
    }
    return last as PushRecord
  }

  private log(record: Omit<PushRecord, 'at'>): PushRecord {
    const entry = { at: new Date(this.options.now()).toISOString(), ...record }
    this.pushes.push(entry)
    return entry
  }
}
