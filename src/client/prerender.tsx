// Renders the public pages to HTML at build time (docs/decisions/020-prerendered-public-pages.md).
// scripts/prerender.ts builds this module for Node right after the client build and writes the
// pages into dist/client/prerendered; the server sends them and app/boot.tsx hydrates them.
import { StrictMode } from 'react'
import { prerender } from 'react-dom/static'
import { StaticRouter } from 'react-router'
import { PRODUCT_NAME, SUPPORT_EMAIL } from '#shared/product.ts'
import { AppRoutes } from './app/app-routes.tsx'
import { AppProviders } from './app/providers.tsx'
import { createQueryClient } from './app/query-client.ts'
import { appInfoQueryOptions } from './features/app-info/api/get-app-info.ts'

export interface PrerenderedPage {
  /** The path the page is rendered at; the server answers it with this page. */
  path: string
  /** File name under dist/client/prerendered, without extension. */
  name: string
  /** 404 for the Not Found page, which the server sends for every path it does not know. */
  status: 200 | 404
}

/** The public pages (SPEC 2) and the Not Found page, which the server sends for unknown paths. */
export const PRERENDERED_PAGES: readonly PrerenderedPage[] = [
  { path: '/', name: 'home', status: 200 },
  { path: '/login', name: 'login', status: 200 },
  { path: '/pricing', name: 'pricing', status: 200 },
  { path: '/terms', name: 'terms', status: 200 },
  { path: '/privacy', name: 'privacy', status: 200 },
  { path: '/_not-found', name: 'not-found', status: 404 },
]

// React writes the page's hoisted head tags (PageMeta's <title> and <meta>) ahead of the markup.
const LEADING_HEAD_TAGS = /^(?:<title>[^<]*<\/title>|<meta [^>]*\/>|<link [^>]*\/>)*/

/**
 * One page as a visitor's browser first renders it: the session check still pending (so signed-in
 * and signed-out visitors get the same HTML) and the app info the server will send with it, which
 * decides the demo-mode notice. Returns the head tags and the markup of #root apart.
 */
export async function renderPage(path: string, { demoMode }: { demoMode: boolean }): Promise<{ head: string; body: string }> {
  const queryClient = createQueryClient()
  queryClient.setQueryData(appInfoQueryOptions().queryKey, { demoMode, productName: PRODUCT_NAME, supportEmail: SUPPORT_EMAIL })
  // prerender (unlike renderToString) waits for the lazy page modules instead of their fallbacks.
  // An unlimited chunk size keeps every boundary inline: React would otherwise send a long page's
  // fallback first and reveal the content with an inline script, which the CSP refuses.
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouter location={path}>
        <AppProviders queryClient={queryClient}>
          <AppRoutes />
        </AppProviders>
      </StaticRouter>
    </StrictMode>,
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  )
  const html = await new Response(prelude).text()
  queryClient.clear()
  const head = LEADING_HEAD_TAGS.exec(html)?.[0] ?? ''
  return { head, body: html.slice(head.length) }
}
