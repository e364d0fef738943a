import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs'
import { hostname } from 'node:os'

/**
 * One app process of the soak (`node --import tsx src/server/main.ts` with ROLE and the environment the
 * soak gives it), started again after it is killed: one `AppProcess` is one slot (`web-1`, `worker-2`,
 * `all`), each start of it one `Life` with its pid, so RSS samples and sync runs (sync_runs.worker is
 * `host:pid`) are told apart per life. Its log goes to a file.
 */

export type Role = 'all' | 'web' | 'worker'

export interface Life {
  pid: number
  startedAt: number
  readyAt?: number
  /** When it was killed (SIGKILL) or exited. */
  endedAt?: number
  killed: boolean
  exitCode?: number | null
  /** RSS samples: time (ms epoch) and MB. */
  rss: Array<{ at: number; mb: number }>
}

export interface AppProcess {
  name: string
  role: Role
  lives: Life[]
  current(): Life | undefined
  start(): Promise<Life>
  /** SIGKILL: no shutdown, as when a machine or container dies. */
  kill(): Promise<void>
  /** SIGTERM and wait (the app closes gracefully). */
  stop(): Promise<void>
  /** SIGSTOP, then SIGCONT after `ms`: a process frozen by its host (a long GC, CPU throttling, a VM paused). */
  pause(ms: number): Promise<void>
  sampleRss(): void
}

const READY = { all: 'Inbox Guard is ready', web: 'Inbox Guard is ready', worker: 'Inbox Guard worker is ready' } as const

/** The name the pipeline writes into sync_runs.worker for a process (src/server/pipeline/run-sync.ts). */
export const workerNameOf = (pid: number) => `${hostname()}:${pid}`

/** Resident set size of a live process in MB, from /proc (Linux). */
export function rssMb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) / 1024 : undefined
  } catch {
    return undefined
  }
}

/** `env` is the whole environment of the process (the soak passes PATH and HOME along). */
export function appProcess(options: { name: string; role: Role; cwd: string; env: Record<string, string>; logFile: string; readyTimeoutMs?: number }): AppProcess {
  const lives: Life[] = []
  let child: ChildProcess | undefined
  let exited: Promise<void> = Promise.resolve()
  let log: WriteStream | undefined

  const current = () => {
    const life = lives.at(-1)
    return life && life.endedAt === undefined ? life : undefined
  }

  async function start(): Promise<Life> {
    if (current()) throw new Error(`${options.name} is already running`)
    log ??= createWriteStream(options.logFile, { flags: 'a' })
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: options.cwd,
      env: { ...options.env, ROLE: options.role },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child = proc
    const life: Life = { pid: proc.pid!, startedAt: Date.now(), killed: false, rss: [] }
    lives.push(life)
    log.write(`\n--- ${new Date().toISOString()} ${options.name} (ROLE=${options.role}) pid ${life.pid}\n`)
    proc.stdout!.pipe(log, { end: false })
    proc.stderr!.pipe(log, { end: false })
    exited = new Promise((resolve) =>
      proc.once('exit', (code) => {
        life.endedAt ??= Date.now()
        life.exitCode = code
        resolve()
      }),
    )
    let output = ''
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${options.name} was not ready within ${(options.readyTimeoutMs ?? 90_000) / 1000} s (log: ${options.logFile})`)), options.readyTimeoutMs ?? 90_000)
      const onData = (chunk: Buffer) => {
        output += chunk.toString()
        if (output.includes(READY[options.role])) {
          clearTimeout(timer)
          proc.stdout!.off('data', onData)
          resolve()
        }
        if (output.length > 200_000) output = output.slice(-20_000)
      }
      proc.stdout!.on('data', onData)
      proc.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`${options.name} exited with ${code} before it was ready (log: ${options.logFile})`))
      })
    })
    life.readyAt = Date.now()
    return life
  }

  return {
    name: options.name,
    role: options.role,
    lives,
    current,
    start,
    async kill() {
      const life = current()
      if (!life || !child) return
      life.killed = true
      life.endedAt = Date.now()
      child.kill('SIGKILL')
      // A stopped process dies of SIGKILL too; nothing else to wake.
      await exited
    },
    async stop() {
      if (!current() || !child) return
      child.kill('SIGTERM')
      await exited
    },
    async pause(ms) {
      if (!current() || !child) return
      child.kill('SIGSTOP')
      await new Promise((resolve) => setTimeout(resolve, ms))
      if (current()) child.kill('SIGCONT')
    },
    sampleRss() {
      const life = current()
      if (!life) return
      const mb = rssMb(life.pid)
      if (mb !== undefined) life.rss.push({ at: Date.now(), mb })
    },
  }
}
