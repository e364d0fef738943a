import type { ReactElement } from 'react'
import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient } from '@tanstack/react-query'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router'
import { AppRoutes } from '#client/app/app-routes.tsx'
import { AppProviders } from '#client/app/providers.tsx'
import { shouldRetryQuery } from '#client/app/query-client.ts'

/** The production defaults, without the waits between retries. */
export function createTestQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 5 * 60_000, gcTime: Infinity, refetchOnWindowFocus: false, retry: shouldRetryQuery, retryDelay: 0 },
      mutations: { retry: 1, retryDelay: 0 },
    },
  })
}

/** Shows the router's current path (and, apart, its query), so tests can assert where a user ended up. */
export function LocationProbe() {
  const location = useLocation()
  return (
    <>
      <output data-testid="location">{location.pathname + location.hash}</output>
      <output data-testid="location-search">{location.search}</output>
    </>
  )
}

/** The whole app (layout, routes, lazy pages) at `path`. */
export function renderApp(path = '/', { queryClient = createTestQueryClient() } = {}) {
  const user = userEvent.setup()
  const result = render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders queryClient={queryClient}>
        <AppRoutes />
        <LocationProbe />
      </AppProviders>
    </MemoryRouter>,
  )
  return { user, queryClient, ...result }
}

/** One page at `path` (which may carry a query), plus a stand-in for every other path it might navigate to. */
export function renderPage(ui: ReactElement, { path = '/', queryClient = createTestQueryClient(), userOptions = {} } = {}) {
  const user = userEvent.setup(userOptions)
  const result = render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders queryClient={queryClient}>
        <Routes>
          <Route path={path.split(/[?#]/)[0]} element={ui} />
          <Route path="*" element={<p>Other page</p>} />
        </Routes>
        <LocationProbe />
      </AppProviders>
    </MemoryRouter>,
  )
  return { user, queryClient, ...result }
}
