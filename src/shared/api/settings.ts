import { z } from 'zod'
import { defineContract, errorResponses } from './contract.ts'

/** SPEC 3 "Settings"; SPEC 5 validation. Only informational, promotional and transactional are user toggles. */
export const STRICTNESS_LEVELS = ['balanced', 'relaxed', 'strict'] as const

export const SettingsSchema = z.object({
  filteringEnabled: z.boolean(),
  confidenceThreshold: z.number().min(0.1).max(1),
  strictnessLevel: z.enum(STRICTNESS_LEVELS),
  allowGenuine: z.boolean(),
  allowInformational: z.boolean(),
  allowPromotional: z.boolean(),
  allowTransactional: z.boolean(),
  allowUnwanted: z.boolean(),
})
export type Settings = z.infer<typeof SettingsSchema>

/**
 * Defaults (README "Filtering defaults"): filtering on; unwanted (cold outreach) filed away, the
 * other kinds kept; a message moves only at 0.7 confidence or more; balanced strictness.
 */
export const DEFAULT_SETTINGS: Settings = {
  filteringEnabled: true,
  confidenceThreshold: 0.7,
  strictnessLevel: 'balanced',
  allowGenuine: true,
  allowInformational: true,
  allowPromotional: true,
  allowTransactional: true,
  allowUnwanted: false,
}

export const SettingsResponseSchema = SettingsSchema.extend({
  performanceMetrics: z.object({ webhookEventsToday: z.number().int(), pollingEventsToday: z.number().int() }),
})
export type SettingsResponse = z.infer<typeof SettingsResponseSchema>

/** Any subset of the user-changeable settings (SPEC 7 "Settings and polling"). */
export const SettingsUpdateSchema = z
  .strictObject(
    {
    filteringEnabled: z.boolean({ error: 'filteringEnabled must be true or false' }),
    confidenceThreshold: z
      .number({ error: 'confidenceThreshold must be a number between 0.1 and 1' })
      .min(0.1, 'confidenceThreshold must be between 0.1 and 1')
      .max(1, 'confidenceThreshold must be between 0.1 and 1'),
    strictnessLevel: z.enum(STRICTNESS_LEVELS, { error: 'strictnessLevel must be one of balanced, relaxed, strict' }),
    allowInformational: z.boolean({ error: 'allowInformational must be true or false' }),
    allowPromotional: z.boolean({ error: 'allowPromotional must be true or false' }),
    allowTransactional: z.boolean({ error: 'allowTransactional must be true or false' }),
    // Genuine mail is always kept and cold outreach is what the product files away (SPEC 3).
    allowGenuine: z.literal(true, { error: 'Genuine mail is always kept: allowGenuine cannot be changed' }),
    allowUnwanted: z.literal(false, { error: 'Unwanted mail is always filtered: allowUnwanted cannot be changed' }),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown setting: ${issue.keys.join(', ')}` : undefined) },
  )
  .partial()
export type SettingsUpdate = z.infer<typeof SettingsUpdateSchema>

export const getSettingsContract = defineContract({
  method: 'GET',
  path: '/_api/settings',
  responses: { 200: SettingsResponseSchema, ...errorResponses(401) },
})

export const updateSettingsContract = defineContract({
  method: 'POST',
  path: '/_api/settings',
  secure: true,
  body: SettingsUpdateSchema,
  responses: { 200: SettingsResponseSchema, ...errorResponses(400, 401, 403) },
})

/**
 * POST /_api/gmail/poll {} → {message, emailsQueued} (SPEC 7): checks the user's connected mailbox (Gmail
 * or Outlook) for new mail now and queues a sync. `emailsQueued` counts the new messages seen.
 */
export const pollContract = defineContract({
  method: 'POST',
  path: '/_api/gmail/poll',
  secure: true,
  body: z.object({}).passthrough(),
  responses: { 200: z.object({ message: z.string(), emailsQueued: z.number().int() }), ...errorResponses(401, 403, 429) },
})
