import { QueryClient } from '@tanstack/react-query'

const MINUTE = 60_000

/**
 * SPEC 7 "Retry behaviour": default queries retry up to 3 times, but never when the error message
 * contains '4' (client errors such as 401/403/404 carry it) and never for 'Authentication required'.
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (failureCount >= 3) return false
  const message = error instanceof Error ? error.message : String(error)
  if (message.includes('4')) return false
  if (message.includes('Authentication required')) return false
  return true
}

/** SPEC 9 "Timing": fresh 5 min, kept 10 min, no refetch on window focus; mutations retry once. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5 * MINUTE,
        gcTime: 10 * MINUTE,
        refetchOnWindowFocus: false,
        retry: shouldRetryQuery,
      },
      mutations: {
        retry: 1,
      },
    },
  })
}
