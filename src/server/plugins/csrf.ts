import type { FastifyInstance } from 'fastify'
import type { Config } from '#server/config.ts'
import { apiRouteOf } from '#server/plugins/api-route.ts'

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Route prefixes exempt from the check because their callers are servers, not browsers: the provider
 * receivers, which prove themselves (Pub/Sub OIDC token, Graph clientState). Prefix match, so
 * `/_api/webhooks/outlook/lifecycle` is included; the browser's own `/_api/webhooks/setup` is not.
 */
export const CSRF_EXEMPT_PREFIXES: readonly string[] = ['/_api/webhooks/gmail', '/_api/webhooks/outlook', '/_api/webhooks/stripe']

/**
 * CSRF guard (docs/decisions/003-sessions-and-csrf.md). A state-changing /_api request must carry
 * X-Requested-With (a custom header a cross-site form or simple request cannot send without a CORS
 * preflight we never grant) or an Origin equal to the app origin. A present cross-origin Origin is
 * always rejected, even with the header, as defence in depth. SameSite=Lax on the cookie is the
 * other layer.
 */
export function registerCsrfGuard(app: FastifyInstance, config: Config) {
  app.addHook('onRequest', async (request, reply) => {
    if (!STATE_CHANGING.has(request.method)) return
    // Decide on the route that will run, not on the raw URL: the router decodes `/%5Fapi/…` to
    // `/_api/…`, so a raw-URL check could be skipped with an encoded path (issue 11 item 4).
    const path = apiRouteOf(request)
    if (!path) return
    if (CSRF_EXEMPT_PREFIXES.some((prefix) => path.startsWith(prefix))) return

    const origin = request.headers.origin
    const sameOrigin = origin === config.appOrigin
    if (origin !== undefined && !sameOrigin) return reject()
    if (sameOrigin || request.headers['x-requested-with']) return
    return reject()

    function reject() {
      request.log.warn({ path }, 'csrf check rejected a request')
      return reply.code(403).send({ error: 'Request blocked: cross-site request rejected', code: 'csrf_rejected' })
    }
  })
}
