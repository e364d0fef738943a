import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { readTestDatabaseUrl } from '#server/config.ts'
import { migrateDatabase, openDatabase, type DatabaseHandle } from '#server/db/client.ts'

/**
 * Every API test file runs on a fresh database per driver (STYLE.md 18, DESIGN "Tests run on both"):
 * PGlite in memory always; PostgreSQL too when TEST_DATABASE_URL is set. Use with describe.each:
 *
 *   describe.each(testDatabaseKinds())('sign-in on %s', (kind) => { ... createTestDatabase(kind) ... })
 */
export type TestDatabaseKind = 'pglite' | 'postgres'

export function testDatabaseKinds(): TestDatabaseKind[] {
  return readTestDatabaseUrl() ? ['pglite', 'postgres'] : ['pglite']
}

export interface TestDatabase {
  kind: TestDatabaseKind
  handle: DatabaseHandle
  /** Closes the connection and, on PostgreSQL, drops the database. */
  destroy(): Promise<void>
}

export async function createTestDatabase(kind: TestDatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const handle = await openDatabase({ dataDir: undefined })
    await migrateDatabase(handle)
    return { kind, handle, destroy: () => handle.close() }
  }

  const adminUrl = readTestDatabaseUrl()
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set')
  const name = `inbox_guard_test_${Date.now()}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE "${name}"`)
  } finally {
    await admin.end()
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const handle = await openDatabase({ databaseUrl: url.toString() })
  await migrateDatabase(handle)
  return {
    kind,
    handle,
    async destroy() {
      await handle.close()
      const cleanup = new pg.Client({ connectionString: adminUrl })
      await cleanup.connect()
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      } finally {
        await cleanup.end()
      }
    },
  }
}
