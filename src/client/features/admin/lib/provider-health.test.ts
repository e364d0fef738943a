import { describe, expect, it } from 'vitest'
import { circuitState, providersOperational } from './provider-health.ts'

const NOW = Date.parse('2025-09-30T12:00:00.000Z')
const future = new Date(NOW + 60_000).toISOString()
const past = new Date(NOW - 60_000).toISOString()

describe('circuit breaker (SPEC 4 "Circuit breaker")', () => {
  it('is open when circuitOpenUntil is in the future, whatever isHealthy says; otherwise healthy or degraded by isHealthy', () => {
    expect(circuitState({ isHealthy: true, circuitOpenUntil: future }, NOW)).toBe('open')
    expect(circuitState({ isHealthy: false, circuitOpenUntil: future }, NOW)).toBe('open')
    expect(circuitState({ isHealthy: true, circuitOpenUntil: past }, NOW)).toBe('healthy')
    expect(circuitState({ isHealthy: false, circuitOpenUntil: null }, NOW)).toBe('degraded')
    expect(circuitState({ isHealthy: true, circuitOpenUntil: 'not a date' }, NOW)).toBe('healthy')
  })

  it('is operational overall only if every provider is healthy and none has a future circuitOpenUntil', () => {
    expect(providersOperational([{ isHealthy: true, circuitOpenUntil: null }, { isHealthy: true, circuitOpenUntil: past }], NOW)).toBe(true)
    expect(providersOperational([{ isHealthy: true, circuitOpenUntil: null }, { isHealthy: true, circuitOpenUntil: future }], NOW)).toBe(false)
    expect(providersOperational([{ isHealthy: true, circuitOpenUntil: null }, { isHealthy: false, circuitOpenUntil: null }], NOW)).toBe(false)
  })
})
