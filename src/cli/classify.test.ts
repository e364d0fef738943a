import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync, chmodSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { parseGmailLabels, readFileMessages } from './lib/mailbox-reader.ts'
import { startLlmFake } from '#fakes/llm/server.ts'

const run = promisify(execFile)
const dir = mkdtempSync(join(tmpdir(), 'inbox-guard-cli-'))

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return cliWithEnv({}, ...args)
}

async function cliWithEnv(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli/classify.ts', ...args], {
      cwd: process.cwd(),
      env: { ...process.env, LLM_BASE_URL: '', LLM_API_KEY: '', LLM_MODEL: '', ...env },
    })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

function message(from: string, to: string, subject: string, date: string, body: string, extra = ''): string {
  return `From ${from} ${date}\nFrom: ${from}\nTo: ${to}\nSubject: ${subject}\nDate: ${date}\nMessage-ID: <${subject.replace(/\W/g, '')}@t>\n${extra}\n${body}\n\n`
}

const pitch = 'I came across your company and wanted to ask a quick question. We help SaaS teams book more demos with our lead lists. Do you have 15 minutes for a quick call next week? If you are not interested, just reply stop.'

const mbox = join(dir, 'takeout.mbox')
writeFileSync(
  mbox,
  [
    // Sorted in file order newest-first on purpose: contacts must follow date order, not file order.
    message('sam@acme-growth.example', 'me@home.example', 'Quick question', 'Tue, 05 Mar 2024 10:00:00 +0000', pitch, 'X-Gmail-Labels: Inbox,Opened,"Leads, 2024"\n'),
    'From broken@example Tue Mar  5 10:00:00 2024\nthis line is not a header\nneither is this\n\n',
    message('me@home.example', 'sam@acme-growth.example', 'Intro', 'Mon, 04 Mar 2024 10:00:00 +0000', 'Hi Sam, nice to meet you.\n>From the notes: see you soon.', 'X-Gmail-Labels: Sent,"Work, Clients"\n'),
    message('sam@acme-growth.example', 'me@home.example', 'Quick question (old)', 'Sun, 03 Mar 2024 10:00:00 +0000', pitch),
  ].join(''),
  'latin1',
)

describe('npm run classify (dry run)', () => {
  it('--json prints one line per message, reports a malformed message on stderr and skips it', async () => {
    const r = await cli(mbox, '--json')
    expect(r.code).toBe(0)
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines).toHaveLength(3)
    for (const l of lines) expect(Object.keys(l).sort()).toEqual(['action', 'category', 'confidence', 'from', 'messageId', 'reasons', 'subject'])
    expect(r.stderr).toMatch(/skipped .*takeout\.mbox #2: The message does not start with a header line/)
  })

  it('--me makes people you wrote to known contacts for later messages only (date order)', async () => {
    const r = await cli(mbox, '--json', '--me', 'me@home.example')
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { subject: string; category: string; reasons: string[] })
    const later = lines.find((l) => l.subject === 'Quick question')
    const earlier = lines.find((l) => l.subject === 'Quick question (old)')
    expect(later?.reasons[0]).toBe('You have written to this sender before')
    expect(later?.category).not.toBe('unwanted')
    expect(earlier?.reasons).not.toContain('You have written to this sender before')
    expect(lines.find((l) => l.subject === 'Intro')?.reasons).toEqual(['You sent this message yourself'])
  })

  it('prints a summary table without --json', async () => {
    const r = await cli(mbox, '--threshold', '0.6', '--strictness', 'strict')
    expect(r.code).toBe(0)
    // Without --me nothing is known to be the person's own mail, whatever its Gmail labels say.
    expect(r.stdout).toMatch(/3 messages read, 1 skipped \(see above\)\./)
    expect((await cli(mbox, '--me', 'me@home.example')).stdout).toMatch(/3 messages read, 1 skipped \(see above\), 1 sent by you\./)
    expect(r.stdout).toMatch(/category\s+messages\s+would be moved/)
    expect(r.stdout).toMatch(/Settings: strictness strict, threshold 0\.6/)
    expect(r.stderr).not.toContain('[#') // no progress bar when stderr is not a terminal
    expect(r.stdout).toMatch(/Gmail labels of the messages that would be moved:\n.*\n(Inbox\s+\d+|Leads, 2024\s+\d+)/)
  })

  it('exits non-zero when not one message could be classified (random bytes)', async () => {
    const noise = join(dir, 'noise.bin')
    writeFileSync(noise, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)))
    const r = await cli(noise)
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/error: No message in .*noise\.bin could be classified/)
    expect((await cli(noise, '--json')).code).not.toBe(0)
  })

  it('exits non-zero with a clear message for an unreadable path', async () => {
    const r = await cli(join(dir, 'missing.mbox'))
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/error: Cannot read .*missing\.mbox: no such file or folder/)
    if (process.getuid?.() !== 0) {
      const locked = join(dir, 'locked.mbox')
      writeFileSync(locked, 'x')
      chmodSync(locked, 0)
      const r2 = await cli(locked)
      expect(r2.code).not.toBe(0)
    }
  })

  it('--llm needs the LLM settings in the environment', async () => {
    const r = await cli(mbox, '--llm')
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--llm needs LLM_BASE_URL, LLM_API_KEY and LLM_MODEL in the environment.')
  })

  it('--llm keeps working when the provider fails (falls back to the local model)', async () => {
    const fake = await startLlmFake({ apiKey: 'k' })
    try {
      fake.injectFault({ kind: 'status', status: 500, times: 100 })
      const r = await cliWithEnv({ LLM_BASE_URL: fake.baseURL, LLM_API_KEY: 'k', LLM_MODEL: 'fake-1' }, mbox, '--llm', '--json')
      expect(r.code).toBe(0)
      expect(r.stdout.trim().split('\n')).toHaveLength(3)
    } finally {
      await fake.close()
    }
  })

  it('rejects a threshold outside 0.1–1', async () => {
    const r = await cli(mbox, '--threshold', '5')
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--threshold must be a number from 0.1 to 1.')
  })
})

describe('mailbox reader', () => {
  it('splits on From_ lines after a blank line only and undoes >From quoting', async () => {
    const items = []
    for await (const item of readFileMessages(mbox)) items.push(item)
    expect(items).toHaveLength(4)
    expect(items[2]?.raw).toContain('\nFrom the notes: see you soon.')
    expect(items[2]?.raw).not.toContain('>From the notes')
  })

  it('reads a single .eml without a From_ line as one message', async () => {
    const eml = join(dir, 'one.eml')
    writeFileSync(eml, 'From: a@b.example\r\nSubject: hi\r\n\r\nFrom here on it is body.\r\n')
    const items = []
    for await (const item of readFileMessages(eml)) items.push(item)
    expect(items).toHaveLength(1)
  })

  it('parses Takeout X-Gmail-Labels, including quoted labels with commas', () => {
    expect(parseGmailLabels('Inbox,Important,"Work, Clients",Category Promotions')).toEqual(['Inbox', 'Important', 'Work, Clients', 'Category Promotions'])
    expect(parseGmailLabels('')).toEqual([])
  })
})
