// npm run demo:deliver -- <file.mbox | file.eml | folder> --to <address> [--app <url>]
// Delivers messages into a running demo app's fake mailbox as new mail, with the push notifications a
// real provider sends (Pub/Sub for Gmail, change notifications for Outlook). Demo mode only.

import { parseArgs } from 'node:util'
import { demoDeliverContract } from '#shared/api/demo.ts'
import { InputError, readMessages } from './lib/mailbox-reader.ts'

const USAGE = `Usage: npm run demo:deliver -- <file.mbox | file.eml | folder> --to <address> [options]

Puts each message into the connected demo mailbox <address> of a running demo app (npm start) as new
mail, raising the same push notification a real provider sends. A message whose sender is the
mailbox's own address lands in its sent mail.

Options:
  --to <address>     the demo mailbox (the address shown on the dashboard's Gmail or Outlook card)
  --app <url>        the running app (default http://localhost:3000)
  --delay-ms <n>     pause between messages (default 1100: Gmail pushes at most one notification a second)
  -h, --help         this help`

function fail(message: string, code = 2): never {
  process.stderr.write(`error: ${message}\n`)
  process.exit(code)
}

function readArgs() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        to: { type: 'string' },
        app: { type: 'string', default: 'http://localhost:3000' },
        'delay-ms': { type: 'string', default: '1100' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`)
  }
}

async function main() {
  const { values, positionals } = readArgs()
  if (values.help) {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  const [input] = positionals
  if (!input) fail(`give a file or folder to deliver\n\n${USAGE}`)
  if (!values.to) fail(`give the demo mailbox with --to <address>\n\n${USAGE}`)
  const delayMs = Number(values['delay-ms'])
  if (!Number.isFinite(delayMs) || delayMs < 0) fail('--delay-ms must be a number of milliseconds')
  let app: URL
  try {
    app = new URL(values.app!)
  } catch {
    fail(`--app must be a URL, got ${values.app}`)
  }

  let delivered = 0
  try {
    for await (const item of readMessages(input)) {
      if (delivered > 0 && delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
      let response: Response
      try {
        response = await fetch(new URL(demoDeliverContract.path, app), {
          method: demoDeliverContract.method,
          headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
          body: JSON.stringify({ to: values.to, raw: item.raw }),
        })
      } catch {
        fail(`cannot reach the app at ${app.origin}: is it running (npm start)?`, 1)
      }
      const body = (await response.json().catch(() => ({}))) as { error?: string; provider?: string; id?: string }
      if (response.status === 404 && !body.error) fail(`${app.origin} does not take demo deliveries: it is not running in demo mode`, 1)
      if (!response.ok) fail(`${item.origin}: ${body.error ?? `HTTP ${response.status}`}`, 1)
      delivered++
      process.stdout.write(`delivered ${item.origin} to ${values.to} (${body.provider}, message ${body.id})\n`)
    }
  } catch (error) {
    if (error instanceof InputError) fail(error.message)
    throw error
  }
  if (delivered === 0) fail(`${input} holds no messages`)
  process.stdout.write(`${delivered} message${delivered === 1 ? '' : 's'} delivered\n`)
}

await main()
