import { createHmac } from 'node:crypto'

/**
 * Demo identities and the stable identifiers the fakes derive from an email address.
 *
 * Identifiers are derived with a fixed key (not a per-start random one) so that a demo user who signs in
 * again after a restart maps to the same account row: the app keys Google users on `sub` and Microsoft
 * users on (`tid`, `oid`) — providers.md A1 and B1.
 */

export interface DemoIdentity {
  name: string
  email: string
}

export const DEMO_IDENTITIES: readonly DemoIdentity[] = [
  { name: 'Alex Morgan', email: 'alex.morgan@example.com' },
  { name: 'Priya Natarajan', email: 'priya@example.org' },
  { name: 'Sam Okafor', email: 'sam.okafor@example.net' },
]

/** Tenant id Microsoft uses for every personal (MSA) account — providers.md B1. */
export const MSA_CONSUMER_TENANT_ID = '9188040d-6c67-4c5b-b112-36a304b66dad'

const CONSUMER_DOMAINS = new Set(['outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'gmail.com', 'yahoo.com', 'icloud.com'])

// Not a secret: it only has to make the derived identifiers stable and unguessable-looking.
const DERIVATION_KEY = 'inbox-guard-identity-fakes-v1'

function digest(...parts: string[]): Buffer {
  return createHmac('sha256', DERIVATION_KEY).update(parts.join('\u0000')).digest()
}

function guidFrom(bytes: Buffer): string {
  const hex = bytes.subarray(0, 16).toString('hex')
  // Version 4 / RFC 4122 variant bits so the value looks like what Entra ID hands out.
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

/** Google `sub`: a 21-digit decimal string starting with 1, like real Google account ids. */
export function googleSubject(email: string): string {
  const n = BigInt(`0x${digest('google-sub', normalizeEmail(email)).subarray(0, 16).toString('hex')}`)
  return `1${(n % 10n ** 20n).toString().padStart(20, '0')}`
}

export function isConsumerDomain(email: string): boolean {
  return CONSUMER_DOMAINS.has(emailDomain(email))
}

export function emailDomain(email: string): string {
  return normalizeEmail(email).split('@')[1] ?? ''
}

/** Microsoft `tid`: the consumer tenant for personal mail domains, otherwise a stable GUID per domain. */
export function microsoftTenantId(email: string): string {
  return isConsumerDomain(email) ? MSA_CONSUMER_TENANT_ID : guidFrom(digest('ms-tid', emailDomain(email)))
}

/**
 * Microsoft `oid`: the same for every app. Personal accounts get the 00000000-0000-0000-… shape that
 * Microsoft uses for MSA users in the consumer tenant.
 */
export function microsoftObjectId(email: string): string {
  const guid = guidFrom(digest('ms-oid', normalizeEmail(email)))
  return isConsumerDomain(email) ? `00000000-0000-0000-${guid.slice(19)}` : guid
}

/** Microsoft `sub`: pairwise per application (43 base64url characters, as Entra ID issues). */
export function microsoftPairwiseSubject(email: string, clientId: string): string {
  return digest('ms-sub', normalizeEmail(email), clientId).toString('base64url')
}

export function splitName(name: string): { given: string; family: string } {
  const parts = name.trim().split(/\s+/)
  if (parts.length < 2) return { given: parts[0] ?? '', family: '' }
  return { given: parts.slice(0, -1).join(' '), family: parts[parts.length - 1] ?? '' }
}

// Deliberately simple: one @, a dot in the domain, no spaces. Enough to catch typos on the consent page.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function isValidEmail(email: string): boolean {
  return email.length <= 254 && EMAIL_PATTERN.test(email.trim())
}

/** Name to use when the person typed only an email: "jane.doe@x" → "Jane Doe". */
export function nameFromEmail(email: string): string {
  const local = normalizeEmail(email).split('@')[0] ?? ''
  return local
    .split(/[._+-]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ')
}
