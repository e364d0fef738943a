import { and, asc, count, eq } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { domainListEntries } from '#server/db/schema.ts'
import type { DomainEntry, DomainListKind } from '#shared/api/domain-lists.ts'

/** Enough for any real allow/deny list; a limit keeps a script from growing one without bound. */
export const MAX_DOMAINS_PER_LIST = 1000

export class DomainListError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

export async function listDomains(db: Database, userId: number, kind: DomainListKind): Promise<DomainEntry[]> {
  return db
    .select({ id: domainListEntries.id, domain: domainListEntries.domain })
    .from(domainListEntries)
    .where(and(eq(domainListEntries.userId, userId), eq(domainListEntries.kind, kind)))
    .orderBy(asc(domainListEntries.domain))
}

/** Adds a lowercased domain; a duplicate is 409 with "already whitelisted/blacklisted" (SPEC 8). */
export async function addDomain(db: Database, userId: number, kind: DomainListKind, domain: string): Promise<DomainEntry> {
  const [{ n } = { n: 0 }] = await db
    .select({ n: count() })
    .from(domainListEntries)
    .where(and(eq(domainListEntries.userId, userId), eq(domainListEntries.kind, kind)))
  if (Number(n) >= MAX_DOMAINS_PER_LIST) throw new DomainListError(400, 'list_full', `Your ${kind} can hold at most ${MAX_DOMAINS_PER_LIST} domains.`)
  const [entry] = await db
    .insert(domainListEntries)
    .values({ userId, kind, domain })
    .onConflictDoNothing()
    .returning({ id: domainListEntries.id, domain: domainListEntries.domain })
  if (!entry) throw new DomainListError(409, 'duplicate', `${domain} is already ${kind === 'whitelist' ? 'whitelisted' : 'blacklisted'}.`)
  return entry
}

export async function removeDomain(db: Database, userId: number, kind: DomainListKind, domain: string): Promise<void> {
  const removed = await db
    .delete(domainListEntries)
    .where(and(eq(domainListEntries.userId, userId), eq(domainListEntries.kind, kind), eq(domainListEntries.domain, domain)))
    .returning({ id: domainListEntries.id })
  if (removed.length === 0) throw new DomainListError(404, 'not_found', `${domain} is not in your ${kind}.`)
}
