// npm run classify -- <file.mbox | file.eml | folder> [--me <address>] [--json] [--threshold 0.7]
//                     [--strictness balanced] [--move informational,promotional] [--llm]
// A dry run: shows what the filter would do to a mailbox (e.g. a Gmail Takeout mbox) without
// touching it. Streams the input; see docs/classifier.md ("Dry-run CLI").

import { parseArgs } from 'node:util'
import OpenAI from 'openai'
import { parseRawMessage, domainOf } from '#classifier/message.ts'
import type { NormalisedMessage } from '#classifier/message.ts'
import { createClassifier } from '#classifier/classify.ts'
import type { LlmJudge } from '#classifier/classify.ts'
import { createOpenAiJudge } from '#classifier/llm/adapter.ts'
import { orgDomainOf, PUBLIC_DOMAINS } from '#classifier/signals.ts'
import { CATEGORIES, DEFAULT_SETTINGS } from '#classifier/types.ts'
import type { Category, ClassifierContext, ClassifierSettings, Decision, Strictness } from '#classifier/types.ts'
import { InputError, parseGmailLabels, readMessages, totalBytes } from './lib/mailbox-reader.ts'
import { readModel } from './lib/model-file.ts'
import { formatTable } from './lib/metrics.ts'

const USAGE = `Usage: npm run classify -- <file.mbox | file.eml | folder> [options]

Shows what Inbox Guard would do to each message, without changing anything.

Options:
  --me <address>          your address: people you wrote to become known contacts for later mail
  --json                  one JSON object per message on stdout
  --threshold <0.1-1>     confidence needed before a message is moved (default ${DEFAULT_SETTINGS.confidenceThreshold})
  --strictness <level>    relaxed | balanced | strict (default balanced)
  --move <kinds>          also move these wanted kinds, comma-separated: informational,promotional,transactional
  --llm                   ask the LLM configured by LLM_BASE_URL, LLM_API_KEY, LLM_MODEL about uncertain mail
  -h, --help              this help`

function fail(message: string, code = 2): never {
  process.stderr.write(`error: ${message}\n`)
  process.exit(code)
}

function readArgs() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        me: { type: 'string' },
        json: { type: 'boolean', default: false },
        threshold: { type: 'string' },
        strictness: { type: 'string' },
        move: { type: 'string' },
        llm: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
  } catch (err) {
    return fail(`${(err as Error).message}\n\n${USAGE}`)
  }
}
const args = readArgs()
// A closed pipe (`| head`) ends the run quietly.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0)
  throw err
})
if (args.values.help) {
  process.stdout.write(USAGE + '\n')
  process.exit(0)
}
const input = args.positionals[0]
if (!input || args.positionals.length > 1) fail(`give exactly one file or folder.\n\n${USAGE}`)

const threshold = args.values.threshold === undefined ? DEFAULT_SETTINGS.confidenceThreshold : Number(args.values.threshold)
if (!Number.isFinite(threshold) || threshold < 0.1 || threshold > 1) fail('--threshold must be a number from 0.1 to 1.')
const strictness = (args.values.strictness ?? 'balanced') as Strictness
if (!['relaxed', 'balanced', 'strict'].includes(strictness)) fail('--strictness must be relaxed, balanced or strict.')
const move = new Set((args.values.move ?? '').split(',').map((s) => s.trim()).filter(Boolean))
for (const m of move) if (!['informational', 'promotional', 'transactional'].includes(m)) fail(`--move accepts informational, promotional, transactional (got "${m}").`)
const me = args.values.me?.trim().toLowerCase()
if (me !== undefined && !/^[^\s@]+@[^\s@]+$/.test(me)) fail('--me must be an e-mail address.')

const settings: ClassifierSettings = {
  allowInformational: !move.has('informational'),
  allowPromotional: !move.has('promotional'),
  allowTransactional: !move.has('transactional'),
  confidenceThreshold: threshold,
  strictness,
}

let llm: LlmJudge | undefined
if (args.values.llm) {
  // Only the CLI reads the LLM settings from the environment (the server has its own config).
  const baseURL = process.env.LLM_BASE_URL
  const apiKey = process.env.LLM_API_KEY
  const model = process.env.LLM_MODEL
  if (!baseURL || !apiKey || !model) fail('--llm needs LLM_BASE_URL, LLM_API_KEY and LLM_MODEL in the environment.')
  llm = createOpenAiJudge({
    config: { baseURL, apiKey, model },
    client: new OpenAI({ baseURL, apiKey, maxRetries: 0 }),
    onError: (err) => process.stderr.write(`warning: LLM unavailable, using the local model (${(err as Error).message})\n`),
  })
}

const classifier = createClassifier({ model: readModel(), llm })

/** Sent by the person: from --me, or (Gmail Takeout) labelled "Sent" when --me is given (aliases). */
function isSent(m: NormalisedMessage): boolean {
  if (!me) return false
  if (m.from?.address === me) return true
  return gmailLabels(m).includes('Sent')
}

function gmailLabels(m: NormalisedMessage): string[] {
  const v = m.headers['x-gmail-labels']
  return v ? parseGmailLabels(v.join(',')) : []
}

const timeOf = (m: NormalisedMessage) => (m.date ? Date.parse(m.date) : Number.NEGATIVE_INFINITY)

/** First pass (only with --me): when did the person first write to each address and organisation? */
async function collectContacts(): Promise<{ addresses: Map<string, number>; orgs: Map<string, number> }> {
  const addresses = new Map<string, number>()
  const orgs = new Map<string, number>()
  for await (const item of readMessages(input as string)) {
    let m: NormalisedMessage
    try {
      m = parseRawMessage(item.raw)
    } catch {
      continue
    }
    if (!isSent(m)) continue
    const t = timeOf(m)
    const bcc = (m.headers['bcc'] ?? []).join(', ')
    const recipients = [...m.to, ...m.cc].map((a) => a.address)
    for (const r of bcc.match(/[^\s<>,;"]+@[^\s<>,;"]+/g) ?? []) recipients.push(r.toLowerCase())
    for (const a of recipients) {
      if (a === me) continue
      if ((addresses.get(a) ?? Infinity) > t) addresses.set(a, t)
      const d = domainOf(a)
      if (d && !PUBLIC_DOMAINS.has(d)) {
        const o = orgDomainOf(d)
        if ((orgs.get(o) ?? Infinity) > t) orgs.set(o, t)
      }
    }
  }
  return { addresses, orgs }
}

function contextFor(m: NormalisedMessage, contacts: { addresses: Map<string, number>; orgs: Map<string, number> }): ClassifierContext {
  const t = timeOf(m)
  const sender = m.from?.address ?? ''
  // "Known" means written to strictly before this message arrived (date order, not file order).
  const firstWrote = contacts.addresses.get(sender)
  const org = orgDomainOf(domainOf(sender))
  const firstOrg = contacts.orgs.get(org)
  return {
    me,
    orgDomain: me && !PUBLIC_DOMAINS.has(domainOf(me)) ? orgDomainOf(domainOf(me)) : null,
    whitelistDomains: [],
    blacklistDomains: [],
    knownAddresses: firstWrote !== undefined && (firstWrote < t || t === Number.NEGATIVE_INFINITY) ? [sender] : [],
    knownDomains: firstOrg !== undefined && (firstOrg < t || t === Number.NEGATIVE_INFINITY) ? [org] : [],
    settings,
  }
}

/** Groups reasons that differ only in quoted words, names or numbers ("… : “seo”, “leads”" → "… : …"). */
function summaryReason(r: string): string {
  return r
    .replace(/\d+(\.\d+)?\s?%/g, 'N %')
    .replace(/“[^”]*”(, “[^”]*”)*/g, '…')
    .replace(/"[^"]*"/g, '…')
    .replace(/\([^)]*\)/g, '(…)')
    .replace(/domain \S+ is/, 'domain is')
    .replace(/people at \S+ before/, 'people at that organisation before')
}

async function main(): Promise<void> {
  let total = 0
  try {
    total = totalBytes(input as string)
  } catch (err) {
    fail((err as Error).message)
  }
  const contacts = me ? await collectContacts() : { addresses: new Map<string, number>(), orgs: new Map<string, number>() }

  const tty = !args.values.json && process.stderr.isTTY === true
  let read = 0
  let lastDraw = 0
  const draw = (force = false) => {
    if (!tty) return
    const now = Date.now()
    if (!force && now - lastDraw < 100) return
    lastDraw = now
    const share = total > 0 ? Math.min(1, read / total) : 1
    const width = 30
    const filled = Math.round(share * width)
    process.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)} %  ${count} messages`)
  }

  const perCategory = new Map<Category, { n: number; moved: number }>(CATEGORIES.map((c) => [c, { n: 0, moved: 0 }]))
  const reasons = new Map<string, number>()
  let count = 0
  let skipped = 0
  let sent = 0
  // Gmail Takeout: where the messages that would be moved sit in Gmail today (Inbox, Spam, …).
  const movedLabels = new Map<string, number>()
  for await (const item of readMessages(input as string, (n) => {
    read += n
    draw()
  })) {
    let m: NormalisedMessage
    try {
      m = parseRawMessage(item.raw)
    } catch (err) {
      skipped++
      if (tty) process.stderr.write('\n')
      process.stderr.write(`skipped ${item.origin}: ${(err as Error).message}\n`)
      continue
    }
    count++
    const labels = gmailLabels(m)
    // Without --me nothing is known to be the person's own mail (a "Sent" label alone may be an alias's).
    if (isSent(m)) sent++
    let d: Decision
    try {
      d = llm ? await classifier.classifyWithLlm(m, contextFor(m, contacts)) : classifier.classify(m, contextFor(m, contacts))
    } catch (err) {
      skipped++
      process.stderr.write(`skipped ${item.origin}: ${(err as Error).message}\n`)
      continue
    }
    const c = perCategory.get(d.category) as { n: number; moved: number }
    c.n++
    if (d.action === 'filter') {
      c.moved++
      for (const l of labels) if (l !== 'Opened' && l !== 'Unread') movedLabels.set(l, (movedLabels.get(l) ?? 0) + 1)
    }
    if (args.values.json) {
      process.stdout.write(
        JSON.stringify({
          messageId: m.messageId,
          from: m.from?.address ?? '',
          subject: m.subject,
          category: d.category,
          confidence: d.confidence,
          action: d.action,
          reasons: d.reasons,
        }) + '\n',
      )
    } else if (d.action === 'filter') {
      for (const r of d.reasons) reasons.set(summaryReason(r), (reasons.get(summaryReason(r)) ?? 0) + 1)
    }
  }
  draw(true)
  if (tty) process.stderr.write('\n')
  const classified = [...perCategory.values()].reduce((s, c) => s + c.n, 0)
  if (classified === 0) fail(`No message in ${input as string} could be classified${skipped ? ` (${skipped} skipped, see above)` : ''}.`)
  if (args.values.json) {
    if (skipped > 0) process.stderr.write(`${skipped} message(s) skipped\n`)
    return
  }
  const moved = [...perCategory.values()].reduce((s, c) => s + c.moved, 0)
  const out = (s = '') => process.stdout.write(s + '\n')
  out(`${count} messages read${skipped ? `, ${skipped} skipped (see above)` : ''}${sent ? `, ${sent} sent by you` : ''}.`)
  out(`Settings: strictness ${strictness}, threshold ${threshold}, moving unwanted${move.size ? ' + ' + [...move].join(' + ') : ''}.`)
  out()
  out(
    formatTable(
      ['category', 'messages', 'would be moved'],
      [...[...perCategory.entries()].map(([cat, c]): (string | number)[] => [cat, c.n, c.moved]), ['total', count, moved]],
    ),
  )
  const top = [...reasons.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 8)
  if (top.length > 0) {
    out()
    out('Top reasons for moving:')
    out(formatTable(['reason', 'messages'], top.map(([r, n]) => [r, n])))
  }
  const labelsTop = [...movedLabels.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 8)
  if (labelsTop.length > 0) {
    out()
    out('Gmail labels of the messages that would be moved:')
    out(formatTable(['label', 'messages'], labelsTop.map(([l, n]) => [l, n])))
  }
  out()
  out(`Nothing was changed: this is a dry run. ${moved} of ${count} messages would be moved out of the inbox.`)
}

main().catch((err: unknown) => {
  if (err instanceof InputError) fail(err.message)
  fail(`unexpected failure: ${(err as Error).stack ?? String(err)}`, 1)
})
