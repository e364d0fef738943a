import { readdirSync } from 'node:fs'
import path from 'node:path'
import PostalMime from 'postal-mime'
import type { Address, Email } from 'postal-mime'
import { describe, expect, it } from 'vitest'
import { CATEGORIES } from '#classifier/types.ts'
import { decodeQuotedPrintable, encodeQuotedPrintable, formatRfc2822Date, parseDateOffset } from './mime.ts'
import { MESSAGES_DIR, loadDemoMailbox, readManifest, type DemoMessage, type DemoOwner } from './seed.ts'

const NOW = new Date('2026-05-20T10:00:00Z')
const OWNERS: DemoOwner[] = [
  { address: 'alex.morgan@example.com', name: 'Alex Morgan' },
  // Non-ASCII, a quote and specials: every header and body encoding has to carry it.
  { address: 'zoe@example.net', name: 'Zoë "Zo" Łącka-Brandt' },
  // No display name at all: greetings fall back to the address's local part.
  { address: 'sam.okafor@example.org', name: '' },
]

function emlFiles(dir: string, rel = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = rel ? `${rel}/${entry.name}` : entry.name
    if (entry.isDirectory()) return emlFiles(path.join(dir, entry.name), relative)
    return entry.name.endsWith('.eml') ? [relative] : []
  })
}

function mailboxes(address: Address | undefined): { name: string; address: string }[] {
  if (!address) return []
  return address.group ? address.group : [{ name: address.name, address: address.address ?? '' }]
}

async function parseAll(owner: DemoOwner): Promise<{ message: DemoMessage; email: Email }[]> {
  const messages = loadDemoMailbox(owner, NOW)
  return Promise.all(messages.map(async (message) => ({ message, email: await PostalMime.parse(message.raw) })))
}

describe('manifest', () => {
  it('lists every message file exactly once, and nothing else', () => {
    const manifest = readManifest().map((entry) => entry.file)
    expect(new Set(manifest).size).toBe(manifest.length)
    expect([...manifest].sort()).toEqual(emlFiles(MESSAGES_DIR).sort())
  })

  it('has at least 5 inbox messages per category and at least 5 languages', () => {
    const inbox = readManifest().filter((entry) => (entry.folder ?? 'inbox') === 'inbox')
    for (const category of CATEGORIES) {
      expect(inbox.filter((entry) => entry.expected === category).length, category).toBeGreaterThanOrEqual(5)
    }
    const languages = new Set(inbox.map((entry) => entry.language))
    expect(languages.size).toBeGreaterThanOrEqual(5)
    // About a third of the inbox is not in English.
    expect(inbox.filter((entry) => entry.language !== 'en').length / inbox.length).toBeGreaterThanOrEqual(0.25)
  })

  it('puts the sent messages, and only those, in sent/', () => {
    for (const entry of readManifest()) {
      expect(entry.file.startsWith('sent/'), entry.file).toBe(entry.folder === 'sent')
    }
  })
})

describe.each(OWNERS)('loadDemoMailbox for $address', (owner) => {
  it('gives messages that postal-mime parses, with a From, Subject, Message-ID and body text', async () => {
    for (const { message, email } of await parseAll(owner)) {
      const from = mailboxes(email.from)[0]
      expect(from?.address, message.file).toMatch(/^[^@\s]+@[^@\s]+$/)
      expect(email.subject?.trim(), message.file).toBeTruthy()
      expect(email.messageId, message.file).toMatch(/^<[^<>\s]+@[^<>\s]+>$/)
      expect(email.text?.trim().length ?? 0, message.file).toBeGreaterThan(20)
    }
  })

  it('replaces every placeholder, in headers and in every part', async () => {
    for (const { message, email } of await parseAll(owner)) {
      expect(message.raw, message.file).not.toMatch(/\{\{|\}\}/)
      const texts = [email.subject, email.text, email.html, ...email.attachments.map((a) => (typeof a.content === 'string' ? a.content : new TextDecoder().decode(a.content)))]
      for (const text of texts) expect(text ?? '', message.file).not.toMatch(/\{\{|\}\}/)
      for (const mailbox of [...(email.to ?? []), ...(email.cc ?? [])].flatMap(mailboxes)) {
        // Where the owner is addressed by name, it is the owner's name, decoded intact.
        if (mailbox.address === owner.address && mailbox.name) expect(mailbox.name, message.file).toBe(owner.name)
      }
    }
  })

  it('addresses (nearly) every inbox message to the owner', async () => {
    const direct = (await parseAll(owner)).filter(({ message, email }) => message.folder === 'inbox' && [...(email.to ?? []), ...(email.cc ?? [])].flatMap(mailboxes).some((m) => m.address === owner.address))
    expect(direct.length).toBeGreaterThanOrEqual(35)
  })

  it('dates every message in the past, oldest first, with a matching Date header', async () => {
    const parsed = await parseAll(owner)
    let previous = -Infinity
    for (const { message, email } of parsed) {
      expect(message.receivedAt.getTime(), message.file).toBeLessThan(NOW.getTime())
      expect(message.receivedAt.getTime(), message.file).toBeGreaterThanOrEqual(NOW.getTime() - 21 * 86_400_000)
      expect(message.receivedAt.getTime()).toBeGreaterThanOrEqual(previous)
      previous = message.receivedAt.getTime()
      expect(Date.parse(email.date ?? ''), message.file).toBe(Math.floor(message.receivedAt.getTime() / 1000) * 1000)
      expect(message.raw, message.file).toMatch(/^Date: (Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}\r$/m)
    }
  })

  it('uses CRLF line endings and no line longer than 998 characters', () => {
    for (const message of loadDemoMailbox(owner, NOW)) {
      expect(message.raw, message.file).not.toMatch(/[^\r]\n|\r[^\n]/)
      expect(Math.max(...message.raw.split('\r\n').map((line) => line.length)), message.file).toBeLessThanOrEqual(998)
    }
  })

  it('sends the sent messages from the owner, and nothing else', async () => {
    const parsed = await parseAll(owner)
    const sent = parsed.filter(({ message }) => message.folder === 'sent')
    expect(sent.length).toBe(4)
    for (const { message, email } of parsed) {
      const from = mailboxes(email.from)[0]
      if (message.folder === 'sent') {
        expect(from, message.file).toEqual({ name: owner.name, address: owner.address })
      } else {
        expect(from?.address, message.file).not.toBe(owner.address)
      }
    }
  })

  it('threads replies after the messages they answer, and gives every message its own Message-ID', async () => {
    const parsed = await parseAll(owner)
    const byId = new Map(parsed.map(({ message, email }) => [email.messageId, message]))
    expect(byId.size).toBe(parsed.length)
    let repliesToOwner = 0
    for (const { message, email } of parsed) {
      const original = email.inReplyTo ? byId.get(email.inReplyTo) : undefined
      if (!original) continue
      expect(original.receivedAt.getTime(), message.file).toBeLessThan(message.receivedAt.getTime())
      if (original.folder === 'sent') repliesToOwner++
    }
    expect(repliesToOwner).toBe(4)
  })

  it('puts the calendar invitation in the future', () => {
    const starts = loadDemoMailbox(owner, NOW).flatMap((m) => [...m.raw.matchAll(/^DTSTART:(\d{8}T\d{6}Z)\r$/gm)].map((x) => x[1] ?? ''))
    expect(starts.length).toBeGreaterThan(0)
    for (const start of starts) {
      const iso = start.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z')
      expect(Date.parse(iso)).toBeGreaterThan(NOW.getTime())
    }
  })
})

it('is deterministic for one owner and one moment', () => {
  const [first, second] = [loadDemoMailbox(OWNERS[0] as DemoOwner, NOW), loadDemoMailbox(OWNERS[0] as DemoOwner, NOW)]
  expect(second).toEqual(first)
})

describe('mime helpers', () => {
  it('round-trips quoted-printable with long non-ASCII lines, "=" and trailing spaces', () => {
    const text = `${'Żółć é = 100 % '.repeat(12)}\nline with trailing space \n\nend`
    const encoded = encodeQuotedPrintable(text)
    for (const line of encoded.split('\n')) expect(line.length).toBeLessThanOrEqual(76)
    expect(decodeQuotedPrintable(encoded)).toBe(text)
  })

  it('formats RFC 2822 dates in the sender offset', () => {
    const date = new Date('2026-03-01T23:30:05Z')
    expect(formatRfc2822Date(date, 60)).toBe('Mon, 02 Mar 2026 00:30:05 +0100')
    expect(formatRfc2822Date(date, -300)).toBe('Sun, 01 Mar 2026 18:30:05 -0500')
    expect(parseDateOffset('Wed, 5 Mar 2025 10:18:44 +0530')).toBe(330)
    expect(parseDateOffset('Wed, 5 Mar 2025 10:18:44 -0500 (EST)')).toBe(-300)
  })
})
