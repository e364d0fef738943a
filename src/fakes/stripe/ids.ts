import { randomInt } from 'node:crypto'

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

function random62(length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)]
  return out
}

/**
 * Stripe-style ids: a prefix naming the kind and a random base62 tail of the usual length
 * (`cus_NffrFeUfNV2Hib`, `sub_1MowQVLkdIwHu7ixeRlqHVzs`, `cs_test_a1b2…` with 58 characters).
 */
const TAIL: Record<string, number> = { cus: 14, prod: 14, si: 14, req: 14, cs_test: 58, sub: 24, in: 24, il: 24, evt: 24, bps: 24, price: 24, pi: 24, pm: 24, bpc: 24, ch: 24 }

export function newId(prefix: keyof typeof TAIL | string): string {
  return `${prefix}_${random62(TAIL[prefix] ?? 24)}`
}

/** Opaque tokens in hosted page URLs (portal sessions, hosted invoices). */
export const newToken = (length = 40) => random62(length)

/** An invoice number prefix as Stripe gives each customer: 8 upper-case letters and digits. */
export const invoicePrefix = () => random62(8).toUpperCase().replace(/[^A-Z0-9]/g, 'X')
