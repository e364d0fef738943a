import PostalMime, { type Address, type Mailbox } from 'postal-mime'

/**
 * Minimal MIME reading for the Graph mail fake: the fields Graph derives from a message (subject,
 * from, to, cc, dates, internetMessageId, headers, body preview). Graph stores the MIME as received
 * and serves it back byte for byte from `/$value`; the fake keeps the raw text for that.
 */

export interface Recipient {
  name: string
  address: string
}

export interface ParsedMail {
  subject: string
  from: Recipient | null
  sender: Recipient | null
  to: Recipient[]
  cc: Recipient[]
  replyTo: Recipient[]
  sentAt: Date | null
  internetMessageId: string | null
  /** First id of References (or In-Reply-To): the thread root, for conversationId. */
  threadRoot: string | null
  headers: Array<{ name: string; value: string }>
  text: string
  html: string | null
  hasAttachments: boolean
}

function mailboxes(list: Address[] | Address | undefined): Recipient[] {
  const all = Array.isArray(list) ? list : list ? [list] : []
  return all.flatMap((a): Mailbox[] => (a.group ? a.group : [a])).map((m) => ({ name: m.name || m.address, address: m.address }))
}

export async function parseMail(raw: string): Promise<ParsedMail> {
  const email = await PostalMime.parse(raw)
  const from = mailboxes(email.from)[0] ?? null
  const date = email.date ? new Date(email.date) : null
  const references = (email.references ?? '').match(/<[^>]+>/g) ?? []
  const inReplyTo = (email.inReplyTo ?? '').match(/<[^>]+>/)?.[0]
  return {
    subject: email.subject ?? '',
    from,
    sender: mailboxes(email.sender)[0] ?? from,
    to: mailboxes(email.to),
    cc: mailboxes(email.cc),
    replyTo: mailboxes(email.replyTo),
    sentAt: date && !Number.isNaN(date.getTime()) ? date : null,
    internetMessageId: email.messageId ?? null,
    threadRoot: references[0] ?? inReplyTo ?? null,
    headers: email.headers.map((h) => ({ name: h.originalKey, value: h.value })),
    text: email.text ?? '',
    html: email.html ?? null,
    hasAttachments: email.attachments.some((a) => a.disposition === 'attachment'),
  }
}
