import { and, eq, isNotNull } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { mailboxes } from '#server/db/schema.ts'
import type { DemoMailboxes } from './demo.routes.ts'

/**
 * Demo mailboxes live in memory: after a restart, the ones connected before are filled again (as mail
 * that was already there) and their sync starts over from the new mailbox's present.
 */
export async function prepareConnectedDemoMailboxes(db: Database, demo: Pick<DemoMailboxes, 'prepare'>) {
  const rows = await db
    .select({ id: mailboxes.id, provider: mailboxes.provider, emailAddress: mailboxes.emailAddress })
    .from(mailboxes)
    .where(and(eq(mailboxes.status, 'connected'), isNotNull(mailboxes.refreshToken)))
  for (const row of rows) {
    await demo.prepare(row.provider, row.emailAddress)
    await db.update(mailboxes).set({ syncCursor: null, pushSubscriptionId: null, pushExpiresAt: null }).where(eq(mailboxes.id, row.id))
  }
}
