import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { prerenderPublicPages } from './scripts/prerender.ts'

const outDir = 'dist/client'
const source = (file: string) => fileURLToPath(new URL(`./src/client/${file}`, import.meta.url))

/**
 * Writes .br and .gz twins of every text asset after the build; the server sends them with
 * @fastify/static's preCompressed option, so nothing is compressed per request. The prerendered
 * pages are left out: the server completes them per process and compresses them once in memory.
 */
function precompress(): Plugin {
  return {
    name: 'inbox-guard:precompress',
    apply: 'build',
    closeBundle() {
      const visit = (dir: string) => {
        for (const name of readdirSync(dir)) {
          const path = join(dir, name)
          if (statSync(path).isDirectory()) {
            if (name !== 'prerendered') visit(path)
          } else if (/\.(js|css|html|svg|json|txt)$/.test(name)) {
            const data = readFileSync(path)
            if (data.length < 1024) continue
            writeFileSync(`${path}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
            writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }))
          }
        }
      }
      visit(outDir)
    },
  }
}

/**
 * Tells main.tsx where the app is: `<meta name="app-entry" content="entry chunk, chunks it imports">`.
 * main.tsx loads it with a plain import() of that URL after the first paint of a prerendered page, so
 * nothing else is fetched before that paint, not even Vite's module preloader (decision 020). The
 * dev server serves the source module itself.
 */
function appEntryMeta(): Plugin {
  return {
    name: 'inbox-guard:app-entry-meta',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const entry = bundle && Object.values(bundle).find((file) => file.type === 'chunk' && file.isEntry && file.name === 'app')
        const files: string[] = []
        const visit = (fileName: string) => {
          const chunk = bundle?.[fileName]
          if (files.includes(fileName) || chunk?.type !== 'chunk') return
          files.push(fileName)
          for (const imported of chunk.imports) visit(imported)
        }
        if (entry) visit(entry.fileName)
        const content = entry ? files.map((file) => `/${file}`).join(' ') : '/app/boot.tsx'
        return [{ tag: 'meta', attrs: { name: 'app-entry', content }, injectTo: 'head' }]
      },
    },
  }
}

// Shared by the client build and the prerender build, which must render the same markup.
const define = {
  // The footer's copyright year on prerendered pages (site-footer.tsx).
  'import.meta.env.VITE_BUILD_YEAR': JSON.stringify(String(new Date().getFullYear())),
}

// The client is built into dist/client and served by the API server in production; the public pages
// are also prerendered into dist/client/prerendered (docs/decisions/020-prerendered-public-pages.md).
export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  define,
  plugins: [react(), tailwindcss(), appEntryMeta(), prerenderPublicPages({ define }), precompress()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: false,
    // Every browser the app supports preloads modules itself.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // index.html runs main.tsx (tiny: styles and the loader); app/boot.tsx is the app, an entry of
      // its own that main.tsx finds through the app-entry meta tag.
      input: { index: source('index.html'), app: source('app/boot.tsx') },
      preserveEntrySignatures: 'exports-only',
      output: {
        // The app and everything it imports in one chunk, which compresses better than the pieces
        // Rolldown would split out (React's JSX runtime, Button, cn): they load on every page anyway.
        // Dashboard, admin, zod and the like stay in their lazy chunks.
        codeSplitting: { groups: [{ name: 'app', test: /[\\/]src[\\/]client[\\/]app[\\/]boot\.tsx$/ }] },
      },
    },
  },
  server: {
    proxy: { '/_api': 'http://127.0.0.1:3001' },
  },
})
