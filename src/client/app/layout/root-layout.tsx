import { Outlet } from 'react-router'
import { DemoBanner } from '#client/features/app-info/components/demo-banner.tsx'
import { ScrollToTop } from './scroll-to-top.tsx'
import { SiteFooter } from './site-footer.tsx'
import { SiteHeader } from './site-header.tsx'

export const MAIN_CONTENT_ID = 'main-content'

/** Shared layout (SPEC 2): skip link, demo notice, header, the page, footer. */
export function RootLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href={`#${MAIN_CONTENT_ID}`}
        className="sr-only z-[60] rounded-lg bg-brand-700 px-4 py-2 text-sm font-medium text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <DemoBanner />
      <SiteHeader />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <SiteFooter />
      <ScrollToTop />
    </div>
  )
}
