import type { DomainListKind } from '#shared/api/domain-lists.ts'
import { ApiError } from '#client/lib/api-client.ts'
import { DOMAIN_LIST_MESSAGES } from '../messages.ts'

/**
 * SPEC 8 "Domain lists": a 409, or a message saying 'already whitelisted' / 'already blacklisted',
 * means the domain is on the list already (the input is cleared: there is nothing to fix);
 * anything else is 'Failed to add domain: {message}'.
 */
export function describeAddError(kind: DomainListKind, domain: string, error: Error): { text: string; alreadyListed: boolean } {
  const alreadyListed = (error instanceof ApiError && error.status === 409) || error.message.toLowerCase().includes(`already ${kind}ed`)
  return alreadyListed
    ? { text: DOMAIN_LIST_MESSAGES.alreadyListed(kind, domain), alreadyListed }
    : { text: DOMAIN_LIST_MESSAGES.addFailed(error.message), alreadyListed }
}
