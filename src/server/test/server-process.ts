import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/**
 * The real server as a child process (`node --import tsx src/server/main.ts`), for tests of what an
 * operator sees: exit codes, messages, answers over HTTP. Call stopServers() in afterEach/afterAll.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const POLL_MS = 50

export interface ServerExit {
  code: number | null
  signal: NodeJS.Signals | null
}

export interface ServerProcess {
  pid: number
  stdout(): string
  stderr(): string
  /** The bound address ("http://127.0.0.1:41234") from the "Inbox Guard is ready" log line. */
  listening(timeoutMs: number): Promise<string>
  /** Resolves when the process has exited and its output is complete. */
  exit(timeoutMs: number): Promise<ServerExit>
  kill(signal: NodeJS.Signals): void
}

const running = new Set<ServerProcess>()

/**
 * Starts the server with only the given variables (plus PORT=0, HOST=127.0.0.1, LOG_LEVEL=info): the
 * developer's own DATABASE_URL or OAuth settings must not leak into the test. No OAuth = demo mode.
 */
export function startServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  let exited: ServerExit | undefined
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  // 'close', not 'exit': the output is complete by then.
  child.on('close', (code, signal) => {
    exited = { code, signal }
    running.delete(server)
  })
  if (child.pid === undefined) throw new Error('the server process did not start')
  const describe = () => `stdout:\n${stdout}\nstderr:\n${stderr}`

  const server: ServerProcess = {
    pid: child.pid,
    stdout: () => stdout,
    stderr: () => stderr,
    listening: (timeoutMs) =>
      poll(timeoutMs, 'the "Inbox Guard is ready" log line', describe, () => {
        const address = findListeningAddress(stdout)
        if (address) return address
        if (exited) throw new Error(`the server exited (${JSON.stringify(exited)}) before listening\n${describe()}`)
        return undefined
      }),
    exit: (timeoutMs) => poll(timeoutMs, 'the server to exit', describe, () => exited),
    kill: (signal) => {
      if (!exited) child.kill(signal)
    },
  }
  running.add(server)
  return server
}

/** Stops every server still running: SIGTERM, then SIGKILL for one that does not exit in 5 s. */
export async function stopServers() {
  await Promise.all(
    [...running].map(async (server) => {
      server.kill('SIGTERM')
      try {
        await server.exit(5_000)
      } catch {
        server.kill('SIGKILL')
        await server.exit(5_000)
      }
    }),
  )
}

function findListeningAddress(stdout: string): string | undefined {
  for (const line of stdout.split('\n')) {
    if (!line.includes('Inbox Guard is ready')) continue
    const { address } = JSON.parse(line) as { address?: unknown }
    if (typeof address === 'string') return address
  }
  return undefined
}

function poll<T>(timeoutMs: number, what: string, describe: () => string, check: () => T | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const deadline = Date.now() + timeoutMs
    const tick = () => {
      let value: T | undefined
      try {
        value = check()
      } catch (error) {
        reject(error as Error)
        return
      }
      if (value !== undefined) resolve(value)
      else if (Date.now() > deadline) reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${describe()}`))
      else setTimeout(tick, POLL_MS)
    }
    tick()
  })
}
