import type { DomainListKind } from '#shared/api/domain-lists.ts'

/**
 * Every user-facing text of the domain lists, in one place. The SPEC 8 "Domain lists" texts are word
 * for word; the validation texts come from the shared contract (SPEC 5), so client and server agree.
 */
export const DOMAIN_LIST_MESSAGES = {
  title: { whitelist: 'Whitelisted Domains', blacklist: 'Blacklisted Domains' } satisfies Record<DomainListKind, string>,
  description: {
    whitelist: 'Mail from these domains and their subdomains always stays in your inbox, whatever else it looks like.',
    blacklist: 'Mail from these domains and their subdomains is always filed away as cold outreach.',
  } satisfies Record<DomainListKind, string>,
  inputLabel: { whitelist: 'Domain to whitelist', blacklist: 'Domain to blacklist' } satisfies Record<DomainListKind, string>,
  placeholder: 'example.com',
  add: 'Add',
  remove: (domain: string) => `Remove ${domain}`,
  listLabel: { whitelist: 'Whitelisted domains', blacklist: 'Blacklisted domains' } satisfies Record<DomainListKind, string>,
  empty: {
    whitelist: 'No whitelisted domains yet. Add the domains of people and companies whose mail you always want.',
    blacklist: 'No blacklisted domains yet. Add a domain to file all of its mail away.',
  } satisfies Record<DomainListKind, string>,
  loading: (kind: DomainListKind) => `Loading your ${kind}`,
  retry: 'Try again',
  added: (kind: DomainListKind, domain: string) => `Domain "${domain}" added to your ${kind}.`,
  removed: (kind: DomainListKind, domain: string) => `Domain "${domain}" removed from your ${kind}.`,

  // SPEC 8 "Domain lists", word for word
  alreadyListed: (kind: DomainListKind, domain: string) => `Domain "${domain}" is already in your ${kind}.`,
  addFailed: (message: string) => `Failed to add domain: ${message}`,
  removeFailed: (message: string) => `Failed to remove domain: ${message}`,
  loadFailed: (kind: DomainListKind, message: string) => `Error loading ${kind}: ${message}`,
} as const
