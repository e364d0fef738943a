import pg from 'pg'

/**
 * One sync per mailbox at a time, whatever pg-boss does (docs/decisions/022). The queue's stately policy
 * keeps one *job* per mailbox active, but a worker that freezes (a long pause of its host, a stalled
 * event loop) stops sending job heartbeats while its sync is still under way: pg-boss then fails the
 * job and hands it to another worker, and the two sync the same mailbox at once (the soak measured it).
 *
 * So a sync first takes this lock. In-process, a set of the mailboxes being synced here. Across
 * processes (PostgreSQL), a session advisory lock on one dedicated connection per process: it is held as
 * long as that connection lives, so a frozen process keeps it and the other worker defers; a process
 * that dies closes its connection and the lock is free at once (sooner than a job heartbeat notices).
 * The embedded database is single-process, so the set alone covers it.
 */
export interface MailboxLock {
  /** The release function, or null when another sync of this mailbox holds the lock. */
  tryAcquire(mailboxId: number): Promise<(() => Promise<void>) | null>
  close(): Promise<void>
}

/** The advisory lock namespace (pg_advisory_lock's first int4): "IGMS" in ASCII. */
export const ADVISORY_NAMESPACE = 0x49474d53

/**
 * Server-side TCP keepalive for the lock connection: a host that vanishes without closing its
 * connections frees its locks after about a minute instead of the kernel's two hours.
 */
const KEEPALIVE = ['SET tcp_keepalives_idle = 30', 'SET tcp_keepalives_interval = 10', 'SET tcp_keepalives_count = 3']

export function createMailboxLock(options: { connectionString?: string; onError?: (error: unknown) => void } = {}): MailboxLock {
  const held = new Set<number>()
  if (!options.connectionString) {
    return {
      async tryAcquire(mailboxId) {
        if (held.has(mailboxId)) return null
        held.add(mailboxId)
        return async () => {
          held.delete(mailboxId)
        }
      },
      close: async () => {},
    }
  }

  // One connection, checked out while any lock is held and given back when none is: idle, it closes
  // after a while and never keeps the process alive.
  const pool = new pg.Pool({ connectionString: options.connectionString, max: 1, idleTimeoutMillis: 10_000, allowExitOnIdle: true })
  pool.on('error', (error) => options.onError?.(error))
  interface Session {
    client: pg.PoolClient
    /** The connection failed: its locks are gone; it is replaced and thrown away. */
    broken: boolean
  }
  let current: Session | undefined
  let connecting: Promise<Session> | undefined
  const sessions = new WeakMap<pg.PoolClient, Session>()

  function connection(): Promise<Session> {
    if (current && !current.broken) return Promise.resolve(current)
    connecting ??= (async () => {
      if (current?.broken) current.client.release(true)
      current = undefined
      const client = await pool.connect()
      if (!sessions.has(client)) {
        // Once per connection: a lost connection has lost its locks; syncs under way finish, new ones
        // take a new connection.
        client.on('error', (error) => {
          const session = sessions.get(client)
          if (session) session.broken = true
          options.onError?.(error)
        })
        for (const statement of KEEPALIVE) await client.query(statement).catch(() => undefined)
      }
      const session = { client, broken: false }
      sessions.set(client, session)
      current = session
      return session
    })().finally(() => {
      connecting = undefined
    })
    return connecting
  }

  function giveBackIfIdle() {
    if (held.size > 0 || connecting || !current) return
    current.client.release(current.broken)
    current = undefined
  }

  return {
    async tryAcquire(mailboxId) {
      if (held.has(mailboxId)) return null
      held.add(mailboxId)
      let session: Session
      try {
        session = await connection()
        const { rows } = await session.client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [ADVISORY_NAMESPACE, mailboxId])
        if (!rows[0]?.locked) {
          held.delete(mailboxId)
          giveBackIfIdle()
          return null
        }
      } catch (error) {
        held.delete(mailboxId)
        giveBackIfIdle()
        throw error
      }
      return async () => {
        try {
          if (!session.broken) await session.client.query('SELECT pg_advisory_unlock($1, $2)', [ADVISORY_NAMESPACE, mailboxId])
        } catch (error) {
          options.onError?.(error)
        } finally {
          held.delete(mailboxId)
          giveBackIfIdle()
        }
      }
    },
    async close() {
      held.clear()
      await connecting?.catch(() => undefined)
      current?.client.release(true)
      current = undefined
      await pool.end()
    },
  }
}
