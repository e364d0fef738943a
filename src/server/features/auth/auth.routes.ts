import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Config } from '#server/config.ts'
import { normalizeIp } from '#server/lib/network.ts'
import { randomToken } from '#server/lib/tokens.ts'
import { clearSessionCookie, setSessionCookie } from '#server/plugins/session.ts'
import { removeOpenerPolicy, setPopupPageHeaders } from '#server/plugins/security-headers.ts'
import {
  AuthProviderSchema,
  establishSessionContract,
  logoutContract,
  OAUTH_CALLBACK_PREFIX,
  oauthAuthorizeContract,
  sessionContract,
  type AuthProvider,
  type OAuthPopupMessage,
} from '#shared/api/auth.ts'
import { InvalidTempTokenError, OAuthFlowError } from './auth.errors.ts'
import type { AuthService } from './auth.service.ts'
import { OAUTH_STATE_TTL_MS } from './auth.service.ts'
import { renderPopupPage } from './popup-page.ts'

/** HttpOnly cookie binding an OAuth state to the browser that started the flow. */
export const OAUTH_BINDING_COOKIE = 'oauth_binding'

export interface AuthRoutesDeps {
  config: Config
  auth: AuthService
  /** Per-IP limit for the sign-in endpoints (rate limiting by @fastify/rate-limit). */
  rateLimit: { max: number; timeWindow: number }
}

const requestContext = (request: FastifyRequest) => ({
  ipAddress: normalizeIp(request.ip),
  userAgent: request.headers['user-agent'],
})

const CallbackQuerySchema = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
})

/** Wiring only (STYLE.md 7); the logic is in auth.service.ts. */
export function registerAuthRoutes(app: FastifyInstance, { config, auth, rateLimit }: AuthRoutesDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>()
  const limited = { rateLimit: { max: rateLimit.max, timeWindow: rateLimit.timeWindow } }

  r.get(
    oauthAuthorizeContract.path,
    { schema: { querystring: oauthAuthorizeContract.query }, config: limited },
    async (request, reply) => {
      const { url, binding } = await auth.startAuthorization(request.query.provider)
      reply.setCookie(OAUTH_BINDING_COOKIE, binding, {
        httpOnly: true,
        // Lax: the provider's redirect back is a top-level GET navigation, which carries Lax cookies.
        sameSite: 'lax',
        path: OAUTH_CALLBACK_PREFIX,
        secure: config.appUrl.startsWith('https:') || request.protocol === 'https',
        maxAge: OAUTH_STATE_TTL_MS / 1000,
      })
      removeOpenerPolicy(reply)
      reply.header('cache-control', 'no-store')
      return reply.redirect(url, 302)
    },
  )

  r.get(
    `${OAUTH_CALLBACK_PREFIX}/:provider`,
    { schema: { params: z.object({ provider: AuthProviderSchema }), querystring: CallbackQuerySchema }, config: limited },
    async (request, reply) => {
      const { provider } = request.params
      const binding = request.cookies[OAUTH_BINDING_COOKIE]
      reply.clearCookie(OAUTH_BINDING_COOKIE, { path: OAUTH_CALLBACK_PREFIX })
      try {
        const token = await auth.completeCallback({ provider, ...request.query, binding }, requestContext(request))
        return sendPopup(reply, 200, { type: 'OAUTH_TOKEN_SUCCESS', provider, token })
      } catch (error) {
        if (!(error instanceof OAuthFlowError)) {
          request.log.error({ err: error, provider }, 'oauth callback failed unexpectedly')
          const fallback = OAuthFlowError.of('server_error', provider)
          return sendPopup(reply, 500, popupError(provider, fallback))
        }
        request.log.warn({ provider, errorCode: error.code, reason: error.reason }, 'oauth sign-in failed')
        return sendPopup(reply, error.code === 'account_linking_required' ? 409 : 400, popupError(provider, error))
      }
    },
  )

  r.post(
    establishSessionContract.path,
    { schema: { body: establishSessionContract.body }, config: limited },
    async (request, reply) => {
      try {
        const result = await auth.establishSession(request.body.tempToken, requestContext(request))
        setSessionCookie(reply, config, request, result.token)
        return { user: result.user }
      } catch (error) {
        if (error instanceof InvalidTempTokenError) {
          return reply.code(401).send({ error: error.message, code: 'invalid_temp_token' })
        }
        throw error
      }
    },
  )

  r.get(sessionContract.path, async (request, reply) => {
    // Never cached: the client's session query must always see the current state (SPEC 7).
    reply.header('cache-control', 'no-store')
    return { user: request.user }
  })

  r.post(logoutContract.path, { schema: { body: z.object({}).passthrough() } }, async (request, reply) => {
    await auth.logout(request.sessionId)
    clearSessionCookie(reply, config, request)
    return { success: true as const }
  })

  function popupError(provider: AuthProvider, error: OAuthFlowError): OAuthPopupMessage {
    return {
      type: 'OAUTH_ERROR',
      provider,
      error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
    }
  }

  function sendPopup(reply: FastifyReply, status: number, message: OAuthPopupMessage) {
    const nonce = randomToken(16)
    setPopupPageHeaders(reply, nonce)
    return reply.code(status).type('text/html; charset=utf-8').send(renderPopupPage(message, config.appOrigin, nonce))
  }
}
