import type { ProviderHealth } from '#shared/api/admin.ts'
import { parseTime } from '#client/lib/relative-time.ts'
import type { CircuitState } from '../messages.ts'

/** Whether the circuit is open at `now`: circuitOpenUntil is a valid time in the future. */
export function isCircuitOpen(provider: Pick<ProviderHealth, 'circuitOpenUntil'>, now: number): boolean {
  const until = parseTime(provider.circuitOpenUntil)
  return typeof until === 'number' && until > now
}

/**
 * SPEC 4 "Circuit breaker": open (unhealthy) if circuitOpenUntil is in the future; otherwise
 * healthy or degraded according to isHealthy.
 */
export function circuitState(provider: Pick<ProviderHealth, 'isHealthy' | 'circuitOpenUntil'>, now: number): CircuitState {
  if (isCircuitOpen(provider, now)) return 'open'
  return provider.isHealthy ? 'healthy' : 'degraded'
}

/**
 * SPEC 4 "Circuit breaker", provider overall: operational only if every provider is healthy and
 * none has a future circuitOpenUntil; otherwise systemic issues.
 */
export function providersOperational(providers: readonly Pick<ProviderHealth, 'isHealthy' | 'circuitOpenUntil'>[], now: number): boolean {
  return providers.every((provider) => provider.isHealthy && !isCircuitOpen(provider, now))
}
