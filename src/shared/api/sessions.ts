import { z } from 'zod'
import { defineContract, errorResponses } from './contract.ts'

/** SPEC 3: the device types the list shows an icon for; anything else is shown as desktop. */
export const DEVICE_TYPES = ['desktop', 'mobile', 'tablet'] as const
export type DeviceType = (typeof DEVICE_TYPES)[number]

/**
 * SPEC 3 "Active session". Dates travel as ISO strings; the client converts them to dates (SPEC 7).
 * deviceType is any stored text: the client shows an unknown one as desktop. ipAddress is null when
 * the request carried none.
 */
export const ActiveSessionSchema = z.object({
  id: z.string(),
  isCurrent: z.boolean(),
  deviceType: z.string(),
  browser: z.string(),
  os: z.string(),
  location: z.string(),
  ipAddress: z.string().nullable(),
  createdAt: z.string(),
  lastAccessed: z.string(),
})
export type ActiveSessionWire = z.infer<typeof ActiveSessionSchema>

/** GET /_api/sessions: the caller's own live sessions, the current one first (SPEC 7 "Sessions and account"). */
export const sessionsContract = defineContract({
  method: 'GET',
  path: '/_api/sessions',
  responses: {
    200: z.object({ sessions: z.array(ActiveSessionSchema) }),
    ...errorResponses(401),
  },
})
export type SessionsResponse = z.infer<(typeof sessionsContract)['responses'][200]>

/** SPEC 5 "Revoke session": sessionId non-empty. */
export const RevokeSessionBodySchema = z.object({
  sessionId: z.string({ error: 'Session ID is required' }).min(1, 'Session ID is required'),
})
export type RevokeSessionBody = z.infer<typeof RevokeSessionBodySchema>

/**
 * POST /_api/sessions/revoke {sessionId} (secure). 404 for an id that is not one of the caller's
 * sessions (another user's answers the same as an unknown one); 400 for the current session, which
 * ends through Sign Out.
 */
export const revokeSessionContract = defineContract({
  method: 'POST',
  path: '/_api/sessions/revoke',
  secure: true,
  body: RevokeSessionBodySchema,
  responses: {
    200: z.object({ success: z.literal(true) }),
    ...errorResponses(400, 401, 403, 404),
  },
})

/** POST /_api/sessions/revoke-all, empty body (secure): ends every session of the caller but the current one. */
export const revokeAllSessionsContract = defineContract({
  method: 'POST',
  path: '/_api/sessions/revoke-all',
  secure: true,
  body: z.object({}).passthrough(),
  responses: {
    200: z.object({ revokedCount: z.number().int() }),
    ...errorResponses(400, 401, 403),
  },
})
