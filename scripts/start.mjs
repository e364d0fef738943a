// `npm start`: build the client if its sources changed since the last build, then run the server.
// One process: Vite's build API and tsx's loader are used in-process to keep start-up fast
// (first start builds, later starts skip the build: see docs/decisions/007-start-and-build.md).
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const started = performance.now()
const outDir = join(root, 'dist/client')
const stampFile = join(outDir, '.build-stamp')

/** A fingerprint of everything the client build reads: file paths, sizes and modification times. */
function clientFingerprint() {
  const hash = createHash('sha256')
  const visit = (path) => {
    const stat = statSync(path)
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) {
        if (name === 'node_modules' || name.endsWith('.test.tsx') || name.endsWith('.test.ts')) continue
        visit(join(path, name))
      }
    } else {
      hash.update(`${relative(root, path)}:${stat.size}:${stat.mtimeMs}\n`)
    }
  }
  for (const entry of ['src/client', 'src/shared', 'vite.config.ts', 'package-lock.json']) {
    const path = join(root, entry)
    if (existsSync(path)) visit(path)
  }
  return hash.digest('hex')
}

const fingerprint = clientFingerprint()
const current = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : ''
if (current !== fingerprint) {
  console.log('Building the web client…')
  const { build } = await import('vite')
  // Vite's build sets process.env.NODE_ENV to production for this whole process; the server must see
  // the operator's value, or a first start would run as production and a later one would not.
  const nodeEnv = process.env.NODE_ENV
  await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' })
  if (nodeEnv === undefined) delete process.env.NODE_ENV
  else process.env.NODE_ENV = nodeEnv
  writeFileSync(stampFile, fingerprint)
  console.log(`Client built in ${Math.round(performance.now() - started)} ms`)
}

const { register } = await import('tsx/esm/api')
register()
await import(join(root, 'src/server/main.ts'))
