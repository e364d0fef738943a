import { lazy, Suspense, type ReactNode } from 'react'
import { Route, Routes, useLocation } from 'react-router'
import { ErrorBoundary } from '#client/components/error-boundary.tsx'
import { PageSkeleton } from '#client/components/page-skeleton.tsx'
import { HomePage } from '#client/routes/home.tsx'
import { NotFoundPage } from '#client/routes/not-found.tsx'
import { RootLayout } from './layout/root-layout.tsx'

// Route-level code splitting keeps the home page's JavaScript small: only '/' and the Not Found
// page ship in the entry chunk.
const LoginPage = lazy(() => import('#client/routes/login.tsx'))
const PricingPage = lazy(() => import('#client/routes/pricing.tsx'))
const DashboardPage = lazy(() => import('#client/routes/dashboard.tsx'))
const TermsPage = lazy(() => import('#client/routes/terms.tsx'))
const PrivacyPage = lazy(() => import('#client/routes/privacy.tsx'))

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
