import type { DatabaseHandle } from '#server/db/client.ts'
import { decisions, mailboxes, syncRuns, usageCounts, users } from '#server/db/schema.ts'
import type { GmailFake } from '#fakes/gmail/server.ts'
import type { GraphMailFake } from '#fakes/graph-mail/server.ts'
import type { AppProcess } from './app-process.ts'
import { workerNameOf } from './app-process.ts'
import { leastSquaresSlope, overlappingSyncs, percentile, tally, type Overlap } from './stats.ts'

/**
 * What the soak measured, read after the app processes stopped: the database (decisions, usage,
 * sync runs, the job queue) against what the soak delivered and what the fakes saw (moves, mail-
 * destroying calls, the mailboxes' contents). docs/decisions/022 explains each figure.
 */

export interface Delivery {
  user: string
  provider: 'gmail' | 'outlook'
  /** The provider's message id (Gmail id, Graph immutable id): what decisions.provider_message_id holds. */
  id: string
  at: number
  kind: string
  expected: string
  free: boolean
}

export interface SoakFigures {
  delivered: number
  decided: number
  kept: number
  filed: number
  skipped: number
  /** Filed decisions whose move the provider never saw (applied_at null at the end). */
  filedNotApplied: number
  duplicated: { decisions: number; moves: number; total: number }
  lost: { paid: number; free: number; total: number; examples: string[] }
  deleted: { violations: number; missing: number; binnedOrSpam: number; total: number; examples: string[] }
  free: Array<{ user: string; delivered: number; decided: number; leftAlone: number }>
  usage: { users: number; mismatched: Array<{ user: string; usage: number; decisions: number }> }
  /** `lapsing`: mailboxes whose Gmail watches the soak made lapse; `others`: all the rest. */
  latencyMs: { all: Stats; filed: Stats; kept: Stats; gmail: Stats; outlook: Stats; lapsing: Stats; others: Stats }
  /** The slowest deliveries, for tracing a tail to its cause (the app's logs, the fault log). */
  slowest: Array<{ user: string; provider: string; id: string; deliveredAt: string; ms: number; action: string }>
  /** Every decided delivery with its latency (report.json only). */
  timed: Array<{ user: string; provider: string; id: string; deliveredAt: string; ms: number; action: string }>
  syncs: { runs: number; byOutcome: Array<[string, number]>; overlaps: Overlap[]; cutByKill: number; handedOverMaxMs: number | null; notHandedOver: number }
  queue: Array<{ state: string; count: number }>
  /** Sync jobs claimed more than once: retried after a failure, or after their worker died. */
  jobsRetried: number
  /** Per process life; the slope leaves out its first third (at least the warm-up): start-up memory is freed late. */
  rss: Array<{ process: string; pid: number; minutes: number; startMb: number; endMb: number; maxMb: number; slopeMbPerMin: number | null; samples: Array<[number, number]> }>
}

export interface Stats {
  n: number
  p50: number | null
  p99: number | null
  max: number | null
}

const stats = (values: number[]): Stats => ({
  n: values.length,
  p50: percentile(values, 50) ?? null,
  p99: percentile(values, 99) ?? null,
  max: values.length ? Math.max(...values) : null,
})

async function rawRows(handle: DatabaseHandle, text: string): Promise<Array<Record<string, unknown>>> {
  if (handle.kind === 'pglite') return (await handle.pglite.query<Record<string, unknown>>(text)).rows
  return (await handle.pool.query(text)).rows as Array<Record<string, unknown>>
}

/** The first successful move per message id the fakes' journals show, and how many there were. */
function movesOf(gmail: GmailFake, graph: GraphMailFake) {
  const moves = new Map<string, { first: number; count: number }>()
  const add = (id: string, at: string) => {
    const seen = moves.get(id)
    const t = Date.parse(at)
    if (seen) {
      seen.count++
      seen.first = Math.min(seen.first, t)
    } else moves.set(id, { first: t, count: 1 })
  }
  for (const e of gmail.journal) {
    if (e.endpoint !== 'messages.modify' || e.status >= 300) continue
    const id = /\/messages\/([^/]+)\/modify$/.exec(e.path)?.[1]
    if (id) add(decodeURIComponent(id), e.at)
  }
  for (const e of graph.journal) {
    if (e.endpoint !== 'messages.move' || e.status >= 300) continue
    const id = /\/messages\/([^/]+)\/move$/.exec(e.path)?.[1]
    if (id) add(decodeURIComponent(id), e.at)
  }
  return moves
}

export async function analyse(input: {
  handle: DatabaseHandle
  delivered: readonly Delivery[]
  gmail: GmailFake
  graph: GraphMailFake
  processes: readonly AppProcess[]
  end: number
  /** RSS samples younger than this (ms after a start) are warm-up and left out of the slope. */
  warmUpMs: number
  /** Addresses of the mailboxes whose watches were made to lapse (their latency is reported apart). */
  lapsing: ReadonlySet<string>
}): Promise<SoakFigures> {
  const { handle, delivered, gmail, graph } = input
  const db = handle.db
  const [decisionRows, mailboxRows, userRows, usageRows, runRows] = await Promise.all([
    db
      .select({
        userId: decisions.userId,
        mailboxId: decisions.mailboxId,
        id: decisions.providerMessageId,
        action: decisions.action,
        state: decisions.state,
        decidedAt: decisions.decidedAt,
        appliedAt: decisions.appliedAt,
      })
      .from(decisions),
    db.select({ id: mailboxes.id, userId: mailboxes.userId, address: mailboxes.emailAddress, provider: mailboxes.provider }).from(mailboxes),
    db.select({ id: users.id, email: users.email }).from(users),
    db.select().from(usageCounts),
    db.select({ mailboxId: syncRuns.mailboxId, worker: syncRuns.worker, startedAt: syncRuns.startedAt, finishedAt: syncRuns.finishedAt, outcome: syncRuns.outcome }).from(syncRuns),
  ])
  const emailOf = new Map(userRows.map((u) => [u.id, u.email.toLowerCase()]))

  // Decisions by message; more than one for a message is a duplicate (the unique index should forbid it).
  const byMessage = new Map<string, typeof decisionRows>()
  for (const d of decisionRows) {
    const key = `${d.mailboxId}:${d.id}`
    byMessage.set(key, [...(byMessage.get(key) ?? []), d])
  }
  const duplicateDecisions = [...byMessage.values()].filter((list) => list.length > 1).length
  const mailboxOf = new Map(mailboxRows.map((m) => [`${m.provider}:${m.address.toLowerCase()}`, m.id]))
  const decisionOf = (d: Delivery) => byMessage.get(`${mailboxOf.get(`${d.provider}:${d.user}`)}:${d.id}`)?.[0]

  const moves = movesOf(gmail, graph)
  const deliveredIds = new Set(delivered.map((d) => d.id))
  const duplicateMoves = [...moves].filter(([id, m]) => deliveredIds.has(id) && m.count > 1).length

  // Lost: paid users' mail never decided; free users' mail neither decided nor counted as left alone.
  const lostExamples: string[] = []
  let lostPaid = 0
  const latencies = { all: [] as number[], filed: [] as number[], kept: [] as number[], gmail: [] as number[], outlook: [] as number[], lapsing: [] as number[], others: [] as number[] }
  const timed: SoakFigures['slowest'] = []
  for (const d of delivered) {
    const decision = decisionOf(d)
    if (!decision) {
      if (!d.free) {
        lostPaid++
        if (lostExamples.length < 10) lostExamples.push(`${d.provider} ${d.user} ${d.id} delivered ${new Date(d.at).toISOString()}`)
      }
      continue
    }
    const move = moves.get(d.id)
    const actedAt = decision.action === 'filed' ? move?.first : decision.decidedAt.getTime()
    if (actedAt === undefined) continue
    latencies.all.push(actedAt - d.at)
    latencies[d.provider].push(actedAt - d.at)
    latencies[input.lapsing.has(d.user) ? 'lapsing' : 'others'].push(actedAt - d.at)
    timed.push({ user: d.user, provider: d.provider, id: d.id, deliveredAt: new Date(d.at).toISOString(), ms: actedAt - d.at, action: decision.action })
    if (decision.action === 'filed') latencies.filed.push(actedAt - d.at)
    else latencies.kept.push(actedAt - d.at)
  }

  const month = new Date().toISOString().slice(0, 7)
  const usageOf = new Map(usageRows.filter((u) => u.month === month).map((u) => [emailOf.get(u.userId) ?? '', u]))
  const decisionsOfUser = new Map<string, number>()
  for (const d of decisionRows) {
    const email = emailOf.get(d.userId) ?? ''
    decisionsOfUser.set(email, (decisionsOfUser.get(email) ?? 0) + 1)
  }
  const freeUsers = [...new Set(delivered.filter((d) => d.free).map((d) => d.user))]
  const free = freeUsers.map((user) => ({
    user,
    delivered: delivered.filter((d) => d.user === user).length,
    decided: decisionsOfUser.get(user) ?? 0,
    leftAlone: usageOf.get(user)?.emailsLeftAlone ?? 0,
  }))
  const lostFree = free.reduce((sum, f) => sum + Math.max(0, f.delivered - f.decided - f.leftAlone), 0)
  const people = [...new Set(delivered.map((d) => d.user))]
  const mismatched = people
    .map((user) => ({ user, usage: usageOf.get(user)?.emailsProcessed ?? 0, decisions: decisionsOfUser.get(user) ?? 0 }))
    .filter((u) => u.usage !== u.decisions)

  // Deleted: a mail-destroying call either fake refused, a delivered message gone, or one in bin/spam.
  const present = new Map<string, string>()
  for (const user of people.filter((u) => delivered.some((d) => d.user === u && d.provider === 'gmail'))) {
    for (const m of gmail.mailbox(user).messages) present.set(m.id, m.labelIds.includes('TRASH') || m.labelIds.includes('SPAM') ? 'binned' : 'ok')
  }
  for (const user of people.filter((u) => delivered.some((d) => d.user === u && d.provider === 'outlook'))) {
    const snapshot = graph.mailbox(user)
    const destroying = new Set(snapshot.folders.filter((f) => ['deleteditems', 'junkemail', 'recoverableitemsdeletions'].includes(f.wellKnownName ?? '')).map((f) => f.path))
    for (const m of snapshot.messages) present.set(m.id, destroying.has(m.folder) ? 'binned' : 'ok')
  }
  const missing = delivered.filter((d) => !present.has(d.id))
  const binned = delivered.filter((d) => present.get(d.id) === 'binned')
  const violations = gmail.violations.length + graph.violations.length
  const deletedExamples = [
    ...gmail.violations.map((v) => `gmail ${v.endpoint} ${v.path}`),
    ...graph.violations.map((v) => `graph ${v.endpoint} ${v.path}`),
    ...missing.map((d) => `missing ${d.provider} ${d.user} ${d.id}`),
    ...binned.map((d) => `binned ${d.provider} ${d.user} ${d.id}`),
  ].slice(0, 10)

  // Syncs: never two at once per mailbox; a run cut off by a kill is picked up by another process.
  const deaths = new Map<string, number>()
  for (const p of input.processes) for (const life of p.lives) if (life.killed && life.endedAt) deaths.set(workerNameOf(life.pid), life.endedAt)
  const runs = runRows.map((r) => ({ mailboxId: r.mailboxId, worker: r.worker, startedAt: r.startedAt.getTime(), finishedAt: r.finishedAt?.getTime() ?? null, outcome: r.outcome }))
  const overlaps = overlappingSyncs(runs, deaths, input.end)
  const cut = runs.filter((r) => r.finishedAt === null && deaths.has(r.worker))
  let handedOverMax: number | null = null
  let notHandedOver = 0
  for (const r of cut) {
    const death = deaths.get(r.worker)!
    const next = runs.filter((o) => o.mailboxId === r.mailboxId && o.startedAt >= death && o.finishedAt !== null && o.outcome === 'ok').sort((a, b) => a.startedAt - b.startedAt)[0]
    if (!next) notHandedOver++
    else handedOverMax = Math.max(handedOverMax ?? 0, next.finishedAt! - death)
  }

  const queue = (await rawRows(handle, `SELECT state::text AS state, count(*)::int AS count FROM pgboss.job WHERE name = 'mailbox-sync' GROUP BY state ORDER BY state`)).map((r) => ({
    state: String(r.state),
    count: Number(r.count),
  }))
  const [retried] = await rawRows(handle, `SELECT count(*)::int AS count FROM pgboss.job WHERE name = 'mailbox-sync' AND retry_count > 0`)

  const rss = input.processes.flatMap((p) =>
    p.lives
      .filter((life) => life.rss.length > 0)
      .map((life) => {
        const last = life.rss.at(-1)!
        const from = Math.max(input.warmUpMs, (last.at - life.startedAt) / 3)
        const after = life.rss.filter((s) => s.at - life.startedAt >= from)
        const slope = leastSquaresSlope(after.map((s) => ({ x: (s.at - life.startedAt) / 60_000, y: s.mb })))
        return {
          process: p.name,
          pid: life.pid,
          minutes: Math.round(((last.at - life.startedAt) / 60_000) * 10) / 10,
          startMb: Math.round(life.rss[0]!.mb),
          endMb: Math.round(last.mb),
          maxMb: Math.round(Math.max(...life.rss.map((s) => s.mb))),
          slopeMbPerMin: slope === undefined ? null : Math.round(slope * 100) / 100,
          samples: life.rss.map((s): [number, number] => [Math.round((s.at - life.startedAt) / 1000), Math.round(s.mb)]),
        }
      }),
  )

  const soakDecisions = delivered.map(decisionOf).filter((d): d is NonNullable<typeof d> => Boolean(d))
  return {
    delivered: delivered.length,
    decided: soakDecisions.length,
    kept: soakDecisions.filter((d) => d.action === 'kept').length,
    filed: soakDecisions.filter((d) => d.action === 'filed').length,
    skipped: soakDecisions.filter((d) => d.action === 'skipped').length,
    filedNotApplied: soakDecisions.filter((d) => d.action === 'filed' && d.state === 'filed' && !d.appliedAt).length,
    duplicated: { decisions: duplicateDecisions, moves: duplicateMoves, total: duplicateDecisions + duplicateMoves },
    lost: { paid: lostPaid, free: lostFree, total: lostPaid + lostFree, examples: lostExamples },
    deleted: { violations, missing: missing.length, binnedOrSpam: binned.length, total: violations + missing.length + binned.length, examples: deletedExamples },
    free,
    usage: { users: people.length, mismatched },
    latencyMs: { all: stats(latencies.all), filed: stats(latencies.filed), kept: stats(latencies.kept), gmail: stats(latencies.gmail), outlook: stats(latencies.outlook), lapsing: stats(latencies.lapsing), others: stats(latencies.others) },
    slowest: [...timed].sort((a, b) => b.ms - a.ms).slice(0, 10),
    timed,
    syncs: { runs: runs.length, byOutcome: tally(runs.map((r) => r.outcome ?? 'unfinished')), overlaps, cutByKill: cut.length, handedOverMaxMs: handedOverMax, notHandedOver },
    queue,
    jobsRetried: Number(retried?.count ?? 0),
    rss,
  }
}
