import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Config } from '#server/config.ts'
import { normalizeIp } from '#server/lib/network.ts'
import { randomToken } from '#server/lib/tokens.ts'
import { contractRoute } from '#server/lib/contract-route.ts'
import { renderPopupPage } from '#server/lib/popup-page.ts'
import { handleApiError } from '#server/plugins/error-handler.ts'
import { clearSessionCookie, setSessionCookie } from '#server/plugins/session.ts'
import { removeOpenerPolicy, setPopupPageHeaders } from '#server/plugins/security-headers.ts'
import { acceptingUnstorableText } from '#server/plugins/validation.ts'
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

// Lenient: a NUL or broken Unicode in a provider redirect (`?error=%00`) still gets a popup page and
// a LOGIN_FAILURE audit record, with the value made safe (issue 11 item 3).
const CallbackQuerySchema = acceptingUnstorableText(
  z.object({
    code: z.string().optional(),
    state: z.string().optional(),
    error: z.string().optional(),
    error_description: z.string().optional(),
  }),
)

/** The sign-in provider a popup request names (callback path or authorize query), if it is a known one. */
function providerOf(request: FastifyRequest): AuthProvider | null {
  const params = request.params as { provider?: unknown } | undefined
  const query = request.query as { provider?: unknown } | undefined
  const parsed = AuthProviderSchema.safeParse(params?.provider ?? query?.provider)
  return parsed.success ? parsed.data : null
}

/** Wiring only (STYLE.md 7); the logic is in auth.service.ts. */
export function registerAuthRoutes(app: FastifyInstance, { config, auth, rateLimit }: AuthRoutesDeps) {
  const limited = { rateLimit: { max: rateLimit.max, timeWindow: rateLimit.timeWindow } }

  // The two routes that run inside the sign-in popup answer every failure, a rate limit or a bad
  // request included, with a popup page that reports OAUTH_ERROR to the opener: JSON there would
  // strand the opener until its 5-minute timeout (issue 11 item 7).
  app.register(async (popupScope) => {
    popupScope.setErrorHandler((error: FastifyError, request, reply) => {
      const provider = providerOf(request)
      if (!provider) return handleApiError(error, request, reply)
      const status = error.statusCode ?? 500
      const flowError =
        status === 429
          ? OAuthFlowError.of('rate_limited', provider, 'rate limited')
          : status >= 400 && status < 500
            ? OAuthFlowError.of('invalid_request', provider, 'malformed request')
            : OAuthFlowError.of('server_error', provider)
      if (status >= 500) request.log.error({ err: error, provider }, 'sign-in popup route failed')
      return sendPopup(reply, status >= 400 && status < 600 ? status : 500, popupError(provider, flowError))
    })
    const p = popupScope.withTypeProvider<ZodTypeProvider>()
    p.get(
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

    p.get(
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
  })

  contractRoute(app, establishSessionContract, { config: limited }, async (request, reply) => {
    try {
      // A browser signing in again replaces its session: the one its cookie held ends here.
      const result = await auth.establishSession(request.body.tempToken, requestContext(request), request.sessionId)
      setSessionCookie(reply, config, request, result.token)
      return { user: result.user }
    } catch (error) {
      if (error instanceof InvalidTempTokenError) {
        return reply.code(401).send({ error: error.message, code: 'invalid_temp_token' })
      }
      throw error
    }
  })

  contractRoute(app, sessionContract, {}, async (request, reply) => {
    // Never cached: the client's session query must always see the current state (SPEC 7).
    reply.header('cache-control', 'no-store')
    return { user: request.user }
  })

  contractRoute(app, logoutContract, {}, async (request, reply) => {
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
