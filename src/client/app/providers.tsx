import { lazy, Suspense, useState, type ReactNode } from 'react'
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { createQueryClient } from './query-client.ts'

// The toast outlet loads beside the first page instead of inside the entry chunk: nothing on '/'
// raises a toast, and it is mounted long before anyone can click something that does.
const Toaster = lazy(() => import('#client/components/ui/toaster.tsx').then((module) => ({ default: module.Toaster })))

/** App-wide providers. Server state lives only in TanStack Query (docs/decisions/005). */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient())
  return (
    <QueryClientProvider client={client}>
      {children}
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </QueryClientProvider>
  )
}
