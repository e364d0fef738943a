import { lazy, Suspense, type ComponentType, type ReactNode } from 'react'
import { Route, Routes, useLocation } from 'react-router'
import { ErrorBoundary } from '#client/components/error-boundary.tsx'
import { PageSkeleton } from '#client/components/page-skeleton.tsx'
import { HomePage } from '#client/routes/home.tsx'
import { NotFoundPage } from '#client/routes/not-found.tsx'
import { RootLayout } from './layout/root-layout.tsx'

/**
 * A page in its own chunk that can also be loaded ahead of rendering. Hydrating a prerendered page
 * whose chunk has not arrived leaves its markup waiting; any update meanwhile (a hash link, say)
 * makes React drop that markup for the loading skeleton. So main.tsx loads the page first
 * (preloadPage), and the page then renders without suspending (docs/decisions/020).
 */
function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  let Loaded: ComponentType | undefined
  const Lazy = lazy(load)
  const LazyPage = () => (Loaded ? <Loaded /> : <Lazy />)
  LazyPage.preload = async () => {
    Loaded = (await load()).default
  }
  return LazyPage
}

// Route-level code splitting keeps the home page's JavaScript small: only '/' and the Not Found
// page ship in the app chunk.
const LoginPage = lazyPage(() => import('#client/routes/login.tsx'))
const PricingPage = lazyPage(() => import('#client/routes/pricing.tsx'))
const DashboardPage = lazyPage(() => import('#client/routes/dashboard.tsx'))
const TermsPage = lazyPage(() => import('#client/routes/terms.tsx'))
const PrivacyPage = lazyPage(() => import('#client/routes/privacy.tsx'))

const PAGE_BY_PATH: Record<string, { preload: () => Promise<void> } | undefined> = {
  '/login': LoginPage,
  '/pricing': PricingPage,
  '/dashboard': DashboardPage,
  '/terms': TermsPage,
  '/privacy': PrivacyPage,
}

/** Loads the page `pathname` shows, if it has its own chunk; `/` and Not Found are always here. */
export async function preloadPage(pathname: string): Promise<void> {
  await PAGE_BY_PATH[pathname]?.preload()
}

/** Pages that never raise a toast: their visitors do not load the toast outlet (AppProviders). */
export const TOAST_FREE_PATHS: ReadonlySet<string> = new Set(['/', '/login', '/terms', '/privacy'])

/** One error boundary per page, reset when the path changes (STYLE.md 17). */
function Page({ children }: { children: ReactNode }) {
  const { pathname } = useLocation()
  return (
    <ErrorBoundary key={pathname}>
      <Suspense fallback={<PageSkeleton />}>{children}</Suspense>
    </ErrorBoundary>
  )
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<Page><HomePage /></Page>} />
        <Route path="login" element={<Page><LoginPage /></Page>} />
        <Route path="pricing" element={<Page><PricingPage /></Page>} />
        <Route path="dashboard" element={<Page><DashboardPage /></Page>} />
        <Route path="terms" element={<Page><TermsPage /></Page>} />
        <Route path="privacy" element={<Page><PrivacyPage /></Page>} />
        <Route path="*" element={<Page><NotFoundPage /></Page>} />
      </Route>
    </Routes>
  )
}
