import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Config } from '#server/config.ts'
import { MAIL_PROVIDERS, type MailProviderName } from '#server/integrations/mail/mail-provider.ts'
import { contractRoute } from '#server/lib/contract-route.ts'
import { normalizeIp } from '#server/lib/network.ts'
import { renderPopupPage, type PopupPageTexts } from '#server/lib/popup-page.ts'
import { randomToken } from '#server/lib/tokens.ts'
import { removeOpenerPolicy, setPopupPageHeaders } from '#server/plugins/security-headers.ts'
import { requireUser } from '#server/plugins/session.ts'
import { acceptingUnstorableText } from '#server/plugins/validation.ts'
import {
  gmailDisconnectContract,
  gmailStatusContract,
  MailboxAuthorizeQuerySchema,
  mailboxAuthorizePath,
  mailboxCallbackPath,
  outlookDisconnectContract,
  outlookStatusContract,
  type MailboxPopupMessage,
} from '#shared/api/mailboxes.ts'
import { MAILBOX_STATE_TTL_MS, MailboxConnectError, type MailboxService } from './mailboxes.service.ts'

/** HttpOnly cookie binding a connect state to the browser that started it (as for sign-in). */
export const MAILBOX_BINDING_COOKIE = 'mailbox_binding'

const POPUP_TEXTS: PopupPageTexts = { success: 'Mailbox connected', failure: 'Connection failed', back: { href: '/dashboard', text: 'Back to the dashboard' } }

const CONTRACTS = {
  gmail: { status: gmailStatusContract, disconnect: gmailDisconnectContract },
  outlook: { status: outlookStatusContract, disconnect: outlookDisconnectContract },
} as const

// Lenient: a provider redirect with a NUL still gets a popup page (as the sign-in callback does).
const CallbackQuerySchema = acceptingUnstorableText(
  z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional(), error_description: z.string().optional() }),
)

export interface MailboxRoutesDeps {
  config: Config
  mailboxes: MailboxService
  rateLimit: { max: number; timeWindow: number }
}

const requestContext = (request: FastifyRequest) => ({ ipAddress: normalizeIp(request.ip), userAgent: request.headers['user-agent'] })

/**
 * SPEC 7 "Mailboxes": the connect popups (authorize → provider → callback), the status checks and
 * disconnect, for both providers. Wiring only; the logic is in mailboxes.service.ts.
 */
export function registerMailboxRoutes(app: FastifyInstance, { config, mailboxes, rateLimit }: MailboxRoutesDeps) {
  const limited = { rateLimit: { max: rateLimit.max, timeWindow: rateLimit.timeWindow } }
  const secure = (request: FastifyRequest) => config.appUrl.startsWith('https:') || request.protocol === 'https'

  for (const provider of MAIL_PROVIDERS) {
    const reauthorizationUrl = `${mailboxAuthorizePath(provider)}?mode=redirect`

    // The popup routes answer every failure with a page that tells the opener (or, after a full-page
    // re-authentication, a redirect to the dashboard with SPEC 8's URL error parameters).
    app.register(async (popupScope) => {
      popupScope.setErrorHandler((error: FastifyError, request, reply) => {
        const status = error.statusCode ?? 500
        if (status >= 500) request.log.error({ err: error, provider }, 'mailbox connect route failed')
        const failure =
          status === 429
            ? new MailboxConnectError('rate_limited', 'Too many connection attempts. Please wait a minute and try again.', 429)
            : status < 500
              ? new MailboxConnectError('invalid_request', 'The connection request was not valid. Please try again.', status)
              : new MailboxConnectError('server_error', 'Something went wrong while connecting. Please try again.', 500)
        return sendFailure(reply, provider, 'popup', failure)
      })
      const p = popupScope.withTypeProvider<ZodTypeProvider>()

      p.get(mailboxAuthorizePath(provider), { schema: { querystring: MailboxAuthorizeQuerySchema }, config: limited }, async (request, reply) => {
        const { mode } = request.query
        if (!request.user) {
          if (mode === 'redirect') return reply.redirect('/login', 302)
          return sendFailure(reply, provider, mode, new MailboxConnectError('unauthenticated', 'Your session has ended. Sign in again, then connect your mailbox.', 401))
        }
        try {
          const { url, binding } = await mailboxes.startConnect(request.user.id, provider, mode)
          reply.setCookie(MAILBOX_BINDING_COOKIE, binding, {
            httpOnly: true,
            // Lax: the provider's redirect back is a top-level GET navigation, which carries Lax cookies.
            sameSite: 'lax',
            path: mailboxCallbackPath(provider),
            secure: secure(request),
            maxAge: MAILBOX_STATE_TTL_MS / 1000,
          })
          removeOpenerPolicy(reply)
          reply.header('cache-control', 'no-store')
          return reply.redirect(url, 302)
        } catch (error) {
          if (error instanceof MailboxConnectError) return sendFailure(reply, provider, mode, error)
          throw error
        }
      })

      p.get(mailboxCallbackPath(provider), { schema: { querystring: CallbackQuerySchema }, config: limited }, async (request, reply) => {
        const binding = request.cookies[MAILBOX_BINDING_COOKIE]
        reply.clearCookie(MAILBOX_BINDING_COOKIE, { path: mailboxCallbackPath(provider) })
        const mode = await mailboxes.modeOfState(request.query.state)
        try {
          const result = await mailboxes.completeConnect({ provider, ...request.query, binding, userId: request.user?.id ?? null }, requestContext(request))
          if (mode === 'redirect') return reply.redirect('/dashboard', 302)
          const message: MailboxPopupMessage = { type: 'OAUTH_TOKEN_SUCCESS', provider, email: result.email }
          return sendPopup(reply, 200, message)
        } catch (error) {
          if (!(error instanceof MailboxConnectError)) throw error
          request.log.warn({ provider, errorCode: error.code, reason: error.reason }, 'mailbox connect failed')
          return sendFailure(reply, provider, mode, error)
        }
      })
    })

    contractRoute(app, CONTRACTS[provider].status, { preValidation: requireUser }, async (request, reply) => {
      // The client caches it for 5 minutes itself (SPEC 9); intermediaries must not.
      reply.header('cache-control', 'no-store')
      return mailboxes.status(request.user!.id, provider, reauthorizationUrl)
    })

    contractRoute(app, CONTRACTS[provider].disconnect, { preValidation: requireUser }, async (request, reply) => {
      const result = await mailboxes.disconnect(request.user!.id, provider, requestContext(request))
      if (!result) return reply.code(404).send({ error: `No ${mailboxes.label(provider)} account is connected.`, code: 'not_connected' })
      return { success: true as const, ...result }
    })
  }

  function sendFailure(reply: FastifyReply, provider: MailProviderName, mode: 'popup' | 'redirect', error: MailboxConnectError) {
    if (mode === 'redirect') {
      // SPEC 8 "Dashboard URL errors": the dashboard reads error and error_description.
      const query = new URLSearchParams({ error: error.code, error_description: error.message })
      return reply.redirect(`/dashboard?${query.toString()}`, 302)
    }
    const message: MailboxPopupMessage = { type: 'OAUTH_ERROR', provider, error: { code: error.code, message: error.message } }
    return sendPopup(reply, error.status, message)
  }

  function sendPopup(reply: FastifyReply, status: number, message: MailboxPopupMessage) {
    const nonce = randomToken(16)
    setPopupPageHeaders(reply, nonce)
    return reply.code(status).type('text/html; charset=utf-8').send(renderPopupPage(message, config.appOrigin, nonce, POPUP_TEXTS))
  }
}
