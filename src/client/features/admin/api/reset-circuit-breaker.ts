import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { resetCircuitBreakerContract, type ServiceName } from '#shared/api/admin.ts'
import { callApi } from '#client/lib/api-client.ts'
import { ADMIN_MESSAGES } from '../messages.ts'
import { providerHealthQueryOptions } from './get-provider-health.ts'

/** POST /_api/health/reset-circuit-breaker {serviceName} (SPEC 5 values; SPEC 7 "Health"). */
export const resetCircuitBreaker = (serviceName: ServiceName) => callApi(resetCircuitBreakerContract, { body: { serviceName } })

/**
 * A success toast with the server's message, or 'Reset failed: {message}' (SPEC 8 "Admin"); the
 * provider list is fetched again either way.
 */
export function useResetCircuitBreaker() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: resetCircuitBreaker,
    onSuccess: (data) => {
      toast.success(data.message)
    },
    onError: (error) => {
      toast.error(ADMIN_MESSAGES.resetFailed(error.message))
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: providerHealthQueryOptions().queryKey }),
  })
}
