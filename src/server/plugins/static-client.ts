import { existsSync } from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { PRODUCT_NAME, PUBLIC_ROUTES } from '#shared/product.ts'

/** Vite's output; absent in tests and before the first build. */
export const DEFAULT_CLIENT_DIR = path.resolve(import.meta.dirname, '../../../dist/client')

const isPublicRoute = (pathname: string) => (PUBLIC_ROUTES as readonly string[]).includes(pathname)

/** Stand-in page when dist/client was not built: same statuses as the real SPA. */
function fallbackPage(status: 200 | 404) {
  const body = status === 200 ? 'The client has not been built. Run <code>npm run build</code>.' : 'Page not found. <a href="/">Go home</a>'
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${PRODUCT_NAME}</title></head><body><p>${body}</p></body></html>`
}

/**
 * Serves the built client (SPEC 2 routes). The SPA routes answer index.html with 200; any other
 * non-API GET answers index.html with 404 so the client renders its Not Found page and crawlers see
 * a real 404. Hashed assets under /assets are immutable; index.html is always revalidated.
 */
export async function registerStaticClient(app: FastifyInstance, clientDir: string = DEFAULT_CLIENT_DIR) {
  const built = existsSync(path.join(clientDir, 'index.html'))

  const sendIndex = (reply: FastifyReply, status: 200 | 404) => {
    reply.code(status).header('cache-control', 'no-cache')
    if (!built) return reply.type('text/html; charset=utf-8').send(fallbackPage(status))
    return reply.sendFile('index.html')
  }

  if (built) {
    await app.register(fastifyStatic, {
      root: clientDir,
      index: false,
      wildcard: true,
      // The build writes .br/.gz twins of text assets (vite.config.ts); they are sent when accepted.
      preCompressed: true,
      // We set cache-control ourselves: send's default would overwrite it.
      cacheControl: false,
      setHeaders(reply, filePath) {
        // A precompressed twin (index.html.br) is the same resource as its original: decide on that
        // name, or the HTML shell would be cached for an hour by every browser that accepts brotli.
        const relative = path.relative(clientDir, filePath).replace(/\.(br|gz)$/, '')
        const cacheControl =
          relative === 'index.html'
            ? 'no-cache'
            : relative.startsWith(`assets${path.sep}`)
              ? 'public, max-age=31536000, immutable'
              : 'public, max-age=3600'
        reply.header('cache-control', cacheControl)
      },
    })
  }

  for (const route of PUBLIC_ROUTES) {
    app.get(route, (_request, reply) => sendIndex(reply, 200))
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?', 1)[0] ?? '/'
    if (pathname.startsWith('/_api/') || pathname === '/_api') {
      return reply.code(404).send({ error: 'Not found', code: 'not_found' })
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(404).send({ error: 'Not found', code: 'not_found' })
    }
    // A public route reached through the static wildcard (e.g. HEAD) still gets 200.
    return sendIndex(reply, isPublicRoute(pathname) ? 200 : 404)
  })
}
