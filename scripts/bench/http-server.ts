// Child process for `npm run bench:http`: the real app on a real database (PGlite in memory, or
// PostgreSQL when BENCH_DATABASE_URL or DATABASE_URL is set), plus a bare route in the same process
// for comparison, and one signed-in session. Prints {port, cookie, database}.
import { buildApp } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import { migrateDatabase, openDatabase } from '#server/db/client.ts'
import { users } from '#server/db/schema.ts'
import { createSession, SESSION_COOKIE } from '#server/lib/sessions.ts'
import { loadTokenCipher } from '#server/lib/token-key.ts'
import { createServices } from '#server/services.ts'

const config = loadConfig({
  APP_URL: 'http://127.0.0.1:3192',
  LOG_LEVEL: 'warn',
  GOOGLE_CLIENT_ID: 'bench',
  GOOGLE_CLIENT_SECRET: 'bench',
  MICROSOFT_CLIENT_ID: 'bench',
  MICROSOFT_CLIENT_SECRET: 'bench',
  TOKEN_ENCRYPTION_KEY: 'bench-token-encryption-key-of-32-characters',
})
// BENCH_DATABASE_URL (or DATABASE_URL) set: the same benchmark on PostgreSQL (pool max 3, plus the
// session cache's LISTEN connection); otherwise PGlite in memory.
const databaseUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL
const handle = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: undefined })
await migrateDatabase(handle)
const [user] = await handle.db
  .insert(users)
  .values({ displayName: 'Bench User', email: `bench-${Date.now()}@example.com`, role: 'user' })
  .returning({ id: users.id })
if (!user) throw new Error('could not create the benchmark user')
const session = await createSession(handle.db, { userId: user.id, ipAddress: '127.0.0.1', userAgent: 'autocannon' })

// The benchmark measures HTTP only: sync jobs are not part of it.
const services = createServices({ db: handle.db, config, cipher: loadTokenCipher(config), jobs: { enqueueSync: async () => {} }, log: console })
const app = await buildApp({ config, db: handle.db, services, authRateLimit: { max: 1e9, timeWindow: 60_000 } })
app.get('/_bench/bare', async () => ({ ok: true }))
await app.listen({ host: '127.0.0.1', port: 3192 })
process.send?.({ port: 3192, cookie: `${SESSION_COOKIE}=${session.token}`, database: handle.kind })
process.on('SIGTERM', async () => {
  await app.close()
  await handle.close()
  process.exit(0)
})
