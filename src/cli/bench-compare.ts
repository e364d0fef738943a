// npm run bench:compare -- <other checkout> [rounds]: this checkout's classifier against another
// checkout's (say, a worktree of the previous commit), both loaded in this one process and taking
// turns over the same parsed SpamAssassin messages. On a shared virtual machine the host's slow
// spells then hit both versions alike, which separate benchmark runs cannot promise: differences
// of a few per cent show here that are lost between `npm run bench:classifier` runs.

import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { NormalisedMessage } from '#classifier/message.ts'
import { emptyContext } from '#classifier/types.ts'
import type { ClassifierContext, Decision } from '#classifier/types.ts'
import type * as ClassifyModule from '#classifier/classify.ts'
import type * as ModelModule from '#classifier/model.ts'
import { loadSpamAssassin } from './lib/corpus.ts'
import { cpuMs, parseAll } from './lib/bench.ts'

type Classify = (message: NormalisedMessage, context: ClassifierContext) => Decision

const out = (s = '') => process.stdout.write(s + '\n')
const [otherArg, roundsArg] = process.argv.slice(2)
if (!otherArg) {
  process.stderr.write('Usage: npm run bench:compare -- <other checkout> [rounds]\n')
  process.exit(2)
}
const rounds = Number(roundsArg ?? 20)
if (!Number.isInteger(rounds) || rounds < 1) {
  process.stderr.write(`Rounds must be a whole number of at least 1, not "${roundsArg}".\n`)
  process.exit(2)
}
const here = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const other = resolve(otherArg)
if (!existsSync(join(other, 'src/classifier/classify.ts'))) {
  process.stderr.write(`${other} is not a checkout of this project (no src/classifier/classify.ts).\n`)
  process.exit(2)
}

/** The classifier of one checkout, with that checkout's own code and committed model. */
async function classifierOf(root: string): Promise<Classify> {
  const { classify } = (await import(pathToFileURL(join(root, 'src/classifier/classify.ts')).href)) as typeof ClassifyModule
  const { loadModel } = (await import(pathToFileURL(join(root, 'src/classifier/model.ts')).href)) as typeof ModelModule
  const model = loadModel(JSON.parse(readFileSync(join(root, 'src/classifier/model/model.json'), 'utf8')))
  return (message, context) => classify(message, context, model)
}

const versions = [
  { name: 'this checkout', classify: await classifierOf(here) },
  { name: other, classify: await classifierOf(other) },
]
const context = emptyContext()
const messages = parseAll(loadSpamAssassin())
for (const v of versions) for (const m of messages) v.classify(m, context) // warm-up (JIT)
const perMessage = versions.map(() => [] as number[])
for (let r = 0; r < rounds; r++) {
  versions.forEach((v, k) => {
    const c0 = cpuMs()
    for (const m of messages) v.classify(m, context)
    perMessage[k]?.push(((cpuMs() - c0) * 1000) / messages.length)
  })
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number
out(`classify on ${messages.length} parsed messages, ${rounds} interleaved rounds, CPU µs per message:`)
versions.forEach((v, k) => {
  const xs = perMessage[k] as number[]
  out(`  ${v.name}: best ${Math.min(...xs).toFixed(2)}, median ${median(xs).toFixed(2)}`)
})
const [a, b] = perMessage as [number[], number[]]
out(`this checkout takes ${((100 * median(a)) / median(b)).toFixed(1)} % of the other's time (medians), ${((100 * Math.min(...a)) / Math.min(...b)).toFixed(1)} % (best rounds)`)
