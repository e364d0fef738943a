import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { lockDataDir } from './data-dir.ts'
import * as schema from './schema.ts'

/** Both drivers share this type; services never need to know which one runs (decision 002). */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>

export type DatabaseHandle =
  | { kind: 'pglite'; db: Database; pglite: PGlite; close(): Promise<void> }
  | { kind: 'postgres'; db: Database; pool: pg.Pool; connectionString: string; close(): Promise<void> }

export type DatabaseOptions =
  | { databaseUrl: string }
  /** dataDir undefined = in memory (tests), unlocked; a directory is locked to this process while open. */
  | { dataDir: string | undefined }

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../../drizzle', import.meta.url))

/**
 * SPEC 1: "the database pool maximum is 3"; SPEC 9: idle 30 s. Connecting gives up after 10 s so a
 * wrong DATABASE_URL fails start-up quickly instead of hanging.
 */
export const POOL_OPTIONS = { max: 3, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 10_000 } as const

/**
 * The embedded database's memory settings (issue 19: idle RSS). PostgreSQL's defaults reserve 128 MB of
 * shared buffers, which PGlite's WebAssembly memory commits at start; one user's mailboxes fit in a
 * few MB, and the operating system's page cache sits under PGlite's files anyway.
 */
export const PGLITE_OPTIONS = { postgresqlconf: ['shared_buffers = 8MB', 'wal_buffers = 1MB', 'maintenance_work_mem = 16MB'] }

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ('databaseUrl' in options) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, ...POOL_OPTIONS })
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => {})
    const db = drizzlePg({ client: pool, schema }) as unknown as Database
    return { kind: 'postgres', db, pool, connectionString: options.databaseUrl, close: () => pool.end() }
  }
  if (!options.dataDir) return wrapPglite(await PGlite.create(PGLITE_OPTIONS))

  // One process per data directory (issue 11 item 1): the lock is taken before PGlite touches the
  // files and released when the handle closes.
  const lock = await lockDataDir(options.dataDir)
  try {
    const dir = path.join(lock.dir, 'pglite')
    // Not `recursive: true`: the parent exists and was checked by lockDataDir (see data-dir.ts).
    try {
      mkdirSync(dir)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    return wrapPglite(await PGlite.create(dir, PGLITE_OPTIONS), () => lock.release())
  } catch (error) {
    lock.release()
    throw error
  }
}

function wrapPglite(pglite: PGlite, afterClose: () => void = () => {}): DatabaseHandle {
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Database
  return {
    kind: 'pglite',
    db,
    pglite,
    close: async () => {
      try {
        if (!pglite.closed) await pglite.close()
      } finally {
        afterClose()
      }
    },
  }
}

/** Applies the committed drizzle/ migrations; safe to run on every start (already-applied ones are skipped). */
/** The advisory lock migrations hold on PostgreSQL ("IGMG" in ASCII). */
const MIGRATION_LOCK_KEY = 0x49474d47

export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'postgres') {
    // Several processes starting at once on one database migrate one after another: the others wait
    // for the lock, then find nothing left to apply (decision 022).
    const client = await handle.pool.connect()
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
      try {
        await migratePg(drizzlePg({ client }), { migrationsFolder: MIGRATIONS_FOLDER })
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
      }
    } finally {
      client.release()
    }
  } else {
    await migratePglite(drizzlePglite({ client: handle.pglite }), { migrationsFolder: MIGRATIONS_FOLDER })
  }
}
