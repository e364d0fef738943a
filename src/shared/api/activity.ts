import { z } from 'zod'
import { defineContract, errorResponses } from './contract.ts'

/** The classifier's categories (SPEC 1). */
export const CategorySchema = z.enum(['genuine', 'informational', 'promotional', 'transactional', 'unwanted'])
export type MailCategoryName = z.infer<typeof CategorySchema>

/**
 * One decision of the pipeline (issue 13, "Review and corrections"): metadata only, never the body.
 * `action` is what the pipeline did; `state` is where the message is now after the person's corrections:
 * kept | filed (out of the inbox) | restored (the person brought a filed message back) | flagged (the
 * person said a kept message is cold: filed away) | skipped (could not be processed; left in the inbox).
 */
export const DecisionItemSchema = z.object({
  id: z.number().int(),
  provider: z.enum(['gmail', 'outlook']),
  receivedAt: z.string(),
  decidedAt: z.string(),
  senderAddress: z.string(),
  senderName: z.string().nullable(),
  /** Cut to 120 characters. */
  subject: z.string(),
  category: CategorySchema,
  confidence: z.number(),
  action: z.enum(['kept', 'filed', 'skipped']),
  state: z.enum(['kept', 'filed', 'restored', 'flagged', 'skipped']),
  reasons: z.array(z.string()),
  /** What decided: the whitelist/blacklist, the person's own sender rule, or the classifier. */
  decidedBy: z.enum(['whitelist', 'blacklist', 'sender_rule', 'classifier', 'error']),
})
export type DecisionItem = z.infer<typeof DecisionItemSchema>

export const ActivityQuerySchema = z.object({
  page: z.coerce.number({ error: 'page must be a whole number of at least 1' }).int('page must be a whole number of at least 1').min(1, 'page must be a whole number of at least 1').default(1),
  limit: z.coerce.number({ error: 'limit must be a whole number from 1 to 100' }).int('limit must be a whole number from 1 to 100').min(1, 'limit must be a whole number from 1 to 100').max(100, 'limit must be a whole number from 1 to 100').default(25),
  category: CategorySchema.optional(),
  /** true: only messages that are out of the inbox now (filed or flagged); false: only those in it. */
  filed: z.enum(['true', 'false'], { error: 'filed must be true or false' }).optional(),
})

/** GET /_api/activity: the user's decisions, newest first. */
export const activityContract = defineContract({
  method: 'GET',
  path: '/_api/activity',
  query: ActivityQuerySchema,
  responses: {
    200: z.object({
      items: z.array(DecisionItemSchema),
      pagination: z.object({ page: z.number().int(), limit: z.number().int(), totalPages: z.number().int(), totalRecords: z.number().int() }),
    }),
    ...errorResponses(400, 401),
  },
})

export const ActivityStatsQuerySchema = z.object({
  days: z.coerce.number({ error: 'days must be a whole number from 1 to 90' }).int().min(1, 'days must be a whole number from 1 to 90').max(90, 'days must be a whole number from 1 to 90').default(30),
})

/** GET /_api/activity/stats: messages decided per UTC day and category, oldest day first, every day present. */
export const activityStatsContract = defineContract({
  method: 'GET',
  path: '/_api/activity/stats',
  query: ActivityStatsQuerySchema,
  responses: {
    200: z.object({
      days: z.array(z.object({ date: z.string(), counts: z.record(CategorySchema, z.number().int()), filed: z.number().int() })),
    }),
    ...errorResponses(400, 401),
  },
})

export const DecisionActionBodySchema = z.object({
  // Ids are PostgreSQL integers: a larger number cannot name a decision (and must not reach the query).
  decisionId: z
    .number({ error: 'decisionId must be the id of one of your decisions' })
    .int('decisionId must be the id of one of your decisions')
    .positive('decisionId must be the id of one of your decisions')
    .max(2_147_483_647, 'decisionId must be the id of one of your decisions'),
})

const correctionResponses = {
  200: z.object({ decision: DecisionItemSchema, message: z.string() }),
  ...errorResponses(400, 401, 403, 404, 409, 502),
}

/** POST /_api/activity/restore {decisionId}: back to the inbox, our label removed; the sender is trusted from then on. */
export const restoreContract = defineContract({
  method: 'POST',
  path: '/_api/activity/restore',
  secure: true,
  body: DecisionActionBodySchema,
  responses: correctionResponses,
})

/** POST /_api/activity/flag {decisionId}: "This is cold": filed away; the sender's mail is filed away from then on. */
export const flagContract = defineContract({
  method: 'POST',
  path: '/_api/activity/flag',
  secure: true,
  body: DecisionActionBodySchema,
  responses: correctionResponses,
})
