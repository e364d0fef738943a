import { sql } from 'drizzle-orm'
import pg from 'pg'
import type { Database } from '#server/db/client.ts'
import type { ResolvedSession } from './sessions.ts'

/**
 * A short-lived in-process cache of resolved sessions, so a signed-in request does not read the
 * database each time (docs/decisions/021-session-cache-and-shared-rate-limits.md). Whatever ends or
 * changes a session or its user calls `sessionsChanged` once the change is committed: this process
 * forgets at once, and on PostgreSQL every other web process hears it through LISTEN/NOTIFY.
 */

/** How long an entry is served without reading the database: the bound on staleness if a notice is lost. */
export const SESSION_CACHE_TTL_MS = 5_000
/** Entries kept at most; the oldest goes first. */
export const SESSION_CACHE_MAX_ENTRIES = 10_000
/** The NOTIFY channel the web processes listen on. */
export const SESSION_CACHE_CHANNEL = 'inbox_guard_session_cache'
/** application_name of the LISTEN connection, so operators (and tests) can find it in pg_stat_activity. */
export const SESSION_CACHE_APPLICATION_NAME = 'inbox-guard session cache'
/** How often the LISTEN connection is checked; one that does not answer in time is replaced. */
const HEARTBEAT_MS = 5_000
const HEARTBEAT_TIMEOUT_MS = 3_000
/** Reconnecting waits 1 s, doubling while the database stays unreachable, up to 10 s. */
const RECONNECT_DELAY_MS = 1_000
const RECONNECT_MAX_DELAY_MS = 10_000
/** NOTIFY payloads are limited to 8000 bytes; a longer list of ids is announced as "everything". */
const MAX_PAYLOAD_LENGTH = 7_000

/** What changed: these sessions, every session of this user (the user's fields too), or anything. */
export type SessionChange = { sessionIds: readonly string[] } | { userId: number } | { all: true }

interface Entry {
  session: ResolvedSession
  /** Served until the earlier of the TTL and the session's own expiry (ms since the epoch). */
  validUntil: number
}

interface Log {
  warn(obj: object, msg: string): void
}

export class SessionCache {
  readonly #entries = new Map<string, Entry>()
  /**
   * Bumped by every change. A database read that began before a change may return the old row, so
   * its result is cached only if no change arrived while it ran.
   */
  #generation = 0
  /** On PostgreSQL, false whenever the LISTEN connection is not up: a notice could be missed. */
  #enabled: boolean
  readonly #maxEntries: number

  constructor({ enabled, maxEntries = SESSION_CACHE_MAX_ENTRIES }: { enabled: boolean; maxEntries?: number }) {
    this.#enabled = enabled
    this.#maxEntries = maxEntries
  }

  get size() {
    return this.#entries.size
  }

  /** Whether results are cached now (on PostgreSQL: while the LISTEN connection is up). */
  get enabled() {
    return this.#enabled
  }

  /** Whether a request with this token hash would be answered from the cache now. */
  holds(tokenHash: string, now: number = Date.now()) {
    const entry = this.#entries.get(tokenHash)
    return entry !== undefined && now < entry.validUntil
  }

  /** Counts the changes heard so far (each forget), in this process or from others. */
  get changes() {
    return this.#generation
  }

  /** The cached session of this token hash, or a database read through `load` (cached when safe). */
  async resolve(tokenHash: string, now: number, load: () => Promise<(ResolvedSession & { expiresAt: Date }) | null>): Promise<ResolvedSession | null> {
    const entry = this.#entries.get(tokenHash)
    if (entry) {
      if (now < entry.validUntil) return entry.session
      this.#entries.delete(tokenHash)
    }
    const generation = this.#generation
    const loaded = await load()
    if (!loaded) return null
    const session: ResolvedSession = { sessionId: loaded.sessionId, user: Object.freeze(loaded.user) }
    if (this.#enabled && generation === this.#generation) {
      if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!)
      this.#entries.set(tokenHash, { session, validUntil: Math.min(now + SESSION_CACHE_TTL_MS, loaded.expiresAt.getTime()) })
    }
    return session
  }

  forget(change: SessionChange) {
    this.#generation++
    if ('all' in change) {
      this.#entries.clear()
      return
    }
    const matches =
      'userId' in change
        ? (entry: Entry) => entry.session.user.id === change.userId
        : ((ids) => (entry: Entry) => ids.has(entry.session.sessionId))(new Set(change.sessionIds))
    for (const [key, entry] of this.#entries) if (matches(entry)) this.#entries.delete(key)
  }

  /** Caching on (LISTEN is up) or off (it is down); either way nothing cached before is trusted. */
  setEnabled(enabled: boolean) {
    this.#enabled = enabled
    this.forget({ all: true })
  }
}

export function encodeChange(change: SessionChange): string {
  if ('userId' in change) return JSON.stringify({ u: change.userId })
  if ('sessionIds' in change) {
    const text = JSON.stringify({ s: change.sessionIds })
    if (text.length <= MAX_PAYLOAD_LENGTH) return text
  }
  return JSON.stringify({ a: 1 })
}

/** Anything unreadable is taken as "everything changed": forgetting too much is only slower. */
export function decodeChange(payload: string | undefined): SessionChange {
  try {
    const parsed = JSON.parse(payload ?? '') as { u?: unknown; s?: unknown }
    if (Number.isInteger(parsed.u)) return { userId: parsed.u as number }
    if (Array.isArray(parsed.s) && parsed.s.every((id) => typeof id === 'string')) return { sessionIds: parsed.s as string[] }
  } catch {
    // fall through
  }
  return { all: true }
}

/** The node-postgres pool behind a Database, or null on PGlite. */
function poolOf(db: Database): pg.Pool | null {
  const client = (db as unknown as { $client?: unknown }).$client
  return client instanceof pg.Pool ? client : null
}

/**
 * The one LISTEN connection of a process on PostgreSQL: caching is on only while it is up, and
 * every (re)connect starts from an empty cache, since notices sent while it was down are lost.
 */
function listen(pool: pg.Pool, cache: SessionCache, log: Log) {
  let closed = false
  let current: pg.Client | null = null
  let retry: NodeJS.Timeout | undefined
  let heartbeat: NodeJS.Timeout | undefined
  let delay = RECONNECT_DELAY_MS

  const drop = (client: pg.Client, reason: unknown) => {
    if (current !== client) return
    current = null
    cache.setEnabled(false)
    clearInterval(heartbeat)
    client.end().catch(() => {})
    if (closed) return
    log.warn({ err: reason }, 'session cache: LISTEN connection lost; caching off until it is back')
    retry = setTimeout(() => void connect(), delay)
    retry.unref()
    delay = Math.min(delay * 2, RECONNECT_MAX_DELAY_MS)
  }

  async function connect() {
    if (closed) return
    // A client of its own, outside the pool (pool max 3): it holds the LISTEN for the process's life.
    const client = new pg.Client({ ...pool.options, keepAlive: true, application_name: SESSION_CACHE_APPLICATION_NAME })
    current = client
    client.on('error', (error) => drop(client, error))
    client.on('end', () => drop(client, new Error('connection ended')))
    client.on('notification', (message) => {
      if (message.channel === SESSION_CACHE_CHANNEL) cache.forget(decodeChange(message.payload))
    })
    try {
      await client.connect()
      await client.query(`LISTEN ${SESSION_CACHE_CHANNEL}`)
    } catch (error) {
      drop(client, error)
      return
    }
    // Closed or lost meanwhile: close() or drop() has already ended it.
    if (current !== client) return
    delay = RECONNECT_DELAY_MS
    cache.setEnabled(true)
    heartbeat = setInterval(() => {
      const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('heartbeat timed out')), HEARTBEAT_TIMEOUT_MS).unref())
      Promise.race([client.query('SELECT 1'), timeout]).catch((error: unknown) => drop(client, error))
    }, HEARTBEAT_MS)
    heartbeat.unref()
  }

  void connect()
  return {
    async close() {
      closed = true
      clearTimeout(retry)
      clearInterval(heartbeat)
      const client = current
      current = null
      cache.setEnabled(false)
      await client?.end().catch(() => {})
    },
  }
}

interface Registered {
  cache: SessionCache
  users: number
  close(): Promise<void>
}

/** One cache per database handle: every app built on it shares it, as do its services' invalidations. */
const registry = new WeakMap<Database, Registered>()

/**
 * The session cache of this database, started on first use (the LISTEN connection on PostgreSQL).
 * Each caller closes its own reference; the last one stops the listener.
 */
export function openSessionCache(db: Database, log: Log): { cache: SessionCache; close(): Promise<void> } {
  let registered = registry.get(db)
  if (!registered) {
    const pool = poolOf(db)
    // PGlite: this process is the database's only client, so in-process invalidation is complete.
    const cache = new SessionCache({ enabled: !pool })
    const listener = pool ? listen(pool, cache, log) : null
    registered = { cache, users: 0, close: async () => listener?.close() }
    registry.set(db, registered)
  }
  const entry = registered
  entry.users++
  let open = true
  return {
    cache: entry.cache,
    async close() {
      if (!open) return
      open = false
      if (--entry.users > 0) return
      registry.delete(db)
      await entry.close()
    },
  }
}

/** The cache apps on this database use, if any is open (tests look at it). */
export function sessionCacheOf(db: Database): SessionCache | undefined {
  return registry.get(db)?.cache
}

/**
 * Call after a change to sessions or to a user's session fields has committed. This process forgets
 * at once; other processes on PostgreSQL forget when the NOTIFY reaches them (a few milliseconds),
 * and at worst after SESSION_CACHE_TTL_MS if this process dies between the commit and the NOTIFY.
 * Pass the Database the change was committed on, not a transaction (the local cache is found by it).
 */
export async function sessionsChanged(db: Database, change: SessionChange): Promise<void> {
  if ('sessionIds' in change && change.sessionIds.length === 0) return
  registry.get(db)?.cache.forget(change)
  if (poolOf(db)) await db.execute(sql`select pg_notify(${SESSION_CACHE_CHANNEL}, ${encodeChange(change)})`)
}
