import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

const outDir = 'dist/client'

/**
 * Writes .br and .gz twins of every text asset after the build; the server sends them with
 * @fastify/static's preCompressed option, so nothing is compressed per request.
 */
function precompress(): Plugin {
  return {
    name: 'inbox-guard:precompress',
    apply: 'build',
    closeBundle() {
      const visit = (dir: string) => {
        for (const name of readdirSync(dir)) {
          const path = join(dir, name)
          if (statSync(path).isDirectory()) visit(path)
          else if (/\.(js|css|html|svg|json|txt)$/.test(name)) {
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

// The client is built into dist/client and served by the API server in production.
export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    proxy: { '/_api': 'http://127.0.0.1:3001' },
  },
})
