import { and, eq, gt, or, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { providerHealth } from '#server/db/schema.ts'

/** SPEC 5: the three breakers an operator can reset. */
export const BREAKER_SERVICES = ['gmail', 'outlook', 'openai_classification'] as const
export type BreakerService = (typeof BREAKER_SERVICES)[number]

export interface BreakerOptions {
  /** Consecutive failures that affect everyone (5xx, timeouts, network) before the breaker opens. */
  threshold?: number
  /** How long it stays open; then one probe is let through. */
  coolDownMs?: number
  now?: () => Date
}

export const DEFAULT_BREAKER = { threshold: 5, coolDownMs: 60_000 } as const

export type BreakerState = { open: false } | { open: true; until: Date }

/**
 * Circuit breakers for the providers (issue 14 item 6), persisted as SPEC 3 provider health entries so
 * every process shares them. Only failures that affect everyone count (the caller decides: 5xx,
 * timeouts, network errors after the adapter's own retries); one mailbox's 429 or dead grant never
 * trips a breaker. While open, callers delay their work rather than fail it. After the cool-down the
 * next call is the probe: success closes the breaker, failure opens it again.
 */
export function createCircuitBreakers(db: Database, options: BreakerOptions = {}) {
  const threshold = options.threshold ?? DEFAULT_BREAKER.threshold
  const coolDownMs = options.coolDownMs ?? DEFAULT_BREAKER.coolDownMs
  const now = options.now ?? (() => new Date())

  async function state(service: BreakerService): Promise<BreakerState> {
    const [row] = await db
      .select({ circuitOpenUntil: providerHealth.circuitOpenUntil })
      .from(providerHealth)
      .where(eq(providerHealth.serviceName, service))
      .limit(1)
    const until = row?.circuitOpenUntil
    return until && until > now() ? { open: true, until } : { open: false }
  }

  /** A call went through: the breaker closes (one write only when it was not already closed and clean). */
  async function success(service: BreakerService): Promise<void> {
    await db
      .update(providerHealth)
      .set({ isHealthy: true, failureCount: 0, circuitOpenUntil: null, updatedAt: now() })
      .where(and(eq(providerHealth.serviceName, service), or(gt(providerHealth.failureCount, 0), eq(providerHealth.isHealthy, false))))
  }

  /** A failure that affects everyone: counted; at the threshold (or when a probe fails) the breaker opens. */
  async function failure(service: BreakerService): Promise<BreakerState> {
    const at = now()
    const openUntil = new Date(at.getTime() + coolDownMs)
    const [row] = await db
      .insert(providerHealth)
      .values({ serviceName: service, isHealthy: threshold > 1, failureCount: 1, lastFailureAt: at, circuitOpenUntil: threshold > 1 ? null : openUntil, updatedAt: at })
      .onConflictDoUpdate({
        target: providerHealth.serviceName,
        set: {
          failureCount: sql`${providerHealth.failureCount} + 1`,
          lastFailureAt: at,
          updatedAt: at,
          isHealthy: sql`${providerHealth.failureCount} + 1 < ${threshold}`,
          circuitOpenUntil: sql`case when ${providerHealth.failureCount} + 1 >= ${threshold} then ${openUntil.toISOString()}::timestamptz else ${providerHealth.circuitOpenUntil} end`,
        },
      })
      .returning({ circuitOpenUntil: providerHealth.circuitOpenUntil })
    const until = row?.circuitOpenUntil
    return until && until > at ? { open: true, until } : { open: false }
  }

  /** SPEC 5 "Circuit breaker reset" (admin): closed and clean. */
  async function reset(service: BreakerService): Promise<void> {
    await db
      .insert(providerHealth)
      .values({ serviceName: service, isHealthy: true, failureCount: 0, circuitOpenUntil: null, updatedAt: now() })
      .onConflictDoUpdate({ target: providerHealth.serviceName, set: { isHealthy: true, failureCount: 0, circuitOpenUntil: null, updatedAt: now() } })
  }

  /** SPEC 3 provider health entries, one per breaker (a breaker that never failed reads healthy). */
  async function list() {
    const rows = await db.select().from(providerHealth)
    return BREAKER_SERVICES.map((service) => {
      const row = rows.find((r) => r.serviceName === service)
      return {
        id: row?.id ?? 0,
        serviceName: service,
        isHealthy: row?.isHealthy ?? true,
        failureCount: row?.failureCount ?? 0,
        lastFailureAt: row?.lastFailureAt ?? null,
        circuitOpenUntil: row?.circuitOpenUntil ?? null,
        updatedAt: row?.updatedAt ?? null,
      }
    })
  }

  return { state, success, failure, reset, list }
}

export type CircuitBreakers = ReturnType<typeof createCircuitBreakers>
