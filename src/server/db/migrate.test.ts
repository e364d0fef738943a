import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { migrateDatabase, openDatabase, type DatabaseHandle } from '#server/db/client.ts'
import { readTestDatabaseUrl } from '#server/config.ts'
import { createTestDatabase, type TestDatabase } from '#server/test/databases.ts'

// Several processes started at once on an empty PostgreSQL all migrate it (README "Several
// processes"); before the migration lock, all but one failed on tables the first had just created.
describe.runIf(readTestDatabaseUrl())('migrations on PostgreSQL', () => {
  let database: TestDatabase | undefined
  const others: DatabaseHandle[] = []
  afterAll(async () => {
    for (const handle of others) await handle.close()
    await database?.destroy()
  })

  it('three processes migrating one database at once all succeed, and each migration is applied once', async () => {
    database = await createTestDatabase('postgres')
    // A second, empty database of the same server: drop what the helper migrated, then race.
    const { handle } = database
    if (handle.kind !== 'postgres') throw new Error('expected PostgreSQL')
    await handle.db.execute(sql`drop schema public cascade; create schema public; drop schema if exists drizzle cascade`)
    for (let i = 0; i < 3; i++) others.push(await openDatabase({ databaseUrl: handle.connectionString }))
    const results = await Promise.allSettled(others.map((other) => migrateDatabase(other)))
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled'])
    const applied = (await handle.db.execute(sql`select count(*)::int as n, count(distinct hash)::int as distinct_hashes from drizzle.__drizzle_migrations`)) as unknown as {
      rows: Array<{ n: number; distinct_hashes: number }>
    }
    expect(applied.rows[0]!.n).toBeGreaterThan(10)
    expect(applied.rows[0]!.n).toBe(applied.rows[0]!.distinct_hashes)
  })
})
