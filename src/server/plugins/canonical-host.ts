import type { FastifyInstance } from 'fastify'
import type { Config } from '#server/config.ts'

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])
const hostnameOf = (host: string) => (host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!).toLowerCase()

/**
 * A newcomer who opens http://127.0.0.1:3000 while APP_URL is http://localhost:3000 signs in on one
 * host and gets the OAuth cookies of the other: sign-in failed silently (issue 12 item 8). When the app
 * runs on this machine (APP_URL on a loopback name), a page request that arrives under another
 * loopback name is redirected to APP_URL's origin. API and webhook requests are never redirected, and
 * a deployment behind a real host name is not affected.
 */
export function registerCanonicalHost(app: FastifyInstance, config: Config) {
  const canonical = new URL(config.appOrigin)
  if (!LOOPBACK_HOSTS.has(canonical.hostname.toLowerCase())) return
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return
    if (request.url.startsWith('/_api') || request.routeOptions.url?.startsWith('/_api')) return
    const host = request.headers.host
    if (!host || host.toLowerCase() === canonical.host.toLowerCase()) return
    if (!LOOPBACK_HOSTS.has(hostnameOf(host))) return
    return reply.redirect(`${canonical.origin}${request.url}`, 302)
  })
}
