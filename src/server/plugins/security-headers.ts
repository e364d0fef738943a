import helmet from '@fastify/helmet'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Config } from '#server/config.ts'

/**
 * Strict CSP for every response. No inline scripts anywhere except the OAuth popup page, which
 * gets its own per-response nonce (see setPopupPageHeaders).
 *
 * Cross-Origin-Opener-Policy is same-origin-allow-popups on app pages: the app may open the sign-in
 * popup and keep a reference to it. The popup's own responses must NOT carry COOP, or the browser
 * puts it in a new browsing context group after the identity provider's origin and window.opener
 * is lost (SPEC 4 "OAuth login": the popup reports back via postMessage).
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        // UI libraries (Radix) set inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
      },
    },
    // DENY, as frame-ancestors 'none' says: SAMEORIGIN would contradict it for older browsers.
    frameguard: { action: 'deny' },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    // HSTS only makes sense when the app is actually served over https.
    strictTransportSecurity: config.appUrl.startsWith('https:') ? { maxAge: 15552000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'no-referrer' },
  })
}

/** Headers for a page inside the OAuth popup: no COOP, and a CSP that allows exactly one inline script. */
export function setPopupPageHeaders(reply: FastifyReply, scriptNonce: string) {
  reply.removeHeader('cross-origin-opener-policy')
  reply.header(
    'content-security-policy',
    [
      "default-src 'none'",
      `script-src 'nonce-${scriptNonce}'`,
      "style-src 'unsafe-inline'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
  )
  reply.header('cache-control', 'no-store')
}

/** A redirect inside the popup (to the identity provider) must not switch browsing context groups either. */
export function removeOpenerPolicy(reply: FastifyReply) {
  reply.removeHeader('cross-origin-opener-policy')
}
