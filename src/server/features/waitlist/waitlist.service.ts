import type { Database } from '#server/db/client.ts'
import { waitlistEntries } from '#server/db/schema.ts'
import type { WaitlistBody } from '#shared/api/waitlist.ts'

/**
 * Team plan waitlist (SPEC 4 "Plan cards": Team is not self-serve). One entry per email address,
 * case-insensitive; a repeat submission keeps the first entry and still succeeds.
 */
export async function joinWaitlist(db: Database, userId: number, entry: WaitlistBody): Promise<void> {
  await db
    .insert(waitlistEntries)
    .values({ name: entry.name, email: entry.email, userId })
    .onConflictDoNothing()
}
