import type { GmailFake } from '#fakes/gmail/server.ts'
import type { GraphMailFake } from '#fakes/graph-mail/server.ts'
import type { StripeFake } from '#fakes/stripe/server.ts'

/**
 * The soak's fault schedule (docs/decisions/022): every few seconds one fault, picked at random with
 * the weights below, switched on in the fakes with the hooks they already offer (duplicated and
 * reordered notifications, 429 storms, 5xx, expired history ids and delta tokens, Graph lifecycle
 * events, duplicated Stripe webhooks); Gmail watch expiry comes from a short watch lifetime for a few
 * mailboxes (GmailFake.setWatchTtl). Every fault is logged with its time, so a figure can be traced to it.
 */

export interface FaultEvent {
  at: number
  kind: string
  detail: string
}

export interface FaultTargets {
  gmail: GmailFake
  graph: GraphMailFake
  stripe: StripeFake
  gmailAddresses: () => string[]
  outlookAddresses: () => string[]
}

type Fault = { kind: string; weight: number; run: () => string | Promise<string> }

export function faultSchedule(targets: FaultTargets, random: () => number) {
  const { gmail, graph, stripe } = targets
  const events: FaultEvent[] = []
  const timers = new Set<NodeJS.Timeout>()
  const pick = <T>(list: readonly T[]): T | undefined => (list.length ? list[Math.floor(random() * list.length)] : undefined)
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      run()
    }, ms)
    timers.add(timer)
  }
  let gmailHeld = false
  let graphHeld = false

  const faults: Fault[] = [
    { kind: 'gmail-push-duplicates', weight: 3, run: () => (gmail.push.duplicateNext(5), 'next 5 Pub/Sub notifications delivered twice') },
    {
      kind: 'gmail-push-reorder',
      weight: 2,
      run: () => {
        if (gmailHeld) return 'already holding'
        gmailHeld = true
        gmail.push.hold()
        const ms = 2000 + Math.floor(random() * 4000)
        later(ms, () => {
          gmailHeld = false
          gmail.push.release('reverse')
        })
        return `Pub/Sub notifications held ${ms} ms, then sent newest first`
      },
    },
    {
      kind: 'graph-notification-duplicates',
      weight: 3,
      run: () => {
        if (graphHeld) return 'already changing notifications'
        graphHeld = true
        graph.setNotificationFaults({ duplicate: true })
        later(15_000, () => {
          graphHeld = false
          graph.setNotificationFaults({})
        })
        return 'every change notification sent twice for 15 s'
      },
    },
    {
      kind: 'graph-notification-reorder',
      weight: 2,
      run: () => {
        if (graphHeld) return 'already changing notifications'
        graphHeld = true
        graph.setNotificationFaults({ reorder: true })
        const ms = 2000 + Math.floor(random() * 4000)
        later(ms, () => {
          graphHeld = false
          graph.setNotificationFaults({})
          graph.flushNotifications()
        })
        return `change notifications held ${ms} ms, then sent newest first`
      },
    },
    { kind: 'gmail-429-storm', weight: 2, run: () => (gmail.injectFault({ endpoint: '*', status: 429, times: 25 }), 'next 25 Gmail API calls answer 429') },
    { kind: 'graph-429-storm', weight: 2, run: () => (graph.injectFault({ endpoint: '*', status: 429, times: 25 }), 'next 25 Graph calls answer 429') },
    {
      kind: 'gmail-5xx',
      weight: 3,
      run: () => {
        const endpoint = pick(['messages.get', 'history.list', 'messages.modify', 'messages.list', 'labels.list'])!
        const status = pick([500, 502, 503])!
        gmail.injectFault({ endpoint, status, times: 3 })
        return `next 3 ${endpoint} answer ${status}`
      },
    },
    {
      kind: 'graph-5xx',
      weight: 3,
      run: () => {
        const endpoint = pick(['messages.get', 'messages.value', 'messages.delta', 'messages.move', 'messages.list'])!
        const status = pick([500, 503, 504])!
        graph.injectFault({ endpoint, status, times: 3 })
        return `next 3 ${endpoint} answer ${status}`
      },
    },
    {
      kind: 'gmail-history-expired',
      weight: 2,
      run: () => {
        const address = pick(targets.gmailAddresses())
        if (!address) return 'no Gmail mailbox'
        gmail.expireHistory(address)
        return `${address}: every history id handed out so far answers 404`
      },
    },
    {
      kind: 'graph-delta-expired',
      weight: 2,
      run: () => {
        const address = pick(targets.outlookAddresses())
        if (!address) return 'no Outlook mailbox'
        graph.expireDeltaTokens(address)
        return `${address}: delta tokens answer 410 SyncStateNotFound`
      },
    },
    {
      kind: 'graph-lifecycle',
      weight: 3,
      run: () => {
        const address = pick(targets.outlookAddresses())
        const sub = address ? pick(graph.subscriptions(address)) : undefined
        if (!sub) return `${address ?? 'no Outlook mailbox'}: no live subscription`
        const event = pick(['subscriptionRemoved', 'reauthorizationRequired', 'missed'] as const)!
        // Not awaited: Graph retries an unanswered notification for a while, and the schedule goes on.
        const at = Date.now()
        void graph.sendLifecycleNotification(sub.id, event).then(
          (push) => events.push({ at, kind: 'graph-lifecycle-answer', detail: `${address}: ${event} answered ${push.status} after ${push.attempt} attempt(s)` }),
          () => undefined,
        )
        return `${address}: ${event}`
      },
    },
    { kind: 'stripe-webhook-duplicates', weight: 1, run: () => (stripe.webhooks.duplicateNext(5), 'next 5 Stripe events delivered twice') },
  ]
  const total = faults.reduce((sum, f) => sum + f.weight, 0)

  async function fire(): Promise<FaultEvent> {
    let roll = random() * total
    const fault = faults.find((f) => (roll -= f.weight) < 0) ?? faults[0]!
    let detail: string
    try {
      detail = await fault.run()
    } catch (error) {
      detail = `could not inject: ${error instanceof Error ? error.message : String(error)}`
    }
    const event = { at: Date.now(), kind: fault.kind, detail }
    events.push(event)
    return event
  }

  /** Everything off: queued faults cleared, held notifications sent, notification faults reset. */
  function clear() {
    for (const timer of timers) clearTimeout(timer)
    timers.clear()
    gmail.clearFaults()
    graph.clearFaults()
    gmail.push.release('fifo')
    gmailHeld = false
    graph.setNotificationFaults({})
    graph.flushNotifications()
    graphHeld = false
  }

  return { fire, clear, events, record: (kind: string, detail: string) => events.push({ at: Date.now(), kind, detail }) }
}
