import { lazy, Suspense, useState, type ReactNode } from 'react'
import { useLocation } from 'react-router'
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { useIsClient } from '#client/lib/use-is-client.ts'
import { createQueryClient } from './query-client.ts'

// The toast outlet loads beside the page instead of inside the app chunk, and only on the client.
const Toaster = lazy(() => import('#client/components/ui/toaster.tsx').then((module) => ({ default: module.Toaster })))

/**
 * Mounts the toast outlet once the visitor reaches a page that can raise a toast, and keeps it from
 * then on (a toast may outlive its page, as after account deletion). Pages in `quietPaths` raise
 * none, so their visitors never download it (docs/decisions/020-prerendered-public-pages.md).
 */
function ToastOutlet({ quietPaths }: { quietPaths: ReadonlySet<string> }) {
  const { pathname } = useLocation()
  const isClient = useIsClient()
  const [needed, setNeeded] = useState(false)
  if (!needed && isClient && !quietPaths.has(pathname)) setNeeded(true)
  if (!needed) return null
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  )
}

const NO_QUIET_PATHS: ReadonlySet<string> = new Set()

/** App-wide providers. Server state lives only in TanStack Query (docs/decisions/005). */
export function AppProviders({
  children,
  queryClient,
  quietPaths = NO_QUIET_PATHS,
}: {
  children: ReactNode
  queryClient?: QueryClient
  /** Paths whose pages never raise a toast (the public pages); the toast outlet waits until another. */
  quietPaths?: ReadonlySet<string>
}) {
  const [client] = useState(() => queryClient ?? createQueryClient())
  return (
    <QueryClientProvider client={client}>
      {children}
      <ToastOutlet quietPaths={quietPaths} />
    </QueryClientProvider>
  )
}
