import { z } from 'zod'
import { defineContract, errorResponses } from './contract.ts'

/** Sign-in providers. The Google button and the Microsoft button each send their id (SPEC 7). */
export const AuthProviderSchema = z.enum(['google', 'microsoft'], { error: 'Unknown sign-in provider: use google or microsoft' })
export type AuthProvider = z.infer<typeof AuthProviderSchema>

export const RoleSchema = z.enum(['user', 'admin'])
export type Role = z.infer<typeof RoleSchema>

/** The user returned under `user` by the session call (SPEC 3 "Session user"). */
export const SessionUserSchema = z.object({
  id: z.number().int(),
  displayName: z.string(),
  email: z.string(),
  role: RoleSchema,
  hasCompletedOnboarding: z.boolean(),
  createdAt: z.string(),
})
export type SessionUser = z.infer<typeof SessionUserSchema>

/** GET /_api/auth/session: the signed-in user, or null (SPEC 7 "Authentication"). */
export const sessionContract = defineContract({
  method: 'GET',
  path: '/_api/auth/session',
  responses: {
    200: z.object({ user: SessionUserSchema.nullable() }),
    ...errorResponses(500),
  },
})

export const EstablishSessionBodySchema = z.object({
  tempToken: z.string({ error: 'Temporary token is required' }).min(1, 'Temporary token is required'),
})
export type EstablishSessionBody = z.infer<typeof EstablishSessionBodySchema>

export const establishSessionContract = defineContract({
  method: 'POST',
  path: '/_api/auth/establish_session',
  secure: true,
  body: EstablishSessionBodySchema,
  responses: {
    200: z.object({ user: SessionUserSchema }),
    ...errorResponses(400, 401, 403, 429),
  },
})

/** POST /_api/auth/logout with an empty object; any fields are ignored (SPEC 7). */
export const logoutContract = defineContract({
  method: 'POST',
  path: '/_api/auth/logout',
  secure: true,
  body: z.object({}).passthrough(),
  responses: {
    200: z.object({ success: z.literal(true) }),
    ...errorResponses(400, 403),
  },
})

export const OAuthAuthorizeQuerySchema = z.object({
  provider: AuthProviderSchema,
})

/**
 * GET, opened in a 500x600 popup, not fetched: it redirects to the provider, and its errors are popup
 * pages (SPEC 7). Not a JSON contract, so it is not registered with contractRoute.
 */
export const oauthAuthorizeContract = {
  method: 'GET',
  path: '/_api/auth/oauth_authorize',
  query: OAuthAuthorizeQuerySchema,
} as const

/** The provider redirects here; the page posts an OAuthPopupMessage to its opener and closes. */
export const OAUTH_CALLBACK_PREFIX = '/_api/auth/oauth_callback'
export const oauthCallbackPath = (provider: AuthProvider) => `${OAUTH_CALLBACK_PREFIX}/${provider}`

/** Error codes a popup can report (SPEC 3 "OAuth popup message"). */
export const OAuthErrorCodeSchema = z.enum([
  'account_linking_required',
  'access_denied',
  'invalid_state',
  'invalid_request',
  'token_exchange_failed',
  'invalid_id_token',
  'email_missing',
  'server_error',
  'rate_limited',
])
export type OAuthErrorCode = z.infer<typeof OAuthErrorCodeSchema>

export const OAuthPopupMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('OAUTH_TOKEN_SUCCESS'),
    provider: AuthProviderSchema,
    token: z.string().min(1),
  }),
  z.object({
    type: z.literal('OAUTH_ERROR'),
    provider: AuthProviderSchema,
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  }),
])
export type OAuthPopupMessage = z.infer<typeof OAuthPopupMessageSchema>
