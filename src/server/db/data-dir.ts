import { randomUUID } from 'node:crypto'
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, statSync, statfsSync, unlinkSync, writeSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { z } from 'zod'

/**
 * The embedded database's directory (issue 11 items 1 and 7b). PGlite has no inter-process lock, and
 * two processes on one directory corrupt it (one user id given to two users, duplicated primary
 * keys), so the directory is locked before PGlite opens it: one process at a time. PostgreSQL
 * (DATABASE_URL) is the way to run several processes.
 *
 * The directory is also checked first: Node's `mkdir(…, { recursive: true })` spins forever in C++
 * when mkdir answers ENOENT under a parent that exists (procfs does: `DATA_DIR=/proc/x` froze the
 * process at 100 % CPU, deaf to SIGTERM), so directories are created one level at a time here.
 */

export const LOCK_FILE_NAME = 'inbox-guard.lock'

/**
 * A lock file (or takeover guard) is written within microseconds of its creation: one still without
 * valid content after this long was left by a process that died in between.
 */
const INCOMPLETE_FILE_GRACE_MS = 2_000
const RETRY_MS = 25
const GIVE_UP_AFTER_MS = 5_000

/** DATA_DIR cannot be used; the message says which directory, why, and what to do. */
export class DataDirError extends Error {
  override name = 'DataDirError'
}

export interface DataDirLock {
  /** The data directory, absolute. */
  dir: string
  lockFile: string
  /** Removes the lock file (only if it is still this process's); safe to call twice. */
  release(): void
}

const ProcessStartSchema = z.object({
  /** /proc/sys/kernel/random/boot_id, or "btime:<seconds>" from /proc/stat where that is missing. */
  boot: z.string(),
  /** /proc/<pid>/stat field 22: start time in clock ticks since boot. */
  ticks: z.number(),
})
type ProcessStart = z.infer<typeof ProcessStartSchema>

const LockRecordSchema = z.object({
  pid: z.number().int().positive(),
  hostname: z.string(),
  startedAt: z.string(),
  /** Linux only: tells the holder apart from an unrelated process that got its pid later. */
  processStart: ProcessStartSchema.optional(),
})
type LockRecord = z.infer<typeof LockRecordSchema>

/** The contents of the lock files this process holds: a second open of one directory in one process is refused too. */
const heldHere = new Set<string>()

/**
 * Creates DATA_DIR if needed, checks that it can hold the database and takes its lock. Throws
 * DataDirError when the directory is unusable or another live process holds the lock; a lock left by
 * a process that has exited on this host is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const dir = path.resolve(dataDir)
  createDirectory(dir)
  const lockFile = path.join(dir, LOCK_FILE_NAME)
  const record: LockRecord & { app: string; id: string } = {
    app: 'inbox-guard',
    pid: process.pid,
    hostname: os.hostname(),
    startedAt: new Date().toISOString(),
    processStart: readProcStat(process.pid)?.start,
    id: randomUUID(),
  }
  const content = `${JSON.stringify(record)}\n`

  const giveUpAt = Date.now() + GIVE_UP_AFTER_MS
  for (;;) {
    if (createLockFile(dir, lockFile, content)) return holdLock(dir, lockFile, content)
    const existing = readLockFile(dir, lockFile)
    // Gone since (released): try again at once.
    let retryAtOnce = existing === undefined
    if (existing) {
      if (existing.record && isHeld(existing.raw, existing.record)) throw heldError(dir, lockFile, existing.record)
      // No valid content yet and young: its process is writing it; wait and read again.
      const stale = existing.record !== undefined || existing.ageMs >= INCOMPLETE_FILE_GRACE_MS
      retryAtOnce = stale && removeStaleLock(dir, lockFile, existing.raw)
    }
    if (Date.now() > giveUpAt) {
      throw new DataDirError(
        `DATA_DIR ${dir}: could not take the lock ${lockFile} within ${GIVE_UP_AFTER_MS / 1000} s because other processes keep changing it. ` +
          'Stop the other processes using this directory, or set DATABASE_URL to a PostgreSQL database to run several processes.',
      )
    }
    if (!retryAtOnce) await sleep(RETRY_MS)
  }
}

function holdLock(dir: string, lockFile: string, content: string): DataDirLock {
  heldHere.add(content)
  let held = true
  const release = () => {
    if (!held) return
    held = false
    heldHere.delete(content)
    process.off('exit', release)
    try {
      // Never remove a lock another process has taken since (after judging this one stale).
      if (readFileSync(lockFile, 'utf8') === content) unlinkSync(lockFile)
    } catch {
      // Already gone.
    }
  }
  // Best effort for exits that skip handle.close(); a SIGKILL leaves the file, and the next start
  // sees that its process is gone.
  process.on('exit', release)
  return { dir, lockFile, release }
}

function isHeld(raw: string, lock: LockRecord): boolean {
  if (heldHere.has(raw)) return true
  // Another host's processes cannot be seen from here, so its lock is never stale automatically.
  if (lock.hostname !== os.hostname()) return true
  // This process has that pid now and does not hold the lock: its writer is gone.
  if (lock.pid === process.pid) return false
  return isRunning(lock)
}

function isRunning(lock: LockRecord): boolean {
  try {
    process.kill(lock.pid, 0)
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    if (errorCode(error) !== 'EPERM') return false
  }
  if (!lock.processStart) return true
  const now = readProcStat(lock.pid)
  // /proc/<pid> unreadable (hidepid, another OS): the pid is alive, so assume it is the holder.
  if (!now) return true
  // Exited but not yet reaped by its parent.
  if (now.state === 'Z' || now.state === 'X') return false
  return now.start.boot === lock.processStart.boot && now.start.ticks === lock.processStart.ticks
}

let bootIdentity: string | undefined

function readBootIdentity(): string | undefined {
  if (bootIdentity) return bootIdentity
  try {
    bootIdentity = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
  } catch {
    // btime moves when the clock is stepped, so it is only the fallback.
    const btime = /^btime (\d+)$/m.exec(readTextOrEmpty('/proc/stat'))?.[1]
    bootIdentity = btime ? `btime:${btime}` : undefined
  }
  return bootIdentity
}

/**
 * Linux: the process's state and which boot and when since that boot it started (proc(5),
 * /proc/<pid>/stat fields 3 and 22). The raw ticks are compared, not a wall-clock time: converting
 * needs CLK_TCK, and btime shifts with clock steps. Undefined elsewhere and when /proc cannot be read.
 */
function readProcStat(pid: number): { state: string; start: ProcessStart } | undefined {
  if (process.platform !== 'linux') return undefined
  const stat = readTextOrEmpty(`/proc/${pid}/stat`)
  if (!stat) return undefined
  // Field 2 is the command name in parentheses, which may contain spaces and ')': count after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[22 - 3])
  const boot = readBootIdentity()
  if (!fields[0] || !Number.isSafeInteger(ticks) || !boot) return undefined
  return { state: fields[0], start: { boot, ticks } }
}

function readTextOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

/** Creates the lock file atomically (O_EXCL); false when it already exists. Proves the directory takes writes. */
function createLockFile(dir: string, lockFile: string, content: string): boolean {
  let fd: number
  try {
    fd = openSync(lockFile, 'wx+', 0o644)
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false
    throw unusable(dir, `files cannot be created in it (${reason(error)})`)
  }
  let problem: string | undefined
  try {
    writeSync(fd, content, 0)
    fsyncSync(fd)
    // A pseudo-filesystem can accept a write and keep nothing: reading it back proves it stores files.
    // Through the descriptor, not the path: another process may be looking at the path right now.
    const expected = Buffer.from(content)
    const actual = Buffer.alloc(expected.length + 1)
    const read = readSync(fd, actual, 0, actual.length, 0)
    if (!actual.subarray(0, read).equals(expected)) problem = 'a file written there does not read back the same, so it is not a filesystem that stores files'
  } catch (error) {
    problem = `files cannot be written in it (${reason(error)})`
  } finally {
    closeSync(fd)
  }
  if (problem) {
    unlinkQuietly(lockFile)
    throw unusable(dir, problem)
  }
  return true
}

function readLockFile(dir: string, lockFile: string): { raw: string; record: LockRecord | undefined; ageMs: number } | undefined {
  let raw: string
  let mtimeMs: number
  try {
    raw = readFileSync(lockFile, 'utf8')
    mtimeMs = statSync(lockFile).mtimeMs
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined
    throw new DataDirError(`DATA_DIR ${dir}: the lock file ${lockFile} exists but cannot be read (${reason(error)}). Check its owner and permissions.`)
  }
  let record: LockRecord | undefined
  try {
    const parsed = LockRecordSchema.safeParse(JSON.parse(raw))
    record = parsed.success ? parsed.data : undefined
  } catch {
    record = undefined
  }
  return { raw, record, ageMs: Date.now() - mtimeMs }
}

/**
 * Removes a stale lock if it is still the one judged stale. Several processes may find the same stale
 * lock at once (a process manager restarting replicas after a crash), and a slow one must not delete
 * the lock a fast one has just taken: only the process that creates the takeover guard (O_EXCL)
 * compares and deletes. True when the caller can try to create the lock again, false when another
 * process is taking over right now (wait and read the lock again).
 */
function removeStaleLock(dir: string, lockFile: string, staleContent: string): boolean {
  const guard = `${lockFile}.takeover`
  let fd: number
  try {
    fd = openSync(guard, 'wx', 0o644)
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw unusable(dir, `files cannot be created in it (${reason(error)})`)
    // Held for microseconds; an old guard was left by a process that died taking over.
    if (ageMs(guard) >= INCOMPLETE_FILE_GRACE_MS) unlinkQuietly(guard)
    return false
  }
  closeSync(fd)
  try {
    if (readTextOrEmpty(lockFile) === staleContent) unlinkSync(lockFile)
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') {
      throw new DataDirError(
        `DATA_DIR ${dir}: the lock file ${lockFile} was left by a process that has exited, but it cannot be removed (${reason(error)}). Delete it, then start again.`,
      )
    }
  } finally {
    unlinkQuietly(guard)
  }
  return true
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs
  } catch {
    return 0
  }
}

function heldError(dir: string, lockFile: string, lock: LockRecord): DataDirError {
  const otherHost = lock.hostname !== os.hostname()
  return new DataDirError(
    `DATA_DIR ${dir} is in use by another Inbox Guard process (pid ${lock.pid} on host ${lock.hostname}, since ${lock.startedAt}). ` +
      'The embedded database allows one process at a time: stop that process first, or set DATABASE_URL to a PostgreSQL database to run several processes. ' +
      (otherHost
        ? `The lock was taken on another host, so it is never treated as stale automatically: if no process on ${lock.hostname} uses this directory any more, delete ${lockFile}.`
        : `Lock file: ${lockFile}.`),
  )
}

/** Linux statfs(2) f_type of kernel pseudo-filesystems (linux/magic.h): they cannot store a database. */
const PSEUDO_FILESYSTEMS = new Map<number, string>([
  [0x9fa0, 'procfs'],
  [0x62656572, 'sysfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x1cd1, 'devpts'],
  [0x62656570, 'configfs'],
  [0xcafe4a11, 'bpf'],
  [0x6165676c, 'pstore'],
  [0xde5e81e4, 'efivarfs'],
  [0xf97cff8c, 'selinuxfs'],
])

/** mkdir -p, one level at a time (see the top of this file for why not `recursive: true`). */
function createDirectory(dir: string) {
  const missing: string[] = []
  let existing = dir
  for (;;) {
    const kind = entryKind(dir, existing)
    if (kind === 'directory') break
    if (kind === 'other') throw unusable(dir, `${existing} exists and is not a directory`)
    missing.unshift(existing)
    const parent = path.dirname(existing)
    if (parent === existing) throw unusable(dir, `${existing} does not exist`)
    existing = parent
  }
  refusePseudoFilesystem(dir, existing)
  for (const entry of missing) {
    try {
      mkdirSync(entry)
    } catch (error) {
      if (errorCode(error) === 'EEXIST' && entryKind(dir, entry) === 'directory') continue
      throw unusable(dir, `${entry} cannot be created (${reason(error)})`)
    }
  }
}

function entryKind(dir: string, entry: string): 'directory' | 'other' | 'missing' {
  try {
    return statSync(entry).isDirectory() ? 'directory' : 'other'
  } catch (error) {
    const code = errorCode(error)
    // ENOTDIR: a parent is a file, which the walk up reports.
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing'
    throw unusable(dir, `${entry} cannot be inspected (${reason(error)})`)
  }
}

function refusePseudoFilesystem(dir: string, existing: string) {
  if (process.platform !== 'linux') return
  let type: number
  try {
    type = statfsSync(existing).type >>> 0
  } catch {
    return // the lock file's write and read-back still prove the directory works
  }
  const name = PSEUDO_FILESYSTEMS.get(type)
  if (name) throw unusable(dir, `${existing} is on ${name}, a kernel pseudo-filesystem that cannot store files`)
}

function unusable(dir: string, problem: string): DataDirError {
  return new DataDirError(
    `DATA_DIR ${dir} cannot hold the embedded database: ${problem}. ` +
      'Set DATA_DIR to a writable directory on a disk (the default is ./data), or set DATABASE_URL to use PostgreSQL.',
  )
}

function unlinkQuietly(file: string) {
  try {
    unlinkSync(file)
  } catch {
    // Nothing to clean up.
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code
}

/** "EACCES: permission denied, open '/x'" → "EACCES: permission denied" (the path is in the message already). */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/, \w+ '.*'$/s, '')
}
