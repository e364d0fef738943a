// Starts the app: loaded by main.tsx, after the first paint on prerendered pages.
import type { QueryClient } from '@tanstack/react-query'
import { startTransition, StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import type { AppInfo } from '#shared/api/app-info.ts'
import { appInfoQueryOptions } from '#client/features/app-info/api/get-app-info.ts'
import { AppRoutes, preloadPage, TOAST_FREE_PATHS } from './app-routes.tsx'
import { AppProviders } from './providers.tsx'
import { createQueryClient } from './query-client.ts'

/**
 * The server sends prerendered pages with GET /_api/app/info's answer in a JSON data block
 * (src/server/plugins/static-client.ts), so the first render already knows whether to show the
 * demo-mode notice, as the page's HTML does, and nobody asks for it again.
 */
function readSentAppInfo(): AppInfo | undefined {
  const text = document.getElementById('app-info')?.textContent
  if (!text) return undefined
  const data = JSON.parse(text) as Partial<AppInfo> | null
  return typeof data?.demoMode === 'boolean' ? (data as AppInfo) : undefined
}

/** The app as the browser renders it (and as prerender.test.tsx hydrates it). */
export function ClientApp({ queryClient }: { queryClient: QueryClient }) {
  return (
    <StrictMode>
      <BrowserRouter>
        <AppProviders queryClient={queryClient} quietPaths={TOAST_FREE_PATHS}>
          <AppRoutes />
        </AppProviders>
      </BrowserRouter>
    </StrictMode>
  )
}

/** Hydrates a prerendered page, or renders a route the server sent as the empty shell. */
export async function boot(root: HTMLElement, { prerendered }: { prerendered: boolean }) {
  const queryClient = createQueryClient()
  const appInfo = readSentAppInfo()
  if (appInfo) queryClient.setQueryData(appInfoQueryOptions().queryKey, appInfo)

  const app = <ClientApp queryClient={queryClient} />

  if (!prerendered) {
    // The shell's default head tags (for crawlers without JavaScript) give way to the page's own.
    for (const element of document.head.querySelectorAll('[data-default-head]')) element.remove()
    createRoot(root).render(app)
    return
  }
  // React adopts the page's markup, and its <title> and description, which the page renders itself.
  // The page's own chunk comes first; should it fail to load, the page's error boundary reports it.
  await preloadPage(window.location.pathname).catch(() => undefined)
  // As a transition, hydration yields to the browser every few milliseconds instead of blocking it.
  startTransition(() => {
    hydrateRoot(root, app)
  })
}
