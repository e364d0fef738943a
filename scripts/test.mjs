// `npm test`: typecheck, lint, unit + API + component tests, then browser tests against the built app.
// Steps run in order and stop at the first failure; each step's time is printed for the CI log.
import { spawnSync } from 'node:child_process'

const steps = [
  ['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json']],
  ['lint', 'npx', ['eslint', '--max-warnings=0', '.']],
  ['unit, API and component tests', 'npx', ['vitest', 'run']],
  ['browser tests', 'npx', ['playwright', 'test']],
]

const total = performance.now()
for (const [name, command, args] of steps) {
  const started = performance.now()
  console.log(`\n▶ ${name}`)
  const result = spawnSync(command, args, { stdio: 'inherit' })
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  if (result.status !== 0) {
    console.error(`✖ ${name} failed after ${seconds} s`)
    process.exit(result.status ?? 1)
  }
  console.log(`✔ ${name} (${seconds} s)`)
}
console.log(`\nAll checks passed in ${((performance.now() - total) / 1000).toFixed(1)} s`)
