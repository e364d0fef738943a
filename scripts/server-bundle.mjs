// The server as one ES module (dist/server/main.mjs) for `npm start`: loading ~200 TypeScript files
// through tsx's loader took most of a warm start (issue 19; docs/decisions/023-server-bundle.md).
// esbuild bundles the project's own code and leaves every package external; it is rebuilt only when
// a server source, the lock file or this script changes, as the client build is.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'

const SOURCES = ['src/server', 'src/shared', 'src/classifier', 'src/fakes', 'package-lock.json', 'scripts/server-bundle.mjs']

/** Paths, sizes and modification times of everything the bundle reads, and where the project lives. */
function fingerprint(root) {
  const hash = createHash('sha256').update(`${root}\n`)
  const visit = (path) => {
    const stat = statSync(path)
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) if (name !== 'node_modules') visit(join(path, name))
    } else if (!/\.test\.tsx?$/.test(path)) {
      hash.update(`${relative(root, path)}:${stat.size}:${stat.mtimeMs}\n`)
    }
  }
  for (const entry of SOURCES) if (existsSync(join(root, entry))) visit(join(root, entry))
  return hash.digest('hex')
}

/**
 * Each source file keeps its own `import.meta.url` and `import.meta.dirname`: the server finds its
 * migrations, the client build, the classifier model and the demo mail next to its sources.
 */
const keepSourceLocations = (root) => ({
  name: 'keep-source-locations',
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, (args) => {
      if (!args.path.startsWith(join(root, 'src'))) return undefined
      const contents = readFileSync(args.path, 'utf8')
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path))
      return { contents, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' }
    })
  },
})

/** Builds dist/server/main.mjs if it is missing or stale; returns its path. */
export async function bundleServer(root) {
  const outDir = join(root, 'dist/server')
  const outFile = join(outDir, 'main.mjs')
  const stampFile = join(outDir, '.build-stamp')
  const current = fingerprint(root)
  if (existsSync(outFile) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === current) return outFile
  const { build } = await import('esbuild')
  await build({
    entryPoints: [join(root, 'src/server/main.ts')],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [keepSourceLocations(root)],
  })
  mkdirSync(outDir, { recursive: true })
  writeFileSync(stampFile, current)
  return outFile
}
