import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzipSync } from 'node:zlib'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppInfo } from '#shared/api/app-info.ts'
import { PRODUCT_NAME, PUBLIC_ROUTES } from '#shared/product.ts'

/** Vite's output; absent in tests and before the first build. */
export const DEFAULT_CLIENT_DIR = path.resolve(import.meta.dirname, '../../../dist/client')

/** dist/client/prerendered/pages.json, written by the client build (scripts/prerender.ts). */
export interface PrerenderedIndex {
  /** Where a page takes the app info the server sends with it. */
  appInfoPlaceholder: string
  /** `<name>.html`, and `<name>.demo.html` with the demo-mode notice, answer `path`. */
  pages: { path: string; name: string; status: 200 | 404 }[]
}

type PrerenderedPage = PrerenderedIndex['pages'][number]

/** A prerendered page as this process sends it, in each encoding (brotli once it is ready). */
interface PreparedPage {
  identity: Buffer
  gzip: Buffer
  br: Buffer | undefined
  etag: string
}

const brotli = promisify(brotliCompress)

const isPublicRoute = (pathname: string) => (PUBLIC_ROUTES as readonly string[]).includes(pathname)

/** Stand-in page when dist/client was not built: same statuses as the real SPA. */
function fallbackPage(status: 200 | 404) {
  const body = status === 200 ? 'The client has not been built. Run <code>npm run build</code>.' : 'Page not found. <a href="/">Go home</a>'
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${PRODUCT_NAME}</title></head><body><p>${body}</p></body></html>`
}

function readPrerenderedIndex(clientDir: string): PrerenderedIndex | null {
  const file = path.join(clientDir, 'prerendered', 'pages.json')
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as PrerenderedIndex) : null
}

/** The encodings the request accepts (q=0 refuses one). */
function acceptedEncodings(acceptEncoding: string | undefined): Set<string> {
  const accepted = new Set<string>()
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    if (!params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param))) accepted.add(name.trim())
  }
  return accepted
}

/**
 * The app info rides along in a JSON data block, which the CSP does not treat as a script; `<` is
 * escaped so no value can close the element.
 */
const appInfoElement = (appInfo: AppInfo) =>
  `<script type="application/json" id="app-info">${JSON.stringify(appInfo).replace(/</g, '\\u003c')}</script>`

/**
 * Serves the built client (SPEC 2 routes). The public pages are prerendered at build time
 * (docs/decisions/020-prerendered-public-pages.md): each is sent with this server's app info (the
 * variant with the demo-mode notice when it runs in demo mode), which main.tsx hands to React before
 * hydrating. Other SPA routes answer the empty shell, index.html, with 200; any other non-API GET
 * answers the prerendered Not Found page (or the shell) with 404, so crawlers see a real 404.
 * Hashed assets under /assets are immutable; HTML is always revalidated.
 */
export async function registerStaticClient(app: FastifyInstance, clientDir: string = DEFAULT_CLIENT_DIR) {
  const built = existsSync(path.join(clientDir, 'index.html'))
  const prerendered = built ? readPrerenderedIndex(clientDir) : null
  const pageFor = new Map(prerendered?.pages.filter((page) => page.status === 200).map((page) => [page.path, page]))
  const notFoundPage = prerendered?.pages.find((page) => page.status === 404)

  // Fixed for the life of the process (features/app-info), so asked once, through its own route.
  let appInfo: Promise<AppInfo | null> | undefined
  const readAppInfo = () =>
    (appInfo ??= app.inject({ method: 'GET', url: '/_api/app/info' }).then(
      (response) => (response.statusCode === 200 ? (response.json() as AppInfo) : null),
      (error: unknown) => {
        app.log.warn({ err: error }, 'prerendered pages go out without the app info')
        return null
      },
    ))

  // Completed and compressed on first request, then kept: a handful of pages of some 60 kB each.
  // gzip takes a millisecond; brotli's best quality some 50 ms, so it runs off the event loop and
  // the page goes out gzipped until it is ready.
  const prepared = new Map<string, Promise<PreparedPage>>()
  const preparePage = async (page: PrerenderedPage): Promise<PreparedPage> => {
    const info = await readAppInfo()
    const file = path.join(clientDir, 'prerendered', `${page.name}${info?.demoMode ? '.demo' : ''}.html`)
    const html = (await readFile(file, 'utf8')).replace(prerendered?.appInfoPlaceholder ?? '', () => (info ? appInfoElement(info) : ''))
    const identity = Buffer.from(html)
    const body: PreparedPage = {
      identity,
      gzip: gzipSync(identity, { level: 9 }),
      br: undefined,
      etag: `W/"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
    }
    brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }).then(
      (compressed) => (body.br = compressed),
      (error: unknown) => app.log.warn({ err: error, page: page.name }, 'prerendered page goes out gzipped only'),
    )
    return body
  }

  const sendPrerendered = async (request: FastifyRequest, reply: FastifyReply, page: PrerenderedPage) => {
    let pending = prepared.get(page.name)
    if (!pending) {
      pending = preparePage(page)
      prepared.set(page.name, pending)
      // A failed read is tried again on the next request rather than remembered.
      pending.catch(() => prepared.delete(page.name))
    }
    const body = await pending
    reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').header('etag', body.etag)
    if (page.status === 200 && request.headers['if-none-match'] === body.etag) return reply.code(304).send()
    reply.code(page.status).type('text/html; charset=utf-8')
    const accepted = acceptedEncodings(request.headers['accept-encoding'])
    if (body.br && accepted.has('br')) return reply.header('content-encoding', 'br').send(body.br)
    if (accepted.has('gzip')) return reply.header('content-encoding', 'gzip').send(body.gzip)
    return reply.send(body.identity)
  }

  const sendIndex = (reply: FastifyReply, status: 200 | 404) => {
    reply.code(status).header('cache-control', 'no-cache')
    if (!built) return reply.type('text/html; charset=utf-8').send(fallbackPage(status))
    return reply.sendFile('index.html')
  }

  /** A SPEC 2 route: its prerendered page if it has one, the shell otherwise. */
  const sendRoute = (request: FastifyRequest, reply: FastifyReply, pathname: string) => {
    const page = pageFor.get(pathname)
    return page ? sendPrerendered(request, reply, page) : sendIndex(reply, 200)
  }

  if (built) {
    await app.register(fastifyStatic, {
      root: clientDir,
      index: false,
      wildcard: true,
      // The prerendered pages are only sent completed, by the routes below.
      allowedPath: (pathName) => !pathName.startsWith('/prerendered/'),
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
    app.get(route, (request, reply) => sendRoute(request, reply, route))
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
    if (isPublicRoute(pathname)) return sendRoute(request, reply, pathname)
    return notFoundPage ? sendPrerendered(request, reply, notFoundPage) : sendIndex(reply, 404)
  })
}
