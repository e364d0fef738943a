import { spawn } from 'node:child_process'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildRawMessage } from '#fakes/gmail/rfc822.ts'
import { decisions, pushReceipts } from '#server/db/schema.ts'
import { connectMailbox, createTestApp, signIn, type TestApp } from '#server/test/harness.ts'

/**
 * Demo mailboxes (issue 12 item 6): a connected demo mailbox already holds the demo mail, and
 * `npm run demo:deliver` puts new mail into it with the push a real provider sends.
 */
async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 8000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > until) throw new Error(`condition not met in ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('demo mailboxes', () => {
  let ctx: TestApp
  let sid: string
  beforeAll(async () => {
    ctx = await createTestApp('pglite', { mail: true, demo: true })
    ;({ sid } = await signIn(ctx, 'google', { email: 'demo.user@example.com' }))
    await connectMailbox(ctx, sid, 'gmail', 'demo.user@example.com')
  })
  afterAll(async () => {
    await ctx?.close()
  })

  it('a newly connected demo mailbox holds the demo mail, and its inbox mail arrives as new: the first syncs decide all of it', async () => {
    const box = ctx.gmail!.mailbox('demo.user@example.com')
    const inbox = box.messages.filter((m) => !m.labelIds.includes('SENT'))
    expect(inbox.length).toBeGreaterThanOrEqual(40)
    expect(box.messages.filter((m) => m.labelIds.includes('SENT')).length).toBeGreaterThanOrEqual(4)
    const decided = await waitFor(
      () => ctx.db.select().from(decisions),
      (rows) => rows.length >= inbox.length,
      30_000,
    )
    expect(decided).toHaveLength(inbox.length)
    const filed = decided.filter((d) => d.state === 'filed')
    expect(filed.length).toBeGreaterThan(0)
    // Filed mail is out of the inbox under our label, never deleted.
    const after = ctx.gmail!.mailbox('demo.user@example.com')
    for (const d of filed) expect(after.messages.find((m) => m.id === d.providerMessageId)?.labelIds).not.toContain('INBOX')
    expect(after.messages).toHaveLength(box.messages.length)
    expect(ctx.gmail!.violations).toEqual([])
  }, 40_000)

  it('POST /_api/demo/deliver puts new mail in and the Gmail push reaches the app', async () => {
    const before = ctx.gmail!.mailbox('demo.user@example.com').messages.length
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/_api/demo/deliver',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      payload: { to: 'demo.user@example.com', raw: buildRawMessage({ from: 'new@example.org', to: 'demo.user@example.com', subject: 'Hello', text: 'New mail' }) },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ provider: 'gmail', id: expect.any(String) })
    expect(ctx.gmail!.mailbox('demo.user@example.com').messages.length).toBe(before + 1)
    await ctx.gmail!.push.idle()
    expect((await ctx.db.select().from(pushReceipts).where(eq(pushReceipts.source, 'gmail'))).length).toBeGreaterThan(0)
  })

  it('refuses a mailbox that is not connected (404) and requests from another machine (403)', async () => {
    const raw = buildRawMessage({ from: 'a@example.org', to: 'x@example.com', subject: 'S', text: 'T' })
    const unknown = await ctx.app.inject({ method: 'POST', url: '/_api/demo/deliver', headers: { 'x-requested-with': 'XMLHttpRequest' }, payload: { to: 'x@example.com', raw } })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().error).toContain('No demo mailbox x@example.com is connected')
    const remote = await ctx.app.inject({
      method: 'POST',
      url: '/_api/demo/deliver',
      remoteAddress: '203.0.113.9',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      payload: { to: 'demo.user@example.com', raw },
    })
    expect(remote.statusCode).toBe(403)
  })

  it('npm run demo:deliver delivers every message of a folder to the running app', async () => {
    const before = ctx.gmail!.mailbox('demo.user@example.com').messages.length
    const output = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/demo-deliver.ts', 'src/fakes/mail-seed/messages/sent', '--to', 'demo.user@example.com', '--app', ctx.config.appUrl, '--delay-ms', '0'])
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      child.on('close', (code) => resolve({ code, stdout, stderr }))
    })
    expect(output.stderr).toBe('')
    expect(output.code).toBe(0)
    expect(output.stdout).toContain('4 messages delivered')
    expect(ctx.gmail!.mailbox('demo.user@example.com').messages.length).toBe(before + 4)
  }, 30_000)
})
