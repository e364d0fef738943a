import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import { and, eq, gt, lte, sql } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { rateLimitWindows } from '#server/db/schema.ts'

/** Ended windows are deleted at most this often per process, by the first counted request after it. */
export const RATE_LIMIT_CLEANUP_INTERVAL_MS = 60_000

type StoreCallback = (error: Error | null, result?: { current: number; ttl: number }) => void

/** What @fastify/rate-limit hands a store: its merged settings, and for a route's child the route. */
interface StoreParams {
  continueExceeding?: boolean
  exponentialBackoff?: boolean
  routeInfo?: { method?: string | string[]; url?: string }
}

/** Milliseconds left in the row's window by the database clock (every process shares that one). */
const ttlMs = sql<number>`greatest(0, ceil(extract(epoch from (${rateLimitWindows.expiresAt} - now())) * 1000))::integer`

/**
 * A store for @fastify/rate-limit that keeps its counters in the database, so every web process on
 * one PostgreSQL counts against the same limit (docs/decisions/021-session-cache-and-shared-rate-limits.md).
 * One atomic upsert per counted request: a fixed window like the plugin's in-memory store, started by
 * the first hit and timed by the database clock. Works the same on PGlite.
 */
export function databaseRateLimitStore(db: Database, { cleanupIntervalMs = RATE_LIMIT_CLEANUP_INTERVAL_MS } = {}): FastifyRateLimitStoreCtor {
  let lastCleanupAt = Number.NEGATIVE_INFINITY

  /** Deletes ended windows; a failure only leaves them for the next attempt. */
  async function cleanupIfDue(now: number) {
    if (now - lastCleanupAt < cleanupIntervalMs) return
    lastCleanupAt = now
    await db
      .delete(rateLimitWindows)
      .where(lte(rateLimitWindows.expiresAt, sql`now()`))
      .catch(() => {})
  }

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    readonly #continueExceeding: boolean
    readonly #prefix: string

    /** `options`: the plugin's merged settings (its types name fewer fields than it passes), for a child with the route. */
    constructor(options: object, prefix = '') {
      const params = options as StoreParams
      if (params.exponentialBackoff) throw new Error('The database rate-limit store does not support exponentialBackoff')
      this.#continueExceeding = params.continueExceeding === true
      this.#prefix = prefix
    }

    incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
      this.#hit(this.#prefix + key, timeWindow, max).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      )
    }

    /** The current count without counting (the plugin's `{ increment: false }`). */
    read(key: string, callback: StoreCallback): void {
      db.select({ hits: rateLimitWindows.hits, ttl: ttlMs })
        .from(rateLimitWindows)
        .where(and(eq(rateLimitWindows.key, this.#prefix + key), gt(rateLimitWindows.expiresAt, sql`now()`)))
        .then(
          ([row]) => callback(null, row ? { current: row.hits, ttl: row.ttl } : { current: 0, ttl: 0 }),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        )
    }

    /** One store per limited route, its keys prefixed by the route as the plugin's Redis store does. */
    child(routeOptions: unknown): FastifyRateLimitStore {
      const params = routeOptions as StoreParams
      const method = [params.routeInfo?.method ?? ''].flat().join(',')
      return new DatabaseRateLimitStore(params, `${method} ${params.routeInfo?.url ?? ''}|`)
    }

    async #hit(key: string, timeWindow: number, max: number) {
      const ended = sql`${rateLimitWindows.expiresAt} <= now()`
      // With continueExceeding, every request over the limit starts the window again.
      const restart = this.#continueExceeding ? sql`(${ended} or ${rateLimitWindows.hits} + 1 > ${max})` : ended
      const [row] = await db
        .insert(rateLimitWindows)
        .values({ key, hits: 1, expiresAt: sql`now() + make_interval(secs => ${timeWindow}::double precision / 1000)` })
        .onConflictDoUpdate({
          target: rateLimitWindows.key,
          set: {
            hits: sql`case when ${ended} then 1 else ${rateLimitWindows.hits} + 1 end`,
            expiresAt: sql`case when ${restart} then excluded.expires_at else ${rateLimitWindows.expiresAt} end`,
          },
        })
        .returning({ hits: rateLimitWindows.hits, ttl: ttlMs })
      if (!row) throw new Error('rate-limit upsert returned no row')
      await cleanupIfDue(Date.now())
      return { current: row.hits, ttl: row.ttl }
    }
  }

  return DatabaseRateLimitStore
}
