import { randomUUID } from 'node:crypto'
import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gmailErrorBody } from '#fakes/gmail/errors.ts'
import { loadConfig } from '#server/config.ts'
import { auditEvents, jobRuns, mailboxes, oauthStates, providerHealth, pushReceipts, sessions, stripeEvents, tempTokens } from '#server/db/schema.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { connectMailbox, createTestApp, signIn, type TestApp } from '#server/test/harness.ts'

/**
 * The admin panel's maintenance controls (issue 18; SPEC 3 "Watchdog stats", "Cleanup stats",
 * "Webhook migration result"; SPEC 7 "Admin"), against a seeded database: every count is the number
 * of rows that really changed, and every control leaves an audit row naming who ran it.
 */

const DAY = 24 * 3600_000
const ADMIN_UA = 'admin-console/1.0'
const ago = (ms: number) => new Date(Date.now() - ms)
const ahead = (ms: number) => new Date(Date.now() + ms)

type Rows<T> = { rows: T[] }

describe.each(testDatabaseKinds())('admin controls on %s', (kind) => {
  let ctx: TestApp
  let adminSid: string
  let adminId: number
  let userSid: string
  let userId: number

  beforeAll(async () => {
    // workers: false: the queue only takes jobs, so no scheduled cleanup runs beside the tests.
    ctx = await createTestApp(kind, { env: { ADMIN_EMAILS: 'admin@example.com' }, mail: true, workers: false })
    const admin = await signIn(ctx, 'google', { email: 'admin@example.com' })
    expect(admin.user.role).toBe('admin')
    ;({ sid: adminSid } = admin)
    adminId = admin.user.id
    const user = await signIn(ctx, 'google', { email: 'plain.user@example.com' })
    ;({ sid: userSid } = user)
    userId = user.user.id
  }, 60_000)
  afterAll(async () => {
    await ctx?.close()
  })

  const post = (url: string, sid: string | undefined, payload: object = {}) =>
    ctx.app.inject({ method: 'POST', url, headers: { 'x-requested-with': 'XMLHttpRequest', 'user-agent': ADMIN_UA }, cookies: sid ? { sid } : {}, payload })
  /** Audit rows are append-only: a test reads the rows written after its mark. */
  const auditMark = async () => (await ctx.db.select({ id: auditEvents.id }).from(auditEvents).orderBy(desc(auditEvents.id)).limit(1))[0]?.id ?? 0
  const auditsAfter = (mark: number, action: string) =>
    ctx.db.select().from(auditEvents).where(and(gt(auditEvents.id, mark), eq(auditEvents.action, action))).orderBy(auditEvents.id)
  const pgbossJobTable = async () => ((await ctx.db.execute(sql`select to_regclass('pgboss.job') is not null as present`)) as unknown as Rows<{ present: boolean }>).rows[0]!.present

  function expectAudited(row: typeof auditEvents.$inferSelect | undefined, metadata: Record<string, unknown>) {
    expect(row).toMatchObject({
      eventType: 'SETTINGS_CHANGED',
      eventCategory: 'SYSTEM',
      severity: 'INFO',
      success: true,
      userId: adminId,
      ipAddress: '127.0.0.1',
      userAgent: ADMIN_UA,
      sessionId: expect.any(String),
      metadata,
    })
  }

  async function seedSession(values: Partial<typeof sessions.$inferInsert>) {
    const id = randomUUID()
    await ctx.db.insert(sessions).values({
      id,
      tokenHash: randomUUID(),
      userId,
      deviceType: 'desktop',
      browser: 'Chrome',
      os: 'Windows',
      ipAddress: null,
      location: 'Unknown',
      expiresAt: ahead(DAY),
      ...values,
    })
    return id
  }

  const sessionRows = (ids: string[]) => ctx.db.select({ id: sessions.id, location: sessions.location }).from(sessions).where(inArray(sessions.id, ids))

  /** Signs in and connects a mailbox; returns the user and mailbox ids. */
  async function mailboxUser(email: string, provider: 'gmail' | 'outlook') {
    const { sid, user } = await signIn(ctx, 'google', { email })
    await connectMailbox(ctx, sid, provider, email)
    const [row] = await ctx.db.select({ id: mailboxes.id }).from(mailboxes).where(eq(mailboxes.userId, user.id as number))
    return { userId: user.id as number, mailboxId: row!.id }
  }

  it('POST /_api/admin/trigger-cleanup before the job queue ever started: no pg-boss table, 0 queue entries, no error', async () => {
    expect(await pgbossJobTable()).toBe(false)
    const res = await post('/_api/admin/trigger-cleanup', adminSid)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ success: true, supportRecordsDeleted: 0, queueEntriesDeleted: 0 })
  })

  it('POST /_api/admin/trigger-cleanup deletes exactly the expired support records and the finished jobs older than 7 days', async () => {
    const mark = await auditMark()
    const state = (name: string, expiresAt: Date) => ({ state: name, provider: 'google' as const, codeVerifier: 'v', nonce: 'n', browserBindingHash: 'h', expiresAt })
    await ctx.db.insert(oauthStates).values([state('st-expired-1', ago(60_000)), state('st-expired-2', ago(DAY)), state('st-fresh', ahead(600_000))])
    await ctx.db.insert(tempTokens).values([
      { hash: 'tt-expired', userId: adminId, provider: 'google', expiresAt: ago(1000) },
      { hash: 'tt-fresh', userId: adminId, provider: 'google', expiresAt: ahead(60_000) },
    ])
    const receipt = (key: string, receivedAt: Date) => ({ source: 'gmail' as const, dedupeKey: key, receivedAt })
    await ctx.db.insert(pushReceipts).values([receipt('pr-old-1', ago(8 * DAY)), receipt('pr-old-2', ago(9 * DAY)), receipt('pr-old-3', ago(30 * DAY)), receipt('pr-6d', ago(6 * DAY))])
    await ctx.db.insert(stripeEvents).values([
      { id: 'evt_old_1', type: 'invoice.paid', receivedAt: ago(40 * DAY) },
      { id: 'evt_old_2', type: 'invoice.paid', receivedAt: ago(31 * DAY) },
      { id: 'evt_recent', type: 'invoice.paid', receivedAt: ago(10 * DAY) },
    ])

    const boss = await ctx.boss()
    await boss.createQueue('controls-test')
    const ids: string[] = []
    for (let i = 0; i < 7; i++) ids.push((await boss.send('controls-test', { n: i }))!)
    const setJob = (id: string, assignment: ReturnType<typeof sql>) => ctx.db.execute(sql`update pgboss.job set ${assignment} where id = ${id}::uuid`)
    await setJob(ids[0]!, sql`state = 'completed', completed_on = now() - interval '10 days'`)
    await setJob(ids[1]!, sql`state = 'completed', completed_on = now() - interval '8 days'`)
    await setJob(ids[2]!, sql`state = 'failed', completed_on = now() - interval '10 days'`)
    await setJob(ids[3]!, sql`state = 'cancelled', completed_on = now() - interval '20 days'`)
    await setJob(ids[4]!, sql`state = 'completed', completed_on = now() - interval '2 days'`)
    await setJob(ids[5]!, sql`created_on = now() - interval '30 days'`)
    await setJob(ids[6]!, sql`state = 'active', started_on = now() - interval '10 days'`)

    const res = await post('/_api/admin/trigger-cleanup', adminSid)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ success: true, supportRecordsDeleted: 8, queueEntriesDeleted: 4 })

    expect((await ctx.db.select({ state: oauthStates.state }).from(oauthStates)).map((r) => r.state)).toEqual(['st-fresh'])
    expect((await ctx.db.select({ hash: tempTokens.hash }).from(tempTokens).where(inArray(tempTokens.hash, ['tt-expired', 'tt-fresh']))).map((r) => r.hash)).toEqual(['tt-fresh'])
    expect((await ctx.db.select({ key: pushReceipts.dedupeKey }).from(pushReceipts).where(eq(pushReceipts.source, 'gmail'))).map((r) => r.key)).toEqual(['pr-6d'])
    expect((await ctx.db.select({ id: stripeEvents.id }).from(stripeEvents)).map((r) => r.id)).toEqual(['evt_recent'])
    const left = (await ctx.db.execute(sql`select id::text as id from pgboss.job where name = 'controls-test'`)) as unknown as Rows<{ id: string }>
    expect(left.rows.map((r) => r.id).sort()).toEqual([ids[4], ids[5], ids[6]].sort())

    const [audit] = await auditsAfter(mark, 'ADMIN_CLEANUP_TRIGGERED')
    expectAudited(audit, { supportRecordsDeleted: 8, queueEntriesDeleted: 4, oauthStates: 2, tempTokens: 1, pushReceipts: 3, stripeEvents: 2 })

    // A second run finds nothing more.
    expect((await post('/_api/admin/trigger-cleanup', adminSid)).json()).toEqual({ success: true, supportRecordsDeleted: 0, queueEntriesDeleted: 0 })
  })

  it('POST /_api/admin/sessions/cleanup {action: "backfill"} fills the locations it can place from the stored IP address', async () => {
    const mark = await auditMark()
    // Addresses the geo-IP data places (src/server/lib/network.test.ts); private ones stay Unknown.
    const ids = {
      placeable: await seedSession({ ipAddress: '8.8.8.8', location: 'Unknown' }),
      emptyLocation: await seedSession({ ipAddress: '81.2.69.142', location: '' }),
      noIp: await seedSession({ ipAddress: null, location: 'Unknown' }),
      privateIp: await seedSession({ ipAddress: '10.1.2.3', location: 'Unknown' }),
      known: await seedSession({ ipAddress: '8.8.8.8', location: 'Berlin, DE' }),
      expired: await seedSession({ ipAddress: '8.8.8.8', location: 'Unknown', expiresAt: ago(1000) }),
    }
    const res = await post('/_api/admin/sessions/cleanup', adminSid, { action: 'backfill' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ success: true, message: 'Backfilled 3 sessions.', backfilled: 3 })
    const byId = new Map((await sessionRows(Object.values(ids))).map((r) => [r.id, r.location]))
    expect(Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, byId.get(id)]))).toEqual({
      placeable: 'US',
      emptyLocation: expect.stringMatching(/, GB$/),
      noIp: 'Unknown',
      privateIp: 'Unknown',
      known: 'Berlin, DE',
      // backfill alone deletes nothing
      expired: 'US',
    })
    const [audit] = await auditsAfter(mark, 'ADMIN_SESSION_MAINTENANCE')
    expectAudited(audit, { maintenance: 'backfill', backfilled: 3 })
    await ctx.db.delete(sessions).where(inArray(sessions.id, Object.values(ids)))
  })

  it('POST /_api/admin/sessions/cleanup {action: "cleanup"} deletes expired sessions and those older than 90 days, as the hourly job does, and records the run', async () => {
    const mark = await auditMark()
    const live = await seedSession({})
    const gone = [await seedSession({ expiresAt: ago(1000) }), await seedSession({ expiresAt: ago(DAY) }), await seedSession({ createdAt: ago(91 * DAY) })]
    const res = await post('/_api/admin/sessions/cleanup', adminSid, { action: 'cleanup' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ success: true, message: 'Deleted 3 expired sessions.', deleted: 3 })
    expect((await sessionRows([live, ...gone])).map((r) => r.id)).toEqual([live])
    const runs = await ctx.db.select().from(jobRuns).where(eq(jobRuns.jobName, 'session-cleanup'))
    expect(runs).toEqual([expect.objectContaining({ status: 'success', result: { sessionsDeleted: 3, tempTokensDeleted: 0, oauthStatesDeleted: 0 } })])
    expect(await auditsAfter(mark, 'ADMIN_SESSION_MAINTENANCE')).toHaveLength(1)
    const [audit] = await auditsAfter(mark, 'ADMIN_SESSION_MAINTENANCE')
    expectAudited(audit, { maintenance: 'cleanup', deleted: 3 })
    // The caller's own session is untouched.
    expect((await ctx.app.inject({ method: 'GET', url: '/_api/auth/session', cookies: { sid: adminSid } })).json().user).not.toBeNull()
    await ctx.db.delete(sessions).where(eq(sessions.id, live))
  })

  it('POST /_api/admin/sessions/cleanup {action: "both"} cleans first, so an expired session is deleted rather than backfilled', async () => {
    const expired = await seedSession({ ipAddress: '8.8.8.8', location: 'Unknown', expiresAt: ago(1000) })
    const live = await seedSession({ ipAddress: '81.2.69.142', location: 'Unknown' })
    const res = await post('/_api/admin/sessions/cleanup', adminSid, { action: 'both' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ success: true, message: 'Backfilled 1 session. Deleted 1 expired session.', backfilled: 1, deleted: 1 })
    expect(await sessionRows([expired, live])).toEqual([{ id: live, location: expect.stringMatching(/, GB$/) }])
    await ctx.db.delete(sessions).where(eq(sessions.id, live))
  })

  it('POST /_api/admin/sessions/cleanup refuses an unknown action with 400 and the SPEC 5 values', async () => {
    const res = await post('/_api/admin/sessions/cleanup', adminSid, { action: 'everything' })
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toContain('action must be backfill, cleanup or both')
  })

  it('POST /_api/admin/trigger-watchdog runs the heartbeat watchdog on the stale mailboxes, answers its stats and records the run', async () => {
    const a = await mailboxUser('stale.one@example.com', 'gmail')
    const b = await mailboxUser('stale.two@example.com', 'gmail')
    const fresh = await mailboxUser('fresh.outlook@example.com', 'outlook')
    await ctx.db.update(mailboxes).set({ lastSyncAt: new Date(), pushExpiresAt: ahead(3 * DAY), pushError: null })
    // Stale: no sync for 2 hours and the watch lapsed an hour ago.
    await ctx.db.update(mailboxes).set({ lastSyncAt: ago(2 * 3600_000), pushExpiresAt: ago(3600_000) }).where(inArray(mailboxes.id, [a.mailboxId, b.mailboxId]))
    // One of the two re-watches is refused: that one falls back to polling.
    ctx.gmail!.injectFault({ endpoint: 'watch', status: 400, times: 1 })
    const mark = await auditMark()

    const res = await post('/_api/admin/trigger-watchdog', adminSid)
    expect(res.statusCode).toBe(200)
    const { success, stats } = res.json()
    expect(success).toBe(true)
    expect(stats).toMatchObject({ staleUsersFound: 2, reconnectionsAttempted: 2, reconnectionsSucceeded: 1, reconnectionsFailed: 1, fallbacksTriggered: 1, systemicIssuesDetected: 0 })
    expect(stats.details).toHaveLength(2)
    expect(stats.details.every((d: { provider: string }) => d.provider === 'gmail')).toBe(true)
    expect(stats.details.map((d: { mailboxId: number }) => d.mailboxId).sort()).toEqual([a.mailboxId, b.mailboxId].sort())
    expect(stats.details.map((d: { outcome: string }) => d.outcome).sort()).toEqual(['healthy', 'polling_fallback_triggered'])

    const heartbeats = await ctx.db.select({ id: mailboxes.id, status: mailboxes.heartbeatStatus }).from(mailboxes).where(inArray(mailboxes.id, [a.mailboxId, b.mailboxId, fresh.mailboxId]))
    expect(heartbeats.find((h) => h.id === fresh.mailboxId)?.status ?? null).toBeNull()
    expect(heartbeats.filter((h) => h.id !== fresh.mailboxId).map((h) => h.status).sort()).toEqual(['healthy', 'polling_fallback_triggered'])

    const runs = await ctx.db.select().from(jobRuns).where(eq(jobRuns.jobName, 'heartbeat-watchdog'))
    expect(runs).toEqual([expect.objectContaining({ status: 'success', result: expect.objectContaining({ staleUsersFound: 2, reconnectionsSucceeded: 1 }) })])
    const [audit] = await auditsAfter(mark, 'ADMIN_WATCHDOG_TRIGGERED')
    expectAudited(audit, { staleUsersFound: 2, reconnectionsAttempted: 2, reconnectionsSucceeded: 1, reconnectionsFailed: 1, fallbacksTriggered: 1, systemicIssuesDetected: 0, mailboxesChecked: 2 })
  }, 30_000)

  it('POST /_api/admin/migrate-webhooks re-watches every connected Gmail mailbox on the configured topic; a refused one is an error naming the user id', async () => {
    const gmailRows = await ctx.db.select({ id: mailboxes.id, userId: mailboxes.userId, address: mailboxes.emailAddress }).from(mailboxes).where(eq(mailboxes.provider, 'gmail'))
    expect(gmailRows).toHaveLength(2)
    const [first, second] = gmailRows.sort((x, y) => x.userId - y.userId)
    await ctx.db.update(mailboxes).set({ pushRenewedAt: ago(DAY), pushError: null })
    ctx.gmail!.clearJournal()
    ctx.graph!.clearJournal()
    // What Gmail answers when its push account may not publish to the topic (providers.md A3).
    ctx.gmail!.injectFault({
      endpoint: 'watch',
      status: 403,
      body: gmailErrorBody(403, 'forbidden', 'Error sending test message to Cloud PubSub: User not authorized to perform this action.'),
      times: 1,
    })

    const mark = await auditMark()
    const res = await post('/_api/admin/migrate-webhooks', adminSid)
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body).toMatchObject({ successfulMigrations: 1, totalUsers: 2 })
    expect(body.errors).toEqual([`User ${first!.userId}: Gmail refused push notifications (forbidden); new mail is checked every few minutes instead.`])
    expect(JSON.stringify(body)).not.toContain(first!.address)

    const watches = ctx.gmail!.journal.filter((e) => e.endpoint === 'watch')
    expect(watches.map((e) => e.status)).toEqual([403, 200])
    expect(ctx.gmail!.mailbox(second!.address).watch?.topicName).toBe(ctx.config.gmail.pubsubTopic)
    // Outlook subscriptions are not part of it.
    expect(ctx.graph!.journal.filter((e) => e.endpoint.startsWith('subscriptions'))).toEqual([])
    const after = await ctx.db.select({ id: mailboxes.id, renewedAt: mailboxes.pushRenewedAt, pushError: mailboxes.pushError }).from(mailboxes).where(eq(mailboxes.provider, 'gmail'))
    expect(after.find((r) => r.id === second!.id)!.renewedAt!.getTime()).toBeGreaterThan(Date.now() - 60_000)
    expect(after.find((r) => r.id === first!.id)!.pushError).toContain('refused push notifications')

    const [audit] = await auditsAfter(mark, 'ADMIN_WEBHOOKS_MIGRATED')
    expectAudited(audit, { successfulMigrations: 1, totalUsers: 2, failed: 1, errors: body.errors })
  }, 30_000)

  it('a user without the admin role gets 403 from every control and nothing changes; signed out gets 401', async () => {
    await ctx.db.insert(oauthStates).values({ state: 'st-user-test', provider: 'google', codeVerifier: 'v', nonce: 'n', browserBindingHash: 'h', expiresAt: ago(60_000) })
    const expiredSession = await seedSession({ ipAddress: '8.8.8.8', location: 'Unknown', expiresAt: ago(1000) })
    await ctx.db.update(mailboxes).set({ lastSyncAt: ago(2 * 3600_000), pushExpiresAt: ago(3600_000), heartbeatStatus: null })
    const auditsBefore = (await ctx.db.select({ id: auditEvents.id }).from(auditEvents)).length
    const runsBefore = (await ctx.db.select({ id: jobRuns.id }).from(jobRuns)).length
    ctx.gmail!.clearJournal()

    const calls: Array<[string, object]> = [
      ['/_api/admin/trigger-watchdog', {}],
      ['/_api/admin/trigger-cleanup', {}],
      ['/_api/admin/sessions/cleanup', { action: 'both' }],
      ['/_api/admin/migrate-webhooks', {}],
    ]
    for (const [url, payload] of calls) {
      const asUser = await post(url, userSid, payload)
      expect(asUser.statusCode, url).toBe(403)
      expect(asUser.json()).toEqual({ error: 'Admin access required', code: 'forbidden' })
      const signedOut = await post(url, undefined, payload)
      expect(signedOut.statusCode, url).toBe(401)
    }

    expect(await ctx.db.select({ state: oauthStates.state }).from(oauthStates).where(eq(oauthStates.state, 'st-user-test'))).toHaveLength(1)
    expect(await sessionRows([expiredSession])).toEqual([{ id: expiredSession, location: 'Unknown' }])
    expect((await ctx.db.select({ status: mailboxes.heartbeatStatus }).from(mailboxes)).every((r) => r.status === null)).toBe(true)
    expect(ctx.gmail!.journal).toEqual([])
    expect((await ctx.db.select({ id: auditEvents.id }).from(auditEvents)).length).toBe(auditsBefore)
    expect((await ctx.db.select({ id: jobRuns.id }).from(jobRuns)).length).toBe(runsBefore)
  })

  it('POST /_api/demo/provider-fault does not exist outside demo mode', async () => {
    const res = await post('/_api/demo/provider-fault', adminSid, { provider: 'gmail', status: 500, times: 5 })
    expect(res.statusCode).toBe(404)
  })
})

describe.each(testDatabaseKinds())('demo fault switch on %s', (kind) => {
  let ctx: TestApp
  let adminSid: string
  let userSid: string
  let mailboxId: number

  beforeAll(async () => {
    ctx = await createTestApp(kind, { env: { ADMIN_EMAILS: 'admin@example.com' }, mail: true, demo: true, workers: false })
    ;({ sid: adminSid } = await signIn(ctx, 'google', { email: 'admin@example.com' }))
    ;({ sid: userSid } = await signIn(ctx, 'google', { email: 'demo.fault@example.com' }))
    await connectMailbox(ctx, userSid, 'gmail', 'demo.fault@example.com')
    const [row] = await ctx.db.select({ id: mailboxes.id }).from(mailboxes)
    mailboxId = row!.id
  }, 60_000)
  afterAll(async () => {
    await ctx?.close()
  })

  const post = (sid: string, payload: object) =>
    ctx.app.inject({ method: 'POST', url: '/_api/demo/provider-fault', headers: { 'x-requested-with': 'XMLHttpRequest', 'user-agent': ADMIN_UA }, cookies: { sid }, payload })
  /** One cheap Gmail call through the app's adapter: it fails while a fault is pending. */
  async function gmailAnswers() {
    const [row] = await ctx.db.select().from(mailboxes).where(eq(mailboxes.id, mailboxId))
    return ctx.services.mailboxes
      .adapterFor(row!)
      .getAddress()
      .then(
        () => true,
        () => false,
      )
  }

  it('refuses a user (403) and bad values (400) and injects nothing', async () => {
    const asUser = await post(userSid, { provider: 'gmail', status: 500, times: 50 })
    expect(asUser.statusCode).toBe(403)
    for (const [payload, message] of [
      [{ provider: 'gmail', status: 404, times: 5 }, 'status must be 500, 503 or 429'],
      [{ provider: 'gmail', status: 500, times: -1 }, 'times must be a whole number from 0 to 50'],
      [{ provider: 'gmail', status: 500, times: 51 }, 'times must be a whole number from 0 to 50'],
      [{ provider: 'yahoo', status: 500, times: 5 }, 'provider must be gmail or outlook'],
    ] as const) {
      const res = await post(adminSid, payload)
      expect(res.statusCode, JSON.stringify(payload)).toBe(400)
      expect(res.json().error).toContain(message)
    }
    expect(await gmailAnswers()).toBe(true)
    expect(await ctx.db.select().from(auditEvents).where(eq(auditEvents.action, 'DEMO_PROVIDER_FAULT_INJECTED'))).toEqual([])
  })

  it('an admin makes the demo Gmail API fail: the failing syncs open the Gmail circuit breaker, and the switch is audited', async () => {
    const res = await post(adminSid, { provider: 'gmail', status: 500, times: 50 })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ provider: 'gmail', status: 500, times: 50, message: expect.stringContaining('The next 50 calls to the demo Gmail API answer 500') })
    // Only the mail API fails: the Pub/Sub key set that proves pushes stays up.
    expect((await fetch(ctx.gmail!.pubsub.jwksUrl)).status).toBe(200)

    const outcomes: string[] = []
    for (let i = 0; i < 8 && !(await ctx.services.breakers.state('gmail')).open; i++) {
      const outcome = await ctx.services.pipeline.run(mailboxId, 'poll').then(
        (o) => (o.kind === 'deferred' ? o.why : o.kind),
        () => 'failed',
      )
      outcomes.push(outcome)
    }
    // The default threshold: five failing syncs in a row, the fifth of which opens the breaker.
    expect(outcomes).toEqual(['failed', 'failed', 'failed', 'failed', 'breaker_open'])
    const [health] = await ctx.db.select().from(providerHealth).where(eq(providerHealth.serviceName, 'gmail'))
    expect(health).toMatchObject({ isHealthy: false, failureCount: 5 })
    expect(health!.circuitOpenUntil!.getTime()).toBeGreaterThan(Date.now())
    expect(ctx.gmail!.journal.filter((e) => e.error === 'injected_fault').length).toBeGreaterThanOrEqual(5)
    expect(ctx.gmail!.journal.filter((e) => e.error === 'injected_fault').every((e) => e.path.startsWith('/gmail/v1/'))).toBe(true)

    const outlook = await post(adminSid, { provider: 'outlook', status: 503, times: 1 })
    expect(outlook.statusCode).toBe(200)
    expect(outlook.json().message).toContain('demo Outlook API answer 503')

    const audits = await ctx.db.select().from(auditEvents).where(eq(auditEvents.action, 'DEMO_PROVIDER_FAULT_INJECTED'))
    expect(audits.map((a) => a.metadata)).toEqual([
      { provider: 'gmail', status: 500, times: 50 },
      { provider: 'outlook', status: 503, times: 1 },
    ])
    expect(audits[0]).toMatchObject({ eventType: 'SETTINGS_CHANGED', eventCategory: 'SYSTEM', success: true, ipAddress: '127.0.0.1', userAgent: ADMIN_UA, resourceId: 'gmail' })
    // times 0 switches what is left of the faults off.
    const cleared = await post(adminSid, { provider: 'gmail', status: 500, times: 0 })
    expect(cleared.json().message).toBe('Faults cleared: the demo Gmail API answers normally again.')
    expect(await gmailAnswers()).toBe(true)
    ctx.graph!.clearFaults()
    await ctx.services.breakers.reset('gmail')
  }, 60_000)
})

describe('the demo admin (issue 18)', () => {
  const KEY = 'a-token-encryption-key-of-32-characters-at-least'

  it('in demo mode with ADMIN_EMAILS empty, admin@example.com is the admin, so a newcomer can open the admin panel', () => {
    expect(loadConfig({}).adminEmails).toEqual(['admin@example.com'])
    expect(loadConfig({ ADMIN_EMAILS: '' }).adminEmails).toEqual(['admin@example.com'])
  })

  it('not when ADMIN_EMAILS is set, when a sign-in is real, or in production (a public demo)', () => {
    expect(loadConfig({ ADMIN_EMAILS: 'ops@example.com' }).adminEmails).toEqual(['ops@example.com'])
    expect(loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', TOKEN_ENCRYPTION_KEY: KEY }).adminEmails).toEqual([])
    expect(loadConfig({ NODE_ENV: 'production', ALLOW_DEMO_SIGN_IN: 'true' }).adminEmails).toEqual([])
  })
})
