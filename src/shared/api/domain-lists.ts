import { z } from 'zod'
import { defineContract, errorResponses } from './contract.ts'

/** SPEC 3 "Whitelist / blacklist entry". */
export const DomainEntrySchema = z.object({ id: z.number().int(), domain: z.string() })
export type DomainEntry = z.infer<typeof DomainEntrySchema>

export const DOMAIN_LIST_KINDS = ['whitelist', 'blacklist'] as const
export type DomainListKind = (typeof DOMAIN_LIST_KINDS)[number]

/** SPEC 5: letters, digits, dots and hyphens, ending in a dot plus at least 2 letters. */
export const DOMAIN_PATTERN = /^[a-z0-9.-]+\.[a-z]{2,}$/i

/** SPEC 5 "Whitelist and blacklist add", texts word for word. Stored lowercased. */
export const AddDomainSchema = z.object({
  domain: z
    .string({ error: 'Domain must be at least 3 characters long.' })
    .trim()
    .min(3, 'Domain must be at least 3 characters long.')
    .max(253, 'Invalid domain format.')
    .regex(DOMAIN_PATTERN, 'Invalid domain format.')
    .transform((domain) => domain.toLowerCase()),
})

/** SPEC 5 "Remove": at least 1 character. */
export const RemoveDomainSchema = z.object({
  domain: z
    .string({ error: 'Domain cannot be empty.' })
    .trim()
    .min(1, 'Domain cannot be empty.')
    .max(253, 'Invalid domain format.')
    .transform((domain) => domain.toLowerCase()),
})

function listContracts<K extends DomainListKind>(kind: K) {
  return {
    list: defineContract({
      method: 'GET',
      path: `/_api/${kind}`,
      responses: { 200: z.array(DomainEntrySchema), ...errorResponses(401) },
    }),
    add: defineContract({
      method: 'POST',
      path: `/_api/${kind}`,
      secure: true,
      body: AddDomainSchema,
      responses: { 200: DomainEntrySchema, ...errorResponses(400, 401, 403, 409) },
    }),
    remove: defineContract({
      method: 'POST',
      path: `/_api/${kind}/domain`,
      secure: true,
      body: RemoveDomainSchema,
      responses: { 200: z.object({ success: z.literal(true), domain: z.string() }), ...errorResponses(400, 401, 403, 404) },
    }),
  }
}

/** SPEC 7 "Domain lists": GET list, POST add, POST …/domain remove, for each list. */
export const whitelistContracts = listContracts('whitelist')
export const blacklistContracts = listContracts('blacklist')
export const domainListContracts = { whitelist: whitelistContracts, blacklist: blacklistContracts } as const
