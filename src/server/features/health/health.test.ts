import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildRawMessage } from '#fakes/gmail/rfc822.ts'
import { decisions, jobRuns, mailboxes, providerHealth } from '#server/db/schema.ts'
import { JOB_NAMES } from '#server/jobs/boss.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { connectMailbox, createTestApp, signIn, type TestApp } from '#server/test/harness.ts'
import { FOLLOW_UP_AFTER_MS } from '#server/services.ts'

/**
 * Keeping the pipeline alive (issue 14): renewal with the fakes' clocks moved, lapsed push healed
 * with no mail lost, the sweep picking up a dropped notification, circuit breakers, the watchdog, and
 * the health read model the dashboard shows.
 */
const DAY = 24 * 3600_000
let serial = 0
const mail = (to: string) => buildRawMessage({ from: `friend${++serial}@example.net`, to, subject: `Hello ${serial}`, text: 'Are we still on for Saturday?' })

describe.each(testDatabaseKinds())('keeping push alive on %s', (kind) => {
  let ctx: TestApp
  const users = {
    gmail: { email: 'alive@example.com', sid: '', userId: 0, mailboxId: 0 },
    outlook: { email: 'alive@contoso.example', sid: '', userId: 0, mailboxId: 0 },
    other: { email: 'neighbour@example.com', sid: '', userId: 0, mailboxId: 0 },
  }
  /** Time as the fakes see it after their clocks moved. */
  const later = () => ctx.now()
  const advance = (ms: number) => ctx.advanceClock(ms)

  beforeAll(async () => {
    ctx = await createTestApp(kind, { mail: true, breaker: { threshold: 3, coolDownMs: 400 } })
    for (const [key, provider] of [
      ['gmail', 'gmail'],
      ['outlook', 'outlook'],
      ['other', 'gmail'],
    ] as const) {
      const user = users[key]
      const signedIn = await signIn(ctx, 'google', { email: `${key}-signin@example.com` })
      user.sid = signedIn.sid
      user.userId = signedIn.user.id
      await connectMailbox(ctx, user.sid, provider, user.email)
      user.mailboxId = (await ctx.db.select({ id: mailboxes.id }).from(mailboxes).where(eq(mailboxes.userId, user.userId)))[0]!.id
    }
  }, 60_000)
  afterAll(async () => {
    await ctx?.close()
  })

  const row = async (mailboxId: number) => (await ctx.db.select().from(mailboxes).where(eq(mailboxes.id, mailboxId)))[0]!
  const decidedIds = async (mailboxId: number) => (await ctx.db.select().from(decisions).where(eq(decisions.mailboxId, mailboxId))).map((d) => d.providerMessageId)
  const get = (url: string, sid: string) => ctx.app.inject({ method: 'GET', url, cookies: { sid } }).then((r) => r.json())
  /** No sync of this mailbox queued or running (so what happens next is the test's doing). */
  /** No sync queued or running, and none about to be: a sync's follow-up is enqueued FOLLOW_UP_AFTER_MS after it. */
  async function syncsIdle(mailboxId: number) {
    const until = Date.now() + 15_000
    const busy = async () => {
      const result = await ctx.db.execute(
        sql`select count(*)::int as n from pgboss.job where name = 'mailbox-sync' and singleton_key = ${String(mailboxId)} and state in ('created', 'retry', 'active')`,
      )
      return (result as unknown as { rows: Array<{ n: number }> }).rows[0]!.n > 0
    }
    for (;;) {
      if (!(await busy())) {
        await new Promise((resolve) => setTimeout(resolve, FOLLOW_UP_AFTER_MS + 500))
        if (!(await busy())) return
      }
      if (Date.now() > until) throw new Error('syncs did not settle')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  async function waitUntilDecided(mailboxId: number, ids: string[], timeoutMs = 15_000) {
    const until = Date.now() + timeoutMs
    for (;;) {
      const decided = new Set(await decidedIds(mailboxId))
      if (ids.every((id) => decided.has(id))) return
      if (Date.now() > until) throw new Error(`not decided in time: ${ids.filter((id) => !decided.has(id)).join(', ')}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  it('answers healthy with active push right after connecting', async () => {
    await ctx.services.pipeline.run(users.gmail.mailboxId, 'poll')
    const heartbeat = await get('/_api/heartbeat/status', users.gmail.sid)
    expect(heartbeat).toMatchObject({ heartbeatStatus: 'healthy', message: 'Filtering is running: new mail is checked as it arrives.' })
    const webhooks = await get('/_api/webhooks/status', users.gmail.sid)
    expect(webhooks.gmail).toMatchObject({ healthStatus: 'active', expiration: expect.any(String) })
    expect(webhooks.outlook).toBeNull()
    expect((await get('/_api/webhooks/status', users.outlook.sid)).outlook).toMatchObject({ healthStatus: 'active' })
  })

  it('renews a Gmail watch daily and a Graph subscription when less than 24 h remain (fakes\' clocks moved)', async () => {
    const gmailBefore = await row(users.gmail.mailboxId)
    const outlookBefore = await row(users.outlook.mailboxId)
    advance(2.5 * DAY)
    expect((await get('/_api/webhooks/status', users.outlook.sid)).outlook.healthStatus).toBe('active')
    // Under a day left for Graph (4,230-minute lifetime); over a day since Gmail's last renewal.
    const result = await ctx.services.health.renewDuePush(later())
    expect(result).toMatchObject({ failed: 0 })
    expect(result.renewed).toBeGreaterThanOrEqual(2)
    const gmailAfter = await row(users.gmail.mailboxId)
    const outlookAfter = await row(users.outlook.mailboxId)
    expect(gmailAfter.pushExpiresAt!.getTime()).toBeGreaterThan(gmailBefore.pushExpiresAt!.getTime() + 2 * DAY)
    expect(outlookAfter.pushExpiresAt!.getTime()).toBeGreaterThan(outlookBefore.pushExpiresAt!.getTime() + 2 * DAY)
    // The same Graph subscription, renewed in place.
    expect(outlookAfter.pushSubscriptionId).toBe(outlookBefore.pushSubscriptionId)
    expect(ctx.graph!.subscriptions(users.outlook.email)).toHaveLength(1)
    expect(ctx.gmail!.mailbox(users.gmail.email).watch?.expiration).toBe(String(gmailAfter.pushExpiresAt!.getTime()))
  })

  it('a lapsed Graph subscription is recreated and the mail that arrived meanwhile is caught up', async () => {
    advance(3.5 * DAY)
    expect(ctx.graph!.subscriptions(users.outlook.email)).toHaveLength(0)
    expect((await ctx.services.health.webhookStatus(users.outlook.userId, later())).outlook?.healthStatus).toBe('expired')
    const { id } = await ctx.graph!.deliver(users.outlook.email, mail(users.outlook.email))
    const result = await ctx.services.health.renewDuePush(later())
    expect(result.recreatedAfterLapse).toBeGreaterThanOrEqual(1)
    const after = await row(users.outlook.mailboxId)
    expect(ctx.graph!.subscriptions(users.outlook.email)).toEqual([expect.objectContaining({ id: after.pushSubscriptionId })])
    await waitUntilDecided(users.outlook.mailboxId, [id])
    // Notifications of the new subscription carry its new clientState, which the app accepts.
    const next = await ctx.graph!.deliver(users.outlook.email, mail(users.outlook.email))
    await ctx.graph!.notificationsSettled()
    await waitUntilDecided(users.outlook.mailboxId, [next.id])
  })

  it('a lapsed Gmail watch is renewed and the mail that arrived meanwhile is caught up', async () => {
    advance(8 * DAY)
    const { id } = ctx.gmail!.deliver(users.gmail.email, mail(users.gmail.email))
    await ctx.gmail!.push.idle()
    expect(ctx.gmail!.push.log.some((entry) => entry.address === users.gmail.email && entry.historyId === ctx.gmail!.mailbox(users.gmail.email).historyId)).toBe(false)
    const result = await ctx.services.health.renewDuePush(later())
    expect(result.recreatedAfterLapse).toBeGreaterThanOrEqual(1)
    await waitUntilDecided(users.gmail.mailboxId, [id])
  })

  it('a dropped notification is picked up by the sweep', async () => {
    await syncsIdle(users.gmail.mailboxId)
    ctx.gmail!.push.dropNext(5)
    const { id } = ctx.gmail!.deliver(users.gmail.email, mail(users.gmail.email))
    await ctx.gmail!.push.idle()
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await decidedIds(users.gmail.mailboxId)).not.toContain(id)
    const swept = await ctx.services.health.sweep(new Date(later().getTime() + 16 * 60_000))
    expect(swept.queued).toBeGreaterThanOrEqual(1)
    await waitUntilDecided(users.gmail.mailboxId, [id])
  })

  it('a 5xx storm opens the provider\'s breaker: syncs wait, the probe closes it, every message is then decided once', async () => {
    const ids = [ctx.gmail!.deliver(users.gmail.email, mail(users.gmail.email)).id, ctx.gmail!.deliver(users.gmail.email, mail(users.gmail.email)).id]
    ctx.gmail!.injectFault({ endpoint: '*', status: 503, headers: { 'Retry-After': '0' }, times: 10_000 })
    const outcomes: string[] = []
    for (let i = 0; i < 6; i++) {
      const outcome = await ctx.services.pipeline.run(users.gmail.mailboxId, 'poll').catch(() => ({ kind: 'failed' as const }))
      outcomes.push(outcome.kind)
    }
    // Three failures open it; from then on syncs are deferred, not failed.
    expect(outcomes.slice(2)).toEqual(['deferred', 'deferred', 'deferred', 'deferred'])
    const [breaker] = await ctx.db.select().from(providerHealth).where(eq(providerHealth.serviceName, 'gmail'))
    expect(breaker).toMatchObject({ isHealthy: false })
    expect(breaker!.circuitOpenUntil!.getTime()).toBeGreaterThan(Date.now())
    expect((await get('/_api/heartbeat/status', users.other.sid)).heartbeatStatus).toBe('circuit_breaker_open')
    // Outlook is not affected.
    expect((await ctx.services.breakers.state('outlook')).open).toBe(false)
    ctx.gmail!.clearFaults()
    await new Promise((resolve) => setTimeout(resolve, 450))
    const probe = await ctx.services.pipeline.run(users.gmail.mailboxId, 'poll')
    expect(probe.kind).toBe('done')
    expect((await ctx.services.breakers.state('gmail')).open).toBe(false)
    await waitUntilDecided(users.gmail.mailboxId, ids)
    const rows = await ctx.db.select().from(decisions).where(eq(decisions.mailboxId, users.gmail.mailboxId))
    for (const id of ids) expect(rows.filter((r) => r.providerMessageId === id)).toHaveLength(1)
  })

  it('one mailbox\'s 429 backs off that mailbox alone; one user\'s revoked grant trips nothing for anyone else', async () => {
    // Without a push, so no job syncs this mailbox beside this call and takes the injected answers.
    ctx.gmail!.setPushEndpoint(undefined)
    ctx.gmail!.deliver(users.other.email, mail(users.other.email))
    ctx.gmail!.injectFault({ endpoint: 'history.list', status: 429, headers: { 'Retry-After': '0' }, times: 5 })
    const throttled = await ctx.services.pipeline.run(users.other.mailboxId, 'poll')
    ctx.gmail!.setPushEndpoint(`${ctx.config.appUrl}/_api/webhooks/gmail`)
    expect(throttled).toMatchObject({ kind: 'deferred', why: 'mailbox_backoff' })
    expect((await ctx.services.breakers.state('gmail')).open).toBe(false)
    const { id } = ctx.gmail!.deliver(users.gmail.email, mail(users.gmail.email))
    expect((await ctx.services.pipeline.run(users.gmail.mailboxId, 'poll')).kind).toBe('done')
    await waitUntilDecided(users.gmail.mailboxId, [id])

    ctx.fakes.revokeRefreshTokens('google', users.other.email)
    await ctx.db.update(mailboxes).set({ syncBackoffUntil: null }).where(eq(mailboxes.id, users.other.mailboxId))
    advance(2 * 3600_000)
    expect((await ctx.services.pipeline.run(users.other.mailboxId, 'poll')).kind).toBe('done')
    expect((await row(users.other.mailboxId)).status).toBe('revoked')
    expect((await get('/_api/heartbeat/status', users.other.sid)).heartbeatStatus).toBe('token_validation_failed')
    const [breaker] = await ctx.db.select().from(providerHealth).where(eq(providerHealth.serviceName, 'gmail'))
    expect(breaker).toMatchObject({ isHealthy: true, failureCount: 0 })
    const next = ctx.gmail!.deliver(users.gmail.email, mail(users.gmail.email))
    expect((await ctx.services.pipeline.run(users.gmail.mailboxId, 'poll')).kind).toBe('done')
    await waitUntilDecided(users.gmail.mailboxId, [next.id])
  })

  it('the watchdog re-establishes lapsed push and catches up; where push is refused it falls back to polling', async () => {
    advance(4 * DAY)
    // Graph now refuses new subscriptions; Gmail's watch just lapsed.
    ctx.graph!.injectFault({ endpoint: 'subscriptions.update', status: 404, times: 10 })
    ctx.graph!.injectFault({ endpoint: 'subscriptions.create', status: 400, body: { error: { code: 'InvalidRequest', message: 'Subscription validation request failed.' } }, times: 10 })
    const stats = await ctx.services.health.watchdog(later())
    ctx.graph!.clearFaults()
    expect(stats.staleUsersFound).toBeGreaterThanOrEqual(2)
    expect(stats.details).toContainEqual({ provider: 'gmail', mailboxId: users.gmail.mailboxId, outcome: 'healthy' })
    expect(stats.details).toContainEqual({ provider: 'outlook', mailboxId: users.outlook.mailboxId, outcome: 'polling_fallback_triggered' })
    expect(stats.reconnectionsSucceeded).toBeGreaterThanOrEqual(1)
    expect(stats.fallbacksTriggered).toBeGreaterThanOrEqual(1)
    expect((await get('/_api/heartbeat/status', users.outlook.sid)).heartbeatStatus).toBe('polling_fallback_triggered')
    expect((await get('/_api/webhooks/status', users.outlook.sid)).outlook.healthStatus).toBe('error')

    // Repair: POST /_api/webhooks/setup re-establishes it; 'Not attempted.' for the other provider.
    const repair = await ctx.app.inject({ method: 'POST', url: '/_api/webhooks/setup', headers: { 'x-requested-with': 'XMLHttpRequest' }, cookies: { sid: users.outlook.sid }, payload: { provider: 'all' } })
    expect(repair.statusCode).toBe(200)
    expect(repair.json()).toMatchObject({ outlook: { success: true }, gmail: { success: false, message: 'Not attempted.' } })
    expect((await get('/_api/webhooks/status', users.outlook.sid)).outlook.healthStatus).toBe('active')
    expect((await get('/_api/heartbeat/status', users.outlook.sid)).heartbeatStatus).toBe('healthy')
  })

  it('a subscriptionRemoved lifecycle notification makes the app create a new subscription at once', async () => {
    const before = await row(users.outlook.mailboxId)
    await ctx.graph!.sendLifecycleNotification(before.pushSubscriptionId!, 'subscriptionRemoved')
    const until = Date.now() + 10_000
    for (;;) {
      const after = await row(users.outlook.mailboxId)
      if (after.pushSubscriptionId && after.pushSubscriptionId !== before.pushSubscriptionId) {
        expect(ctx.graph!.subscriptions(users.outlook.email)).toEqual([expect.objectContaining({ id: after.pushSubscriptionId })])
        break
      }
      if (Date.now() > until) throw new Error('no new subscription')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })

  it('POST /_api/webhooks/setup is a browser call: the CSRF check applies, and bad input is a 400', async () => {
    const forged = await ctx.app.inject({ method: 'POST', url: '/_api/webhooks/setup', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, cookies: { sid: users.gmail.sid }, payload: { provider: 'gmail' } })
    expect(forged.statusCode).toBe(403)
    const bad = await ctx.app.inject({ method: 'POST', url: '/_api/webhooks/setup', headers: { 'x-requested-with': 'XMLHttpRequest' }, cookies: { sid: users.gmail.sid }, payload: { provider: 'yahoo' } })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error).toBe('provider must be gmail, outlook or all')
  })

  it('reads expiring_soon when under a day remains, and unknown_provider without a mailbox', async () => {
    await ctx.db.update(mailboxes).set({ pushExpiresAt: new Date(Date.now() + 3600_000), pushError: null }).where(eq(mailboxes.id, users.gmail.mailboxId))
    expect((await get('/_api/webhooks/status', users.gmail.sid)).gmail.healthStatus).toBe('expiring_soon')
    const loner = await signIn(ctx, 'google', { email: 'no-mailbox@example.com' })
    expect(await get('/_api/heartbeat/status', loner.sid)).toMatchObject({ heartbeatStatus: 'unknown_provider', lastEmailProcessedAt: null })
    expect(await get('/_api/webhooks/status', loner.sid)).toEqual({ gmail: null, outlook: null })
  })

  it('every scheduled job run lands in job_runs', async () => {
    const boss = await ctx.boss()
    for (const name of [JOB_NAMES.pushRenewal, JOB_NAMES.mailboxSweep, JOB_NAMES.heartbeatWatchdog]) await boss.send(name, {})
    const until = Date.now() + 15_000
    for (;;) {
      const names = new Set((await ctx.db.select().from(jobRuns)).map((r) => r.jobName))
      if ([JOB_NAMES.pushRenewal, JOB_NAMES.mailboxSweep, JOB_NAMES.heartbeatWatchdog].every((n) => names.has(n))) break
      if (Date.now() > until) throw new Error(`job runs missing: ${[...names].join(', ')}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const [watchdogRun] = await ctx.db.select().from(jobRuns).where(eq(jobRuns.jobName, JOB_NAMES.heartbeatWatchdog))
    expect(watchdogRun?.result).toMatchObject({ staleUsersFound: expect.any(Number), reconnectionsAttempted: expect.any(Number), details: expect.any(Array) })
  })
})
