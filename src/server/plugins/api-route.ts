import type { FastifyRequest } from 'fastify'

/**
 * The `/_api` route pattern a request was routed to, or null for any other request (pages, assets,
 * not found). Guards decide on this, never on `request.url`: the router decodes percent-escapes, so
 * `/%5Fapi/auth/establish_session` runs the `/_api/auth/establish_session` handler although its raw
 * URL does not start with `/_api/` (issue 11 item 4).
 */
export function apiRouteOf(request: FastifyRequest): string | null {
  const route = request.routeOptions.url
  return route !== undefined && route.startsWith('/_api/') ? route : null
}
