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
import * as schema from './schema.ts'

/** Both drivers share this type; services never need to know which one runs (decision 002). */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>

export type DatabaseHandle =
  | { kind: 'pglite'; db: Database; pglite: PGlite; close(): Promise<void> }
  | { kind: 'postgres'; db: Database; pool: pg.Pool; connectionString: string; close(): Promise<void> }

export type DatabaseOptions =
  | { databaseUrl: string }
  /** dataDir undefined = in memory (tests). */
  | { dataDir: string | undefined }

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../../drizzle', import.meta.url))

/**
 * SPEC 1: "the database pool maximum is 3"; SPEC 9: idle 30 s. Connecting gives up after 10 s so a
 * wrong DATABASE_URL fails start-up quickly instead of hanging.
 */
export const POOL_OPTIONS = { max: 3, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 10_000 } as const

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ('databaseUrl' in options) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, ...POOL_OPTIONS })
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => {})
    const db = drizzlePg({ client: pool, schema }) as unknown as Database
    return { kind: 'postgres', db, pool, connectionString: options.databaseUrl, close: () => pool.end() }
  }
  let dir: string | undefined
  if (options.dataDir) {
    dir = path.resolve(options.dataDir, 'pglite')
    mkdirSync(dir, { recursive: true })
  }
  const pglite = await PGlite.create(dir)
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Database
  return {
    kind: 'pglite',
    db,
    pglite,
    close: async () => {
      if (!pglite.closed) await pglite.close()
    },
  }
}

/** Applies the committed drizzle/ migrations; safe to run on every start (already-applied ones are skipped). */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'postgres') {
    await migratePg(drizzlePg({ client: handle.pool }), { migrationsFolder: MIGRATIONS_FOLDER })
  } else {
    await migratePglite(drizzlePglite({ client: handle.pglite }), { migrationsFolder: MIGRATIONS_FOLDER })
  }
}
