import { spawn, type ChildProcess } from 'node:child_process'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildRawMessage } from '#fakes/gmail/rfc822.ts'
import { decisions, mailboxes, syncRuns, usageCounts } from '#server/db/schema.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { childProcessEnv, connectMailbox, createTestApp, signIn, type TestApp } from '#server/test/harness.ts'

/**
 * Scale-out (issue 14 item 7): a web process that only enqueues, and two worker processes (ROLE=worker)
 * on one PostgreSQL, fed a shared stream of duplicated notifications for the same mailboxes. PostgreSQL
 * only: the embedded database is single-process.
 */
const kinds = testDatabaseKinds().filter((kind) => kind === 'postgres')

describe.runIf(kinds.length > 0)('two worker processes on one PostgreSQL', () => {
  let ctx: TestApp
  const workers: ChildProcess[] = []
  const owners = ['one@example.com', 'two@example.com', 'three@example.com']
  const mailboxIds: number[] = []

  beforeAll(async () => {
    ctx = await createTestApp('postgres', { mail: true, workers: false })
    for (const address of owners) {
      const { sid, user } = await signIn(ctx, 'google', { email: `signin-${address}` })
      await connectMailbox(ctx, sid, 'gmail', address)
      mailboxIds.push((await ctx.db.select({ id: mailboxes.id }).from(mailboxes).where(eq(mailboxes.userId, user.id)))[0]!.id)
    }
    const env = { ...childProcessEnv(ctx), ROLE: 'worker', LOG_LEVEL: 'info' }
    const ready: Array<Promise<void>> = []
    for (let i = 0; i < 2; i++) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
      workers.push(child)
      let output = ''
      ready.push(
        new Promise((resolve, reject) => {
          child.stdout!.on('data', (chunk: Buffer) => {
            output += chunk.toString()
            if (output.includes('Inbox Guard worker is ready')) resolve()
          })
          child.on('exit', (code) => reject(new Error(`worker exited with ${code}: ${output}`)))
        }),
      )
    }
    await Promise.all(ready)
  }, 90_000)
  afterAll(async () => {
    for (const child of workers) child.kill('SIGTERM')
    await Promise.all(workers.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.on('exit', resolve)))))
    await ctx?.close()
  })

  it('decides every message once and never syncs one mailbox in two places at once', async () => {
    ctx.gmail!.push.duplicateNext(40)
    const delivered: string[] = []
    for (let round = 0; round < 15; round++) {
      for (const address of owners) {
        const pitch = round % 2 === 0
        const raw = buildRawMessage({
          from: pitch ? `seller${round}@growth-partners.example` : `friend${round}@example.net`,
          to: address,
          subject: pitch ? `Quick question ${round}` : `Saturday ${round}`,
          text: pitch ? 'We help founders book 20+ qualified sales meetings a month. Open to a quick 15-minute call next week?' : 'Are we still on for dinner on Saturday?',
        })
        delivered.push(ctx.gmail!.deliver(address, raw).id)
      }
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
    const until = Date.now() + 90_000
    for (;;) {
      const decided = await ctx.db.select({ id: decisions.providerMessageId }).from(decisions).where(inArray(decisions.mailboxId, mailboxIds))
      if (decided.length >= delivered.length) break
      if (Date.now() > until) throw new Error(`only ${decided.length} of ${delivered.length} decided`)
      // Notifications the provider dropped are picked up by a sweep, as in production.
      if (Date.now() > until - 60_000) await ctx.services.health.sweep(new Date(Date.now() + 20 * 60_000))
      await new Promise((resolve) => setTimeout(resolve, 250))
    }

    const rows = await ctx.db.select().from(decisions).where(inArray(decisions.mailboxId, mailboxIds))
    for (const id of delivered) expect(rows.filter((r) => r.providerMessageId === id), id).toHaveLength(1)
    const usage = await ctx.db.select().from(usageCounts)
    expect(usage.reduce((sum, u) => sum + u.emailsProcessed, 0)).toBe(rows.length)
    for (const row of rows.filter((r) => r.action === 'filed')) {
      const moves = ctx.gmail!.journal.filter((e) => e.endpoint === 'messages.modify' && e.path.includes(row.providerMessageId) && e.status < 300)
      expect(moves.length, row.providerMessageId).toBeLessThanOrEqual(1)
    }
    expect(ctx.gmail!.violations).toEqual([])

    // No mailbox was synced by two processes at once: its sync runs never overlap.
    const runs = await ctx.db.select().from(syncRuns).where(inArray(syncRuns.mailboxId, mailboxIds))
    for (const mailboxId of mailboxIds) {
      const own = runs.filter((r) => r.mailboxId === mailboxId && r.finishedAt).sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime())
      for (let i = 1; i < own.length; i++) expect(own[i]!.startedAt.getTime(), `mailbox ${mailboxId} run ${i}`).toBeGreaterThanOrEqual(own[i - 1]!.finishedAt!.getTime())
    }
    expect(new Set(runs.map((r) => r.worker)).size).toBeGreaterThanOrEqual(1)
  }, 120_000)
})
