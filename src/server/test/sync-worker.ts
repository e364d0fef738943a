// A second worker process for the crash test (src/server/pipeline/sync-mailbox.test.ts): it syncs one
// mailbox of a PostgreSQL database over and over, against the same fakes, until it is killed.
// Configuration comes from the environment like the app's (loadConfig).
import { loadConfig } from '#server/config.ts'
import { openDatabase } from '#server/db/client.ts'
import { createMailIntegration } from '#server/integrations/mail/mail-integration.ts'
import { loadTokenCipher } from '#server/lib/token-key.ts'
import { createServices } from '#server/services.ts'

const config = loadConfig()
const mailboxId = Number(process.argv[2])
if (!config.databaseUrl || !Number.isInteger(mailboxId)) throw new Error('usage: DATABASE_URL=… sync-worker.ts <mailboxId>')
const handle = await openDatabase({ databaseUrl: config.databaseUrl })
const quiet = { info: () => {}, warn: () => {} }
const services = createServices({
  db: handle.db,
  config,
  cipher: loadTokenCipher(config),
  jobs: { enqueueSync: async () => {} },
  log: quiet,
  mail: createMailIntegration(config, { retry: { baseDelayMs: 5, maxDelayMs: 50 } }),
})
process.stdout.write('ready\n')
for (;;) {
  await services.pipeline.sync(mailboxId, 'poll').catch(() => {})
}
