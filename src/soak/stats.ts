/**
 * The soak's arithmetic (scripts/soak.ts, docs/decisions/022): percentiles, a least-squares trend and
 * the check that one mailbox never had two syncs running at once. Pure functions, tested beside.
 */

/** The value at percentile p (0–100) of the values, nearest rank; undefined when there are none. */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]
}

/**
 * Least-squares slope of y over x (y units per x unit); undefined with fewer than 3 points or no
 * spread in x. The soak feeds it RSS in MB over minutes: a leak shows as a steady positive slope.
 */
export function leastSquaresSlope(points: ReadonlyArray<{ x: number; y: number }>): number | undefined {
  if (points.length < 3) return undefined
  const n = points.length
  const mx = points.reduce((s, p) => s + p.x, 0) / n
  const my = points.reduce((s, p) => s + p.y, 0) / n
  let sxx = 0
  let sxy = 0
  for (const p of points) {
    sxx += (p.x - mx) ** 2
    sxy += (p.x - mx) * (p.y - my)
  }
  return sxx === 0 ? undefined : sxy / sxx
}

export interface SyncRun {
  mailboxId: number
  /** The process that ran it (`host:pid`, sync_runs.worker). */
  worker: string
  startedAt: number
  finishedAt: number | null
}

export interface Overlap {
  mailboxId: number
  first: SyncRun
  second: SyncRun
}

/**
 * Pairs of sync runs of one mailbox that ran at the same time. A run that never finished ended when its
 * process died (`deaths`, by worker name), or is still running at `end`; overlapping a dead process's
 * run is fine only after that death.
 */
export function overlappingSyncs(runs: readonly SyncRun[], deaths: ReadonlyMap<string, number>, end: number): Overlap[] {
  const byMailbox = new Map<number, SyncRun[]>()
  for (const run of runs) {
    const list = byMailbox.get(run.mailboxId) ?? []
    list.push(run)
    byMailbox.set(run.mailboxId, list)
  }
  const overlaps: Overlap[] = []
  for (const [mailboxId, list] of byMailbox) {
    list.sort((a, b) => a.startedAt - b.startedAt)
    // Sweep in start order, keeping the runs still going; each new run overlaps every one of them.
    let open: Array<{ run: SyncRun; endsAt: number }> = []
    for (const run of list) {
      open = open.filter((o) => o.endsAt > run.startedAt)
      for (const o of open) overlaps.push({ mailboxId, first: o.run, second: run })
      open.push({ run, endsAt: run.finishedAt ?? deaths.get(run.worker) ?? end })
    }
  }
  return overlaps
}

/** Counts of each value, largest first. */
export function tally(values: Iterable<string>): Array<[string, number]> {
  const counts = new Map<string, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])
}
