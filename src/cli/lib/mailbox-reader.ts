// Streams messages out of an mbox file, a single .eml file or a folder of them, without holding
// more than one message in memory. mbox: messages start at "From " lines (at the start of the
// file or after an empty line); ">From " quoting (mboxo/mboxrd) is undone by removing one ">".

import { createReadStream, statSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

export interface RawItem {
  raw: string
  /** Where it came from, for error messages: "file.mbox #12" or "folder/a.eml". */
  origin: string
}

/** A single message larger than this keeps only its first part (classification reads the start). */
const MAX_MESSAGE_CHARS = 16 * 1024 * 1024
const MAX_LINE_CHARS = 1024 * 1024

export class InputError extends Error {
  override name = 'InputError'
}

export function listInputFiles(path: string): string[] {
  let st
  try {
    st = statSync(path)
  } catch (err) {
    throw new InputError(`Cannot read ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (err as Error).message}`)
  }
  if (st.isFile()) return [path]
  if (!st.isDirectory()) throw new InputError(`Cannot read ${path}: not a file or folder`)
  const out: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, entry.name)
      if (entry.isDirectory()) walk(p)
      else if (/\.(eml|mbox|mbx)$/i.test(entry.name)) out.push(p)
    }
  }
  walk(path)
  return out
}

export function isMbox(path: string, firstLine: string): boolean {
  return /\.(mbox|mbx)$/i.test(path) || firstLine.startsWith('From ')
}

const FROM_QUOTED = /^>+From /

/**
 * Yields the messages of one file. Bytes are read as latin1 ("binary string") so 8-bit bodies can
 * be decoded with their declared charset later; onBytes reports progress.
 */
export async function* readFileMessages(path: string, onBytes?: (n: number) => void): AsyncGenerator<RawItem> {
  const stream = createReadStream(path, { encoding: 'latin1', highWaterMark: 256 * 1024 })
  let rest = ''
  let lines: string[] = []
  let size = 0
  let truncated = false
  let index = 0
  let mbox: boolean | null = null
  let prevEmpty = true
  const flush = (): RawItem | null => {
    if (lines.length === 0) return null
    const raw = lines.join('\n')
    lines = []
    size = 0
    truncated = false
    index++
    if (raw.trim().length === 0) return null
    return { raw, origin: mbox ? `${path} #${index}` : path }
  }
  try {
    for await (const chunk of stream) {
      onBytes?.((chunk as string).length)
      const text = rest + (chunk as string)
      const parts = text.split('\n')
      rest = parts.pop() ?? ''
      // A "line" without end (binary junk, unwrapped base64) must not grow without bound.
      if (rest.length > MAX_LINE_CHARS) rest = rest.slice(0, MAX_LINE_CHARS)
      for (let line of parts) {
        if (line.endsWith('\r')) line = line.slice(0, -1)
        if (mbox === null) mbox = isMbox(path, line)
        if (mbox && prevEmpty && line.startsWith('From ')) {
          const item = flush()
          if (item) yield item
          lines.push(line)
          prevEmpty = false
          continue
        }
        prevEmpty = line.length === 0
        if (mbox && line.charCodeAt(0) === 62 && FROM_QUOTED.test(line)) line = line.slice(1)
        if (truncated) continue
        size += line.length + 1
        if (size > MAX_MESSAGE_CHARS) {
          truncated = true
          continue
        }
        lines.push(line)
      }
    }
  } catch (err) {
    throw new InputError(`Cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
  }
  if (rest) lines.push(rest)
  const item = flush()
  if (item) yield item
}

export async function* readMessages(path: string, onBytes?: (n: number) => void): AsyncGenerator<RawItem> {
  for (const file of listInputFiles(path)) yield* readFileMessages(file, onBytes)
}

export function totalBytes(path: string): number {
  return listInputFiles(path).reduce((sum, f) => sum + statSync(f).size, 0)
}

/** Parses Gmail Takeout's X-Gmail-Labels header: comma-separated, labels with commas are quoted. */
export function parseGmailLabels(value: string): string[] {
  const out: string[] = []
  let cur = ''
  let quoted = false
  for (let i = 0; i < value.length; i++) {
    const c = value[i] as string
    if (c === '"') quoted = !quoted
    else if (c === ',' && !quoted) {
      if (cur.trim()) out.push(cur.trim())
      cur = ''
    } else cur += c
  }
  if (cur.trim()) out.push(cur.trim())
  return out
}
