import { spawn } from 'node:child_process'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildRawMessage } from '#fakes/gmail/rfc822.ts'
import { decisions, mailboxes, senderRules, usageCounts } from '#server/db/schema.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { childProcessEnv, connectMailbox, createTestApp, signIn, type TestApp } from '#server/test/harness.ts'
import { MailProviderError } from '#server/integrations/mail/mail-provider.ts'
import { MAX_MESSAGE_ATTEMPTS, SyncIncompleteError } from './sync-mailbox.ts'

/**
 * The filtering pipeline under the faults real providers have (issue 13): every delivered message is
 * decided exactly once, counted once, none deleted, none lost, and the provider is asked to file each
 * one away at most once; whatever the notifications and the provider do.
 */

let serial = 0
const BODY_MARKER = 'zq-body-marker-'

/** A cold pitch the classifier files away with confidence, from a sender never written to. */
function coldPitch(to: string) {
  const n = ++serial
  return buildRawMessage({
    from: `Jake Miller <jake${n}@leadrocket-growth.example>`,
    to,
    subject: `Quick question about your pipeline ${n}`,
    text: `Hi there,\n\nI noticed your team is growing fast. We help founders book 20+ qualified sales meetings a month with done-for-you outbound lead generation and SEO link building.\n\nWould you be open to a quick 15-minute call next week to see if we could do the same for you?\n\nBest,\nJake\nGrowth Partner, LeadRocket\n${BODY_MARKER}${n}`,
  })
}

/** A personal message from a friend. */
function friendly(to: string) {
  const n = ++serial
  return buildRawMessage({
    from: `Anna Berg <anna${n}@example.net>`,
    to,
    subject: `Dinner on Saturday ${n}`,
    text: `Hey!\n\nAre you still up for dinner on Saturday? Tom can bring the kids, and I'll make the lasagne you liked last time.\n\nLet me know,\nAnna\n${BODY_MARKER}${n}`,
  })
}

describe.each(testDatabaseKinds())('filtering pipeline on %s', (kind) => {
  let ctx: TestApp
  const gmailUser = { email: 'owner@example.com', sid: '', userId: 0, mailboxId: 0 }
  const outlookUser = { email: 'owner@contoso.example', sid: '', userId: 0, mailboxId: 0 }

  beforeAll(async () => {
    ctx = await createTestApp(kind, { mail: true })
    for (const [user, provider] of [
      [gmailUser, 'gmail'],
      [outlookUser, 'outlook'],
    ] as const) {
      const signedIn = await signIn(ctx, 'google', { email: `${provider}-user@example.com` })
      user.sid = signedIn.sid
      user.userId = signedIn.user.id
      await connectMailbox(ctx, user.sid, provider, user.email)
      const [row] = await ctx.db.select({ id: mailboxes.id }).from(mailboxes).where(eq(mailboxes.userId, user.userId))
      user.mailboxId = row!.id
    }
  }, 60_000)
  afterAll(async () => {
    await ctx?.close()
  })

  /** One sync, as the job worker runs it; what pg-boss would retry (a failed message, throttling) is not an error here. */
  const sync = async (mailboxId: number) => {
    try {
      return await ctx.services.pipeline.sync(mailboxId, 'poll')
    } catch (error) {
      if (error instanceof SyncIncompleteError) return null
      if (error instanceof MailProviderError && (error.status === 429 || error.status >= 500 || error.status === 0)) return null
      throw error
    }
  }
  const decisionsOf = (mailboxId: number) => ctx.db.select().from(decisions).where(eq(decisions.mailboxId, mailboxId))

  /** Runs syncs (beside whatever the push-started jobs do) until every id is decided or skipped. */
  async function settle(mailboxId: number, ids: string[], timeoutMs = 20_000) {
    const until = Date.now() + timeoutMs
    for (;;) {
      await sync(mailboxId)
      const decided = new Set((await decisionsOf(mailboxId)).map((d) => d.providerMessageId))
      if (ids.every((id) => decided.has(id))) return
      if (Date.now() > until) throw new Error(`not all decided in ${timeoutMs} ms: ${ids.filter((id) => !decided.has(id)).length} left`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  async function usage(userId: number) {
    const [row] = await ctx.db.select().from(usageCounts).where(and(eq(usageCounts.userId, userId), eq(usageCounts.month, new Date().toISOString().slice(0, 7))))
    return row?.emailsProcessed ?? 0
  }

  /** Decided exactly once, counted once, filed at most once each, none deleted, filed ones out of the inbox. */
  async function expectExactlyOnce(provider: 'gmail' | 'outlook', user: typeof gmailUser, ids: string[]) {
    const rows = await decisionsOf(user.mailboxId)
    for (const id of ids) expect(rows.filter((r) => r.providerMessageId === id), id).toHaveLength(1)
    expect(await usage(user.userId)).toBe(rows.filter((r) => r.action !== 'skipped').length)
    const fake = provider === 'gmail' ? ctx.gmail! : ctx.graph!
    const moveEndpoint = provider === 'gmail' ? 'messages.modify' : 'messages.move'
    for (const row of rows.filter((r) => r.action === 'filed' && ids.includes(r.providerMessageId))) {
      const moves = fake.journal.filter((e) => e.endpoint === moveEndpoint && e.path.includes(row.providerMessageId) && e.status >= 200 && e.status < 300)
      expect(moves.length, `file-away calls for ${row.providerMessageId}`).toBeLessThanOrEqual(1)
    }
    expect(fake.violations).toEqual([])
    // Nothing deleted: every delivered message still exists.
    if (provider === 'gmail') {
      const box = ctx.gmail!.mailbox(user.email)
      for (const id of ids) expect(box.messages.some((m) => m.id === id), id).toBe(true)
      for (const row of rows.filter((r) => r.state === 'filed' && r.appliedAt)) {
        expect(box.messages.find((m) => m.id === row.providerMessageId)?.labelIds).not.toContain('INBOX')
      }
    } else {
      const box = ctx.graph!.mailbox(user.email)
      for (const id of ids) expect(box.messages.some((m) => m.id === id), id).toBe(true)
      for (const row of rows.filter((r) => r.state === 'filed' && r.appliedAt)) {
        expect(box.messages.find((m) => m.id === row.providerMessageId)?.folder).toBe('Inbox Guard/Unwanted')
      }
    }
  }

  async function deliverGmail(raws: string[]) {
    return raws.map((raw) => ctx.gmail!.deliver(gmailUser.email, raw).id)
  }
  async function deliverOutlook(raws: string[]) {
    const ids: string[] = []
    for (const raw of raws) ids.push((await ctx.graph!.deliver(outlookUser.email, raw)).id)
    return ids
  }

  it('decides each new Gmail message once: cold outreach filed away under our label with its reasons, the rest kept', async () => {
    const ids = await deliverGmail([coldPitch(gmailUser.email), friendly(gmailUser.email), coldPitch(gmailUser.email), friendly(gmailUser.email)])
    await settle(gmailUser.mailboxId, ids)
    const rows = await decisionsOf(gmailUser.mailboxId)
    const cold = rows.filter((r) => r.subject.startsWith('Quick question'))
    const warm = rows.filter((r) => r.subject.startsWith('Dinner'))
    expect(cold.map((r) => [r.category, r.state])).toEqual([
      ['unwanted', 'filed'],
      ['unwanted', 'filed'],
    ])
    expect(warm.every((r) => r.state === 'kept' && r.category !== 'unwanted')).toBe(true)
    expect(cold[0]!.reasons.length).toBeGreaterThan(0)
    expect(cold[0]!.confidence).toBeGreaterThanOrEqual(0.7)
    const label = ctx.gmail!.mailbox(gmailUser.email).labels.find((l) => l.name === 'Inbox Guard/Unwanted')
    expect(ctx.gmail!.mailbox(gmailUser.email).messages.find((m) => m.id === cold[0]!.providerMessageId)?.labelIds).toContain(label!.id)
    await expectExactlyOnce('gmail', gmailUser, ids)
  })

  it('decides each new Outlook message once: cold outreach moved to the Inbox Guard/Unwanted folder, ids unchanged', async () => {
    const ids = await deliverOutlook([coldPitch(outlookUser.email), friendly(outlookUser.email)])
    await settle(outlookUser.mailboxId, ids)
    const rows = await decisionsOf(outlookUser.mailboxId)
    expect(rows.find((r) => r.subject.startsWith('Quick question'))).toMatchObject({ category: 'unwanted', state: 'filed' })
    await expectExactlyOnce('outlook', outlookUser, ids)
  })

  it('Gmail: duplicated (×3) and reordered notifications still decide each message once', async () => {
    ctx.gmail!.push.duplicateNext(6)
    ctx.gmail!.push.hold()
    const ids = await deliverGmail([coldPitch(gmailUser.email), friendly(gmailUser.email), coldPitch(gmailUser.email)])
    ctx.gmail!.push.release('reverse')
    await ctx.gmail!.push.idle()
    await settle(gmailUser.mailboxId, ids)
    await expectExactlyOnce('gmail', gmailUser, ids)
  })

  it('Gmail: syncs that overlap (a job, a sweep, another worker) never move one message twice', async () => {
    ctx.gmail!.setPushEndpoint(undefined)
    const ids = await deliverGmail([coldPitch(gmailUser.email), coldPitch(gmailUser.email), coldPitch(gmailUser.email)])
    // The first sync's moves are slow, so the later ones start while it is moving: they must leave its
    // pending moves alone instead of finishing them a second time.
    ctx.gmail!.injectFault({ endpoint: 'messages.modify', delayMs: 400, times: 3 })
    const first = sync(gmailUser.mailboxId)
    const until = Date.now() + 10_000
    while ((await decisionsOf(gmailUser.mailboxId)).filter((d) => ids.includes(d.providerMessageId)).length === 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    await Promise.all([first, sync(gmailUser.mailboxId), sync(gmailUser.mailboxId)])
    ctx.gmail!.setPushEndpoint(`${ctx.config.appUrl}/_api/webhooks/gmail`)
    await settle(gmailUser.mailboxId, ids)
    await expectExactlyOnce('gmail', gmailUser, ids)
    const rows = (await decisionsOf(gmailUser.mailboxId)).filter((d) => ids.includes(d.providerMessageId))
    expect(rows.every((r) => r.state === 'filed' && r.appliedAt)).toBe(true)
  })

  it('Outlook: duplicated and reordered change notifications still decide each message once', async () => {
    ctx.graph!.setNotificationFaults({ duplicate: true, reorder: true })
    const ids = await deliverOutlook([coldPitch(outlookUser.email), friendly(outlookUser.email), coldPitch(outlookUser.email)])
    ctx.graph!.flushNotifications()
    await ctx.graph!.notificationsSettled()
    ctx.graph!.setNotificationFaults({})
    await settle(outlookUser.mailboxId, ids)
    await expectExactlyOnce('outlook', outlookUser, ids)
  })

  it.each(['gmail', 'outlook'] as const)('%s: a 429 storm with Retry-After and 5xx bursts delay decisions but never double or lose them', async (provider) => {
    const user = provider === 'gmail' ? gmailUser : outlookUser
    const fake = provider === 'gmail' ? ctx.gmail! : ctx.graph!
    const ids = provider === 'gmail' ? await deliverGmail([coldPitch(user.email), friendly(user.email), coldPitch(user.email)]) : await deliverOutlook([coldPitch(user.email), friendly(user.email), coldPitch(user.email)])
    fake.injectFault({ endpoint: 'messages.get', status: 429, headers: { 'Retry-After': '0' }, times: 12 })
    fake.injectFault({ endpoint: provider === 'gmail' ? 'messages.modify' : 'messages.move', status: 503, times: 4 })
    fake.injectFault({ endpoint: '*', status: 500, times: 3 })
    await settle(user.mailboxId, ids, 40_000)
    fake.clearFaults()
    await sync(user.mailboxId)
    await expectExactlyOnce(provider, user, ids)
  })

  it('Gmail: a history id too old for Gmail recovers from the inbox without skipping mail or re-deciding it', async () => {
    const before = await deliverGmail([friendly(gmailUser.email)])
    await settle(gmailUser.mailboxId, before)
    ctx.gmail!.setPushEndpoint(undefined)
    const ids = await deliverGmail([coldPitch(gmailUser.email), friendly(gmailUser.email)])
    ctx.gmail!.expireHistory(gmailUser.email)
    const result = await ctx.services.pipeline.sync(gmailUser.mailboxId, 'poll')
    ctx.gmail!.setPushEndpoint(`${ctx.config.appUrl}/_api/webhooks/gmail`)
    expect(result.recovered).toBe(true)
    await settle(gmailUser.mailboxId, ids)
    await expectExactlyOnce('gmail', gmailUser, [...before, ...ids])
  })

  it('Outlook: a delta reset (410) recovers from the inbox without skipping mail or re-deciding it', async () => {
    const ids = await deliverOutlook([coldPitch(outlookUser.email), friendly(outlookUser.email)])
    ctx.graph!.expireDeltaTokens(outlookUser.email)
    await settle(outlookUser.mailboxId, ids)
    await expectExactlyOnce('outlook', outlookUser, ids)
    expect((await decisionsOf(outlookUser.mailboxId)).length).toBe(new Set((await decisionsOf(outlookUser.mailboxId)).map((d) => d.providerMessageId)).size)
  })

  it('a message that always fails is skipped with its reason after the last try, left in the inbox, and blocks nothing', async () => {
    ctx.gmail!.setPushEndpoint(undefined)
    const [broken] = await deliverGmail([friendly(gmailUser.email)])
    ctx.gmail!.injectFault({ endpoint: 'messages.get', pathIncludes: broken, status: 400, times: 1000 })
    const [fine] = await deliverGmail([coldPitch(gmailUser.email)])
    for (let i = 0; i < MAX_MESSAGE_ATTEMPTS + 1; i++) await sync(gmailUser.mailboxId)
    ctx.gmail!.clearFaults()
    ctx.gmail!.setPushEndpoint(`${ctx.config.appUrl}/_api/webhooks/gmail`)
    const rows = await decisionsOf(gmailUser.mailboxId)
    expect(rows.find((r) => r.providerMessageId === broken)).toMatchObject({ action: 'skipped', state: 'skipped', decidedBy: 'error' })
    expect(rows.find((r) => r.providerMessageId === broken)!.reasons[0]).toContain(`could not be processed after ${MAX_MESSAGE_ATTEMPTS} tries`)
    expect(ctx.gmail!.mailbox(gmailUser.email).messages.find((m) => m.id === broken)?.labelIds).toContain('INBOX')
    expect(rows.find((r) => r.providerMessageId === fine), JSON.stringify(rows.find((r) => r.providerMessageId === fine))).toMatchObject({ state: 'filed' })
    // The mailbox moves on: later mail is decided normally.
    const later = await deliverGmail([coldPitch(gmailUser.email)])
    await settle(gmailUser.mailboxId, later)
    await expectExactlyOnce('gmail', gmailUser, [fine!, ...later])
  })

  it('while filtering is off new mail is left alone and is not processed later; the cursor moves on', async () => {
    const update = (filteringEnabled: boolean) =>
      ctx.app.inject({ method: 'POST', url: '/_api/settings', headers: { 'x-requested-with': 'XMLHttpRequest' }, cookies: { sid: gmailUser.sid }, payload: { filteringEnabled } })
    expect((await update(false)).json()).toMatchObject({ filteringEnabled: false })
    const ids = await deliverGmail([coldPitch(gmailUser.email)])
    await ctx.gmail!.push.idle()
    await sync(gmailUser.mailboxId)
    expect((await update(true)).statusCode).toBe(200)
    await sync(gmailUser.mailboxId)
    expect((await decisionsOf(gmailUser.mailboxId)).some((d) => d.providerMessageId === ids[0])).toBe(false)
    expect(ctx.gmail!.mailbox(gmailUser.email).messages.find((m) => m.id === ids[0])?.labelIds).toContain('INBOX')
  })

  it('Restore brings a message back and the sender stays in the inbox from then on; "This is cold" files a kept one away', async () => {
    const [id] = await deliverGmail([coldPitch(gmailUser.email)])
    await settle(gmailUser.mailboxId, [id!])
    const [filed] = (await decisionsOf(gmailUser.mailboxId)).filter((d) => d.providerMessageId === id)
    const post = (url: string, decisionId: number, sid = gmailUser.sid) =>
      ctx.app.inject({ method: 'POST', url, headers: { 'x-requested-with': 'XMLHttpRequest' }, cookies: { sid }, payload: { decisionId } })

    // Another user's decision answers like a missing one; an id beyond PostgreSQL's integers is a clear 400.
    expect((await post('/_api/activity/restore', filed!.id, outlookUser.sid)).statusCode).toBe(404)
    for (const path of ['/_api/activity/restore', '/_api/activity/flag']) {
      const huge = await post(path, 2_147_483_648)
      expect(huge.statusCode).toBe(400)
      expect(huge.json().error).toContain('decisionId must be the id of one of your decisions')
    }
    const restored = await post('/_api/activity/restore', filed!.id)
    expect(restored.statusCode).toBe(200)
    expect(restored.json().decision).toMatchObject({ id: filed!.id, state: 'restored' })
    expect(restored.json().message).toContain(`Mail from ${filed!.senderAddress} will stay in your inbox`)
    expect(ctx.gmail!.mailbox(gmailUser.email).messages.find((m) => m.id === id)?.labelIds).toContain('INBOX')
    expect((await post('/_api/activity/restore', filed!.id)).statusCode).toBe(409)

    // The same sender's next pitch stays in the inbox.
    const sender = filed!.senderAddress
    const [next] = await deliverGmail([buildRawMessage({ from: sender, to: gmailUser.email, subject: 'Following up on my last email', text: 'Just bumping this. Quick 15-minute call next week?' })])
    await settle(gmailUser.mailboxId, [next!])
    expect((await decisionsOf(gmailUser.mailboxId)).find((d) => d.providerMessageId === next)).toMatchObject({ state: 'kept', decidedBy: 'sender_rule' })

    const [warm] = await deliverGmail([friendly(gmailUser.email)])
    await settle(gmailUser.mailboxId, [warm!])
    const kept = (await decisionsOf(gmailUser.mailboxId)).find((d) => d.providerMessageId === warm)!
    const flagged = await post('/_api/activity/flag', kept.id)
    expect(flagged.json().decision).toMatchObject({ state: 'flagged', category: 'unwanted' })
    expect(ctx.gmail!.mailbox(gmailUser.email).messages.find((m) => m.id === warm)?.labelIds).not.toContain('INBOX')
    const [rule] = await ctx.db.select().from(senderRules).where(and(eq(senderRules.userId, gmailUser.userId), eq(senderRules.address, kept.senderAddress)))
    expect(rule).toMatchObject({ action: 'file', source: 'flag' })
  })

  it('corrections of several senders of one organisation apply to its other senders, with the correction as the reason', async () => {
    const pitch = (from: string) =>
      buildRawMessage({
        from,
        to: gmailUser.email,
        subject: `Quick question about your pipeline ${++serial}`,
        text: `Hi there,\n\nWe help founders book 20+ qualified sales meetings a month with done-for-you outbound lead generation.\n\nWould you be open to a quick 15-minute call next week?\n\nBest,\nSam\n${BODY_MARKER}${serial}`,
      })
    const post = (url: string, decisionId: number) =>
      ctx.app.inject({ method: 'POST', url, headers: { 'x-requested-with': 'XMLHttpRequest' }, cookies: { sid: gmailUser.sid }, payload: { decisionId } })
    const decisionOf = async (id: string) => (await decisionsOf(gmailUser.mailboxId)).find((d) => d.providerMessageId === id)!

    const first = await deliverGmail([pitch('sam@partners-of-acme.example')])
    await settle(gmailUser.mailboxId, first)
    expect(await decisionOf(first[0]!)).toMatchObject({ state: 'filed' })
    expect((await post('/_api/activity/restore', (await decisionOf(first[0]!)).id)).statusCode).toBe(200)
    // One restored sender: only that address is trusted, its colleague's pitch is still filed.
    const [again, colleague] = await deliverGmail([pitch('sam@partners-of-acme.example'), pitch('kim@partners-of-acme.example')])
    await settle(gmailUser.mailboxId, [again!, colleague!])
    expect(await decisionOf(again!)).toMatchObject({ state: 'kept', decidedBy: 'sender_rule', reasons: ['You restored mail from this sender, so it stays in your inbox'] })
    expect(await decisionOf(colleague!)).toMatchObject({ state: 'filed', decidedBy: 'classifier' })
    // A second restored sender there: the organisation's next sender stays in the inbox too.
    expect((await post('/_api/activity/restore', (await decisionOf(colleague!)).id)).statusCode).toBe(200)
    const [third] = await deliverGmail([pitch('lee@mail.partners-of-acme.example')])
    await settle(gmailUser.mailboxId, [third!])
    expect(await decisionOf(third!)).toMatchObject({
      state: 'kept',
      decidedBy: 'sender_rule',
      reasons: ['You restored mail from 2 senders at partners-of-acme.example, so mail from there stays in your inbox'],
    })
  })

  it('moving a filed message back to the inbox in Gmail itself counts as a restore and trusts the sender', async () => {
    const [id] = await deliverGmail([coldPitch(gmailUser.email)])
    await settle(gmailUser.mailboxId, [id!])
    const decisionOf = async () => (await decisionsOf(gmailUser.mailboxId)).find((d) => d.providerMessageId === id)!
    // Filed in Gmail (not only decided) before the person drags it back.
    for (let until = Date.now() + 10_000; !(await decisionOf()).appliedAt && Date.now() < until; ) await sync(gmailUser.mailboxId)
    const [row] = await ctx.db.select().from(mailboxes).where(eq(mailboxes.id, gmailUser.mailboxId))
    // The person drags it back in Gmail: the same API calls a mail client makes.
    await ctx.services.mailboxes.adapterFor(row!).restore(id!, 'unwanted')
    await ctx.gmail!.push.idle()
    // Whichever sync reads the change first (the push-started job or this one) records the restore.
    for (let until = Date.now() + 10_000; (await decisionOf()).state !== 'restored' && Date.now() < until; ) {
      await sync(gmailUser.mailboxId)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const decision = await decisionOf()
    expect(decision.state).toBe('restored')
    const [rule] = await ctx.db.select().from(senderRules).where(and(eq(senderRules.userId, gmailUser.userId), eq(senderRules.address, decision.senderAddress)))
    expect(rule).toMatchObject({ action: 'trust', source: 'mail_app' })
  })

  // Two processes need a shared database: PostgreSQL only (the embedded one is single-process).
  it.runIf(kind === 'postgres')('a worker killed with SIGKILL in the middle of a batch loses nothing and doubles nothing when another one takes over', async () => {
    ctx.gmail!.setPushEndpoint(undefined)
    const raws = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? coldPitch(gmailUser.email) : friendly(gmailUser.email)))
    const ids = await deliverGmail(raws)
    // Slow reads, so the kill lands mid-batch.
    ctx.gmail!.injectFault({ endpoint: 'messages.get', delayMs: 40, times: 10_000 })
    // The worker only syncs: no push topic, so it never starts watches of its own.
    const env: Record<string, string> = { ...childProcessEnv(ctx), LOG_LEVEL: 'silent' }
    delete env.GMAIL_PUBSUB_TOPIC
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/test/sync-worker.ts', String(gmailUser.mailboxId)], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise((resolve) => child.on('exit', resolve))
    const started = (await decisionsOf(gmailUser.mailboxId)).length
    const until = Date.now() + 30_000
    while ((await decisionsOf(gmailUser.mailboxId)).length < started + 10) {
      if (Date.now() > until) throw new Error(`the worker decided nothing: ${stderr}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    child.kill('SIGKILL')
    await exited
    const decidedBeforeKill = (await decisionsOf(gmailUser.mailboxId)).length - started
    expect(decidedBeforeKill).toBeLessThan(ids.length)
    ctx.gmail!.clearFaults()
    await settle(gmailUser.mailboxId, ids)
    ctx.gmail!.setPushEndpoint(`${ctx.config.appUrl}/_api/webhooks/gmail`)
    await expectExactlyOnce('gmail', gmailUser, ids)
    // The pending move of a message the killed worker had decided but not yet moved is finished.
    const rows = (await decisionsOf(gmailUser.mailboxId)).filter((r) => ids.includes(r.providerMessageId))
    expect(rows.filter((r) => r.action === 'filed' && r.appliedAt === null)).toEqual([])
  }, 90_000)

  it('after a dead grant, reconnecting the same mailbox catches up on the mail that arrived meanwhile', async () => {
    ctx.fakes.revokeRefreshTokens('google', gmailUser.email)
    ctx.fakes.advanceClock(2 * 3600_000)
    ctx.gmail!.advanceClock(2 * 3600_000)
    const missed = await deliverGmail([coldPitch(gmailUser.email), friendly(gmailUser.email)])
    await sync(gmailUser.mailboxId)
    expect((await ctx.db.select().from(mailboxes).where(eq(mailboxes.id, gmailUser.mailboxId)))[0]?.status).toBe('revoked')
    expect((await decisionsOf(gmailUser.mailboxId)).some((d) => missed.includes(d.providerMessageId))).toBe(false)
    await connectMailbox(ctx, gmailUser.sid, 'gmail', gmailUser.email)
    await settle(gmailUser.mailboxId, missed)
    await expectExactlyOnce('gmail', gmailUser, missed)
  })

  it('keeps mail bodies out of the database, the job queue and the logs', async () => {
    const text = JSON.stringify(await ctx.db.select().from(decisions))
    expect(text).not.toContain(BODY_MARKER)
    const jobs = await ctx.db.execute(sql`select data::text as data from pgboss.job`)
    expect(JSON.stringify((jobs as unknown as { rows: unknown[] }).rows)).not.toContain(BODY_MARKER)
    expect(ctx.logs.join('\n')).not.toContain(BODY_MARKER)
    expect(ctx.logs.join('\n')).not.toContain('I noticed your team is growing fast')
  })

  it('lists decisions newest first with filters, and counts them per day and category', async () => {
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, cookies: { sid: gmailUser.sid } })
    const all = (await get('/_api/activity?limit=100')).json()
    expect(all.pagination.totalRecords).toBe((await decisionsOf(gmailUser.mailboxId)).length)
    expect(all.items.every((item: { provider: string }) => item.provider === 'gmail')).toBe(true)
    const times = all.items.map((item: { decidedAt: string }) => item.decidedAt)
    expect([...times].sort().reverse()).toEqual(times)
    const filed = (await get('/_api/activity?filed=true&limit=100')).json()
    expect(filed.items.every((item: { state: string }) => item.state === 'filed' || item.state === 'flagged')).toBe(true)
    const unwanted = (await get('/_api/activity?category=unwanted&page=1&limit=2')).json()
    expect(unwanted.items).toHaveLength(2)
    expect(unwanted.pagination.totalPages).toBeGreaterThanOrEqual(2)
    const stats = (await get('/_api/activity/stats?days=30')).json()
    expect(stats.days).toHaveLength(30)
    const today = stats.days.at(-1)
    const decidedToday = all.items.filter((item: { state: string }) => item.state !== 'skipped').length
    expect(Object.values(today.counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(decidedToday)
    expect((await get('/_api/activity?limit=500')).statusCode).toBe(400)
    expect((await get('/_api/activity?category=spam')).statusCode).toBe(400)
  })
})
