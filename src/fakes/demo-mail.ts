import { startGmailFake, type GmailFake } from './gmail/server.ts'
import { startGraphMailFake, type GraphMailFake } from './graph-mail/server.ts'
import { nameFromEmail, normalizeEmail } from './identity/identities.ts'
import type { IdentityFakes } from './identity/server.ts'
import { loadDemoMailbox } from './mail-seed/seed.ts'

export type DemoMailProvider = 'gmail' | 'outlook'

export interface DemoMail {
  gmail: GmailFake
  graph: GraphMailFake
  /**
   * Fills a demo mailbox with the demo messages if it is empty. `arriving`: as new mail (history and
   * push, so the first sync decides it: the newcomer sees filtering at once); otherwise as mail that was
   * already there (after a restart of the demo, whose mailboxes live in memory).
   */
  prepare(provider: DemoMailProvider, address: string, options?: { arriving?: boolean }): Promise<void>
  /** New mail into the connected demo mailbox with this address, with the push a real provider sends; null when there is none. */
  deliver(to: string, raw: string): Promise<{ provider: DemoMailProvider; id: string } | null>
  close(): Promise<void>
}

/**
 * The demo mailboxes (issue 12): the Gmail and Graph mail fakes on loopback, behind the identity fakes'
 * tokens, with every newly connected mailbox holding the demo messages (src/fakes/mail-seed). Gmail
 * pushes to the app's webhook like Pub/Sub; Graph sends change notifications to the subscription's URL.
 */
export async function startDemoMail(options: { identity: IdentityFakes; host: string; gmailPushEndpoint: string }): Promise<DemoMail> {
  const [gmail, graph] = await Promise.all([
    startGmailFake({ identity: options.identity, host: options.host, pushEndpoint: options.gmailPushEndpoint }),
    startGraphMailFake({ identity: options.identity, host: options.host }),
  ])
  const connected = new Map<string, DemoMailProvider>()

  return {
    gmail,
    graph,
    async prepare(provider, address, options = {}) {
      const key = normalizeEmail(address)
      connected.set(key, provider)
      const owner = { address, name: nameFromEmail(address) }
      const messages = loadDemoMailbox(owner)
      // Sent mail is history either way: it makes earlier correspondence visible to the classifier.
      const sent = messages.filter((m) => m.folder === 'sent')
      const inbox = messages.filter((m) => m.folder !== 'sent')
      if (provider === 'gmail') {
        if (gmail.mailbox(address).messages.length > 0) return
        gmail.seed(address, [...sent, ...(options.arriving ? [] : inbox)].map((m) => ({ raw: m.raw, receivedAt: m.receivedAt, labelIds: m.folder === 'sent' ? ['SENT'] : ['INBOX'] })))
        if (options.arriving) for (const m of inbox) gmail.deliver(address, m.raw, { receivedAt: m.receivedAt })
      } else {
        if (graph.mailbox(address).messages.length > 0) return
        await graph.seed(
          address,
          [...sent, ...(options.arriving ? [] : inbox)].map((m) => ({ raw: m.raw, receivedAt: m.receivedAt, folder: m.folder === 'sent' ? 'sentitems' : 'inbox', isRead: m.folder === 'sent' })),
        )
        if (options.arriving) for (const m of inbox) await graph.deliver(address, m.raw, { receivedAt: m.receivedAt })
      }
    },
    async deliver(to, raw) {
      const provider = connected.get(normalizeEmail(to))
      if (!provider) return null
      if (provider === 'gmail') return { provider, id: gmail.deliver(to, raw).id }
      return { provider, id: (await graph.deliver(to, raw)).id }
    },
    close: async () => {
      await Promise.all([gmail.close(), graph.close()])
    },
  }
}
