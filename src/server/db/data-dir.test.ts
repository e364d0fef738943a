import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startServer, stopServers } from '#server/test/server-process.ts'
import { DataDirError, LOCK_FILE_NAME, lockDataDir, type DataDirLock } from './data-dir.ts'

const onLinux = process.platform === 'linux' && existsSync('/proc/self/stat')
/** A refused start takes 2–4 s (loading the app's modules); the bound is loose for a busy machine and still catches a hang. */
const REFUSED_WITHIN_MS = 15_000

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', ''])
  if (!pid) throw new Error('could not start a short-lived process')
  return pid
}

describe('lockDataDir (issue 11 item 1: one process per DATA_DIR)', () => {
  let dir: string
  let lockFile: string
  const locks: DataDirLock[] = []
  const lock = async (target = dir) => {
    const taken = await lockDataDir(target)
    locks.push(taken)
    return taken
  }
  const writeLock = (record: object) => writeFileSync(lockFile, JSON.stringify(record))
  const lockHolder = () => JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number; hostname: string }
  const aMinuteAgo = () => new Date(Date.now() - 60_000)

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'inbox-guard-lock-'))
    lockFile = path.join(dir, LOCK_FILE_NAME)
  })
  afterEach(() => {
    for (const taken of locks.splice(0)) taken.release()
    rmSync(dir, { recursive: true, force: true })
  })

  it('refuses a second lock on the same DATA_DIR, naming the directory, the holder and what to do', async () => {
    const first = await lock()
    const error: unknown = await lock().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(DataDirError)
    const message = (error as Error).message
    expect(message).toContain(`DATA_DIR ${dir} is in use by another Inbox Guard process`)
    expect(message).toContain(`pid ${process.pid} on host ${os.hostname()}, since `)
    expect(message).toContain('stop that process first, or set DATABASE_URL to a PostgreSQL database to run several processes')
    expect(existsSync(first.lockFile)).toBe(true)
  })

  it('records pid, host and start time in the lock file', async () => {
    await lock()
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid, hostname: os.hostname(), startedAt: expect.any(String) })
  })

  it('takes over a lock left by a process that has exited', async () => {
    writeLock({ pid: deadPid(), hostname: os.hostname(), startedAt: '2026-01-01T00:00:00.000Z' })
    await lock()
    expect(lockHolder().pid).toBe(process.pid)
  })

  it.skipIf(!onLinux)('takes over a lock whose pid now belongs to another process (the recorded start time differs)', async () => {
    // The parent process is alive; the lock says its pid started at tick 1 of this boot, which it did not.
    const own = await lock(path.join(dir, 'probe'))
    const { processStart } = JSON.parse(readFileSync(own.lockFile, 'utf8')) as { processStart: { boot: string; ticks: number } }
    writeLock({ pid: process.ppid, hostname: os.hostname(), startedAt: '2026-01-01T00:00:00.000Z', processStart: { boot: processStart.boot, ticks: 1 } })
    await lock()
    expect(lockHolder().pid).toBe(process.pid)
  })

  it.skipIf(!onLinux)('takes over a lock written in an earlier boot even if its pid is alive now', async () => {
    writeLock({ pid: process.ppid, hostname: os.hostname(), startedAt: '2026-01-01T00:00:00.000Z', processStart: { boot: 'an-earlier-boot', ticks: 1 } })
    await lock()
    expect(lockHolder().pid).toBe(process.pid)
  })

  it('refuses a lock taken on another host and never treats it as stale', async () => {
    const record = { pid: deadPid(), hostname: 'elsewhere.example', startedAt: '2026-01-01T00:00:00.000Z' }
    writeLock(record)
    await expect(lock()).rejects.toThrow(
      `DATA_DIR ${dir} is in use by another Inbox Guard process (pid ${record.pid} on host elsewhere.example, since 2026-01-01T00:00:00.000Z).`,
    )
    await expect(lock()).rejects.toThrow(
      `The lock was taken on another host, so it is never treated as stale automatically: if no process on elsewhere.example uses this directory any more, delete ${lockFile}.`,
    )
    expect(lockHolder()).toEqual(record)
  })

  it('release removes the lock file, and the directory can be locked again', async () => {
    const first = await lock()
    first.release()
    expect(existsSync(lockFile)).toBe(false)
    first.release()
    expect((await lock()).lockFile).toBe(lockFile)
  })

  it('waits for a lock file that is being written, then names its holder', async () => {
    writeFileSync(lockFile, '')
    const record = { pid: process.ppid, hostname: 'elsewhere.example', startedAt: '2026-01-01T00:00:00.000Z' }
    setTimeout(() => writeLock(record), 100)
    await expect(lock()).rejects.toThrow(`(pid ${record.pid} on host elsewhere.example, since 2026-01-01T00:00:00.000Z)`)
  })

  it('takes over an empty lock file left by a process that died while creating it', async () => {
    writeFileSync(lockFile, '')
    utimesSync(lockFile, aMinuteAgo(), aMinuteAgo())
    await lock()
    expect(lockHolder().pid).toBe(process.pid)
  })

  it('takes over a stale lock even when another process died while taking it over', async () => {
    writeLock({ pid: deadPid(), hostname: os.hostname(), startedAt: '2026-01-01T00:00:00.000Z' })
    const guard = `${lockFile}.takeover`
    writeFileSync(guard, '')
    utimesSync(guard, aMinuteAgo(), aMinuteAgo())
    await lock()
    expect(lockHolder().pid).toBe(process.pid)
    expect(existsSync(guard)).toBe(false)
  })

  it('creates DATA_DIR and its missing parents', async () => {
    const nested = path.join(dir, 'a', 'b')
    expect((await lock(nested)).dir).toBe(nested)
    expect(existsSync(path.join(nested, LOCK_FILE_NAME))).toBe(true)
  })

  it('refuses a DATA_DIR under a file, naming DATA_DIR and the file', async () => {
    const file = path.join(dir, 'not-a-directory')
    writeFileSync(file, '')
    await expect(lock(path.join(file, 'data'))).rejects.toThrow(
      `DATA_DIR ${path.join(file, 'data')} cannot hold the embedded database: ${file} exists and is not a directory.`,
    )
  })
})

/**
 * The real server, as an operator runs it (issue 11 items 1 and 7b). Each start costs seconds (the
 * first one creates the database), so the lock's life is one scenario on one DATA_DIR.
 */
describe('the server on a DATA_DIR', () => {
  let dataDir: string

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'inbox-guard-server-'))
  })
  afterEach(stopServers)
  afterAll(async () => {
    await stopServers()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const sessionStatus = async (address: string) => (await fetch(`${address}/_api/auth/session`)).status

  it('runs one server per DATA_DIR: a second exits with code 1 naming the directory and the first pid; after SIGTERM or SIGKILL the next one starts', async () => {
    const lockFile = path.join(dataDir, LOCK_FILE_NAME)
    const first = startServer({ DATA_DIR: dataDir })
    const firstAddress = await first.listening(45_000)

    const second = startServer({ DATA_DIR: dataDir })
    expect((await second.exit(REFUSED_WITHIN_MS)).code, 'a second server on the same DATA_DIR exits with code 1').toBe(1)
    expect(second.stderr()).toContain(`DATA_DIR ${dataDir} is in use by another Inbox Guard process (pid ${first.pid} on host ${os.hostname()}, since `)
    expect(second.stderr()).toContain('stop that process first, or set DATABASE_URL to a PostgreSQL database to run several processes')
    expect(second.stdout()).not.toContain('Inbox Guard is ready')
    expect(await sessionStatus(firstAddress), 'the first server still answers').toBe(200)

    first.kill('SIGTERM')
    expect(await first.exit(10_000), 'SIGTERM stops the first server cleanly').toEqual({ code: 0, signal: null })
    expect(existsSync(lockFile), 'SIGTERM released the lock').toBe(false)
    const third = startServer({ DATA_DIR: dataDir })
    expect(await sessionStatus(await third.listening(30_000)), 'a server starts after SIGTERM').toBe(200)

    third.kill('SIGKILL')
    await third.exit(10_000)
    expect(existsSync(lockFile), 'SIGKILL leaves a stale lock').toBe(true)
    const fourth = startServer({ DATA_DIR: dataDir })
    expect(await sessionStatus(await fourth.listening(30_000)), 'a server starts on the stale lock after SIGKILL').toBe(200)
  }, 120_000)

  it.skipIf(!onLinux)('exits with code 1 within seconds when DATA_DIR is under /proc, naming DATA_DIR (it used to spin forever)', async () => {
    const server = startServer({ DATA_DIR: '/proc/inbox-guard-test' })
    const exit = await server.exit(REFUSED_WITHIN_MS)
    expect(exit.code).toBe(1)
    expect(server.stderr()).toContain(
      'DATA_DIR /proc/inbox-guard-test cannot hold the embedded database: /proc is on procfs, a kernel pseudo-filesystem that cannot store files.',
    )
  }, 30_000)
})
