import { randomBytes } from 'node:crypto'
import { rng } from '#classifier/model.ts'
import { buildRawMessage } from '#fakes/gmail/rfc822.ts'
import { loadDemoMailbox, type DemoMessage } from '#fakes/mail-seed/seed.ts'

/**
 * The mail the soak delivers: the demo corpus (src/fakes/mail-seed: genuine, informational,
 * transactional, promotional and cold outreach as a person would get them, the one demo mode uses)
 * filled in for each mailbox's owner, mixed with generated cold pitches and personal notes from many
 * senders, so prior-correspondence lookups keep meeting new senders. Every message gets its own
 * Message-ID, as real deliveries have.
 */

export type MailKind = 'corpus' | 'pitch' | 'personal'

export interface SoakMessage {
  kind: MailKind
  /** What the corpus says a careful person would call it (generated mail: unwanted / genuine). */
  expected: string
  raw: string
}

const PITCHES = [
  'We help founders book 20+ qualified sales meetings a month with outbound lead generation. Open to a quick 15-minute call next week?',
  'I noticed your team is growing fast. Our platform cuts cloud costs by 30% for companies like yours. Worth a short chat on Thursday?',
  'Quick question: who handles vendor decisions for marketing at your company? We place SaaS brands on 40 podcasts a month.',
  'Following up on my last note. We build custom dashboards in two weeks, fixed price. Can I send over a few case studies?',
]
const NOTES = [
  'Are we still on for dinner on Saturday? Tom brings the kids, I will bring dessert.',
  'Thanks for the notes from yesterday. I updated the draft; can you look at section 3 before Friday?',
  'The photos from the trip are in the shared album now. The one at the lake came out great.',
  'Can you pick up the keys from the neighbour tomorrow? I will be back late on Wednesday.',
]

const withMessageId = (raw: string, id: string) => {
  const at = raw.indexOf('\r\n\r\n')
  const head = at === -1 ? raw : raw.slice(0, at)
  const rest = at === -1 ? '' : raw.slice(at)
  const replaced = /^message-id:.*$/im.test(head) ? head.replace(/^message-id:.*$/im, `Message-ID: ${id}`) : `${head}\r\nMessage-ID: ${id}`
  return replaced + rest
}

export function mailMaker(random: () => number) {
  const corpus = new Map<string, DemoMessage[]>()
  let n = 0
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!

  /** The owner's sent mail from the corpus: seeded before connecting, so earlier correspondence exists. */
  function sentMail(owner: string): DemoMessage[] {
    return corpusOf(owner).filter((m) => m.folder === 'sent')
  }

  function corpusOf(owner: string): DemoMessage[] {
    let messages = corpus.get(owner)
    if (!messages) {
      messages = loadDemoMailbox({ address: owner, name: owner.split('@')[0]! })
      corpus.set(owner, messages)
    }
    return messages
  }

  /** The next message for `owner`: 50% corpus inbox mail, 30% cold pitches, 20% personal notes. */
  function next(owner: string): SoakMessage {
    n++
    const id = `<soak-${n}-${randomBytes(4).toString('hex')}@soak.invalid>`
    const roll = random()
    if (roll < 0.5) {
      const message = pick(corpusOf(owner).filter((m) => m.folder === 'inbox'))
      return { kind: 'corpus', expected: message.expected, raw: withMessageId(message.raw, id) }
    }
    if (roll < 0.8) {
      const s = Math.floor(random() * 400)
      const company = `growth-${s % 60}.example`
      return {
        kind: 'pitch',
        expected: 'unwanted',
        raw: buildRawMessage({ from: `Alex ${s} <alex${s}@${company}>`, to: owner, subject: `Quick question for you (${n})`, text: pick(PITCHES), messageId: id }),
      }
    }
    const s = Math.floor(random() * 40)
    return {
      kind: 'personal',
      expected: 'genuine',
      raw: buildRawMessage({ from: `Sam ${s} <sam${s}@example.net>`, to: owner, subject: `About the weekend (${n})`, text: pick(NOTES), messageId: id }),
    }
  }

  return { next, sentMail }
}

/** A small seeded generator (the classifier's mulberry32), so a run's schedule of mail and faults can be repeated. */
export const seededRandom: (seed: number) => () => number = rng
