// npm run bench:classifier: throughput from raw RFC 822 text to decision over the whole
// SpamAssassin corpus on one core, and per-message latency for already-parsed messages.

import { parseRawMessage } from '#classifier/message.ts'
import { classify } from '#classifier/classify.ts'
import { emptyContext } from '#classifier/types.ts'
import { loadSpamAssassin } from './lib/corpus.ts'
import { cpuMs, parseAll } from './lib/bench.ts'
import { MODEL_PATH } from './lib/model-file.ts'
import { readFileSync } from 'node:fs'
import { loadModel } from '#classifier/model.ts'

const out = (s = '') => process.stdout.write(s + '\n')
const text = readFileSync(MODEL_PATH, 'utf8')
const t0 = performance.now()
const model = loadModel(JSON.parse(text))
const loadMs = performance.now() - t0
const items = loadSpamAssassin()
const context = emptyContext()
const bytes = items.reduce((s, i) => s + i.text.length, 0)

function rawPass(): { ms: number; cpu: number; decided: number } {
  const start = performance.now()
  const cpu0 = cpuMs()
  let decided = 0
  for (const item of items) {
    try {
      classify(parseRawMessage(item.text), context, model)
      decided++
    } catch {
      // malformed input counts as processed but undecided
    }
  }
  return { ms: performance.now() - start, cpu: cpuMs() - cpu0, decided }
}

// Best of several runs by CPU time: on a shared machine other work only ever slows a run down, so
// the fastest run is the closest to what the code itself costs.
const RAW_RUNS = 5
const PARSED_RUNS = 10
rawPass() // warm-up (JIT)
const runs = Array.from({ length: RAW_RUNS }, rawPass)
const best = runs.reduce((a, b) => (a.cpu < b.cpu ? a : b))
const rawRate = (items.length / best.cpu) * 1000
const rawWallRate = (items.length / Math.min(...runs.map((r) => r.ms))) * 1000

const parsed = parseAll(items)
for (const m of parsed) classify(m, context, model)
// Throughput: a plain loop (no timers inside), best run by CPU time.
let parsedCpu = Infinity
for (let r = 0; r < PARSED_RUNS; r++) {
  const c0 = cpuMs()
  for (const m of parsed) classify(m, context, model)
  parsedCpu = Math.min(parsedCpu, cpuMs() - c0)
}
const parsedRate = (parsed.length / parsedCpu) * 1000
// Latency: each call timed on its own.
const latencies = new Float64Array(parsed.length * 3)
let k = 0
for (let r = 0; r < 3; r++) {
  for (const m of parsed) {
    const s = process.hrtime.bigint()
    classify(m, context, model)
    latencies[k++] = Number(process.hrtime.bigint() - s) / 1e6
  }
}
latencies.sort()
const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] as number

out(`Inbox Guard classifier benchmark (one core, Node ${process.version})`)
out(`model load: ${loadMs.toFixed(1)} ms (${(text.length / 1024).toFixed(0)} KiB)`)
out(
  `raw RFC 822 → decision: ${items.length} messages, ${(bytes / 1e6).toFixed(1)} MB, best of ${RAW_RUNS}: ${best.cpu.toFixed(0)} ms CPU → ${rawRate.toFixed(0)} messages/s per core (wall clock: ${rawWallRate.toFixed(0)}/s)`,
)
out(`parsed → decision: ${parsed.length} messages, best of ${PARSED_RUNS}: ${parsedCpu.toFixed(0)} ms CPU → ${parsedRate.toFixed(0)} messages/s per core`)
out(`latency per parsed message: p50 ${(q(0.5) * 1000).toFixed(0)} µs, p99 ${(q(0.99) * 1000).toFixed(0)} µs, max ${(q(1) * 1000).toFixed(0)} µs`)
