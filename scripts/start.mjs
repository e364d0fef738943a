// `npm start`: build the client and bundle the server if their sources changed since the last build, then run the server.
// First start builds, later starts skip the builds (docs/decisions/007-start-and-build.md, 023).
// `npm start` runs it with --max-semi-space-size=2: a small young generation keeps idle RSS low (023).
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

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
  for (const entry of ['src/client', 'src/shared', 'vite.config.ts', 'scripts/prerender.ts', 'package-lock.json']) {
    const path = join(root, entry)
    if (existsSync(path)) visit(path)
  }
  return hash.digest('hex')
}

const fingerprint = clientFingerprint()
const current = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : ''
if (current !== fingerprint) {
  console.log('Building the web client…')
  // In its own process: the server must not keep the build's few hundred MB (issue 19: idle RSS), and
  // Vite's build sets NODE_ENV=production for the process it runs in, where the server must see the
  // operator's value.
  const { status } = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' })
  if (status !== 0) {
    console.error('The web client did not build (see above).')
    process.exit(1)
  }
  writeFileSync(stampFile, fingerprint)
  console.log(`Client built in ${Math.round(performance.now() - started)} ms`)
}

// The server runs as one bundled module (scripts/server-bundle.mjs), rebuilt when its sources change;
// stack traces point into the TypeScript sources through the bundle's source map.
const { bundleServer } = await import('./server-bundle.mjs')
const serverEntry = await bundleServer(root)
process.setSourceMapsEnabled(true)
await import(pathToFileURL(serverEntry).href)
