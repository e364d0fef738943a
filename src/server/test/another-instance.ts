import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { buildApp, type AppDeps } from '#server/app.ts'
import { openDatabase } from '#server/db/client.ts'
import type { Database } from '#server/db/client.ts'
import { loadTokenCipher } from '#server/lib/token-key.ts'
import { createServices } from '#server/services.ts'
import type { TestApp } from './harness.ts'

export interface AnotherInstance {
  app: FastifyInstance
  db: Database
  close(): Promise<void>
}

/**
 * A second web instance beside `ctx`, as another process on the same database would be: on
 * PostgreSQL its own connection pool (and so its own session cache and LISTEN connection); on
 * PGlite the same in-process database, since only one process can open it.
 */
export async function anotherInstance(ctx: TestApp, deps: Pick<AppDeps, 'authRateLimit' | 'waitlistRateLimit' | 'pollRateLimit'> = {}): Promise<AnotherInstance> {
  const { handle } = ctx.database
  const own = handle.kind === 'postgres' ? await openDatabase({ databaseUrl: handle.connectionString }) : null
  const db = own?.db ?? handle.db
  const quiet = { info: () => {}, warn: () => {}, error: () => {} }
  const services = createServices({ db, config: ctx.config, cipher: loadTokenCipher(ctx.config), jobs: { enqueueSync: async () => {} }, log: quiet })
  const app = await buildApp({
    config: ctx.config,
    db,
    services,
    clientDir: '/nonexistent-client-dir',
    logDestination: new Writable({ write: (_chunk, _encoding, done) => done() }),
    authRateLimit: { max: 1000, timeWindow: 60_000 },
    waitlistRateLimit: { max: 1000, timeWindow: 60_000 },
    ...deps,
  })
  await app.ready()
  return {
    app,
    db,
    async close() {
      await app.close()
      await own?.close()
    },
  }
}
