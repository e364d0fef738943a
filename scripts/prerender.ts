// Prerenders the public pages right after the client build (docs/decisions/020-prerendered-public-pages.md).
// A Vite plugin, so `npm run build`, `npm start` (scripts/start.mjs) and the browser tests, which all
// build through vite.config.ts, get the same pages. It builds src/client/prerender.tsx for Node with
// the client's own transforms, renders every page twice (with and without the demo-mode notice) and
// writes them, with pages.json, into dist/client/prerendered for src/server/plugins/static-client.ts.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import react from '@vitejs/plugin-react'
import { build, type Plugin } from 'vite'
import type * as PrerenderModule from '../src/client/prerender.tsx'
import type { PrerenderedIndex } from '../src/server/plugins/static-client.ts'

/** Where the server puts the app info it sends with each page (pages.json tells it). */
const APP_INFO_PLACEHOLDER = '<!--app-info-->'

/**
 * The built shell with one page's markup and head tags. The page does not wait for its JavaScript:
 * main.tsx loads the app after the first paint, and is itself fetched at low priority.
 */
function pageHtml(template: string, page: { head: string; body: string }) {
  const html = template
    // The shell's default title and description give way to the page's own (React adopts them).
    .replace(/<title data-default-head>[^<]*<\/title>/, () => page.head)
    .replace(/\s*<meta\s+data-default-head[^>]*>/, '')
    .replace(/\s*<!-- Defaults for [^>]*-->/, '')
    .replace(/<(script type="module"|link rel="modulepreload") /g, '<$1 fetchpriority="low" ')
    .replace('<div id="root"></div>', () => `<div id="root">${page.body}</div>\n    ${APP_INFO_PLACEHOLDER}`)
  if (!html.includes(page.body) || !html.includes(APP_INFO_PLACEHOLDER)) throw new Error('prerender: index.html has no empty <div id="root"></div>')
  return html
}

/**
 * The stylesheet and the icon go into the page itself: nothing to fetch before the first paint. The
 * CSP allows inline styles (Radix sets style attributes) and data: images, not inline scripts.
 */
function inlineAssets(html: string, outDir: string) {
  return html
    .replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (_tag, file: string) => {
      const css = readFileSync(path.join(outDir, file), 'utf8')
      if (css.includes('</style')) throw new Error(`prerender: ${file} cannot be inlined`)
      return `<style>${css}</style>`
    })
    .replace(/(<link rel="icon" type="image\/svg\+xml" href=)"\/([^"]+\.svg)"/, (_tag, link: string, file: string) => {
      const svg = readFileSync(path.join(outDir, file), 'utf8').trim()
      return `${link}"data:image/svg+xml,${encodeURIComponent(svg)}"`
    })
}

export function prerenderPublicPages({ define }: { define: Record<string, string> }): Plugin {
  let root = ''
  let outDir = ''
  return {
    name: 'inbox-guard:prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root
      outDir = path.resolve(config.root, config.build.outDir)
    },
    async closeBundle() {
      const serverOutDir = path.join(path.dirname(outDir), 'prerender')
      // The same sources, transforms and constants as the client build, for Node; dependencies stay
      // in node_modules.
      await build({
        configFile: false,
        root,
        mode: 'production',
        logLevel: 'warn',
        define,
        plugins: [react()],
        build: {
          ssr: path.join(root, 'prerender.tsx'),
          outDir: serverOutDir,
          emptyOutDir: true,
          copyPublicDir: false,
          minify: false,
          reportCompressedSize: false,
        },
      })
      try {
        const prerender = (await import(`${pathToFileURL(path.join(serverOutDir, 'prerender.js')).href}?${Date.now()}`)) as typeof PrerenderModule
        const template = inlineAssets(readFileSync(path.join(outDir, 'index.html'), 'utf8'), outDir)
        const pagesDir = path.join(outDir, 'prerendered')
        mkdirSync(pagesDir, { recursive: true })
        const index: PrerenderedIndex = { appInfoPlaceholder: APP_INFO_PLACEHOLDER, pages: [] }
        for (const { path: pagePath, name, status } of prerender.PRERENDERED_PAGES) {
          for (const demoMode of [false, true]) {
            const page = await prerender.renderPage(pagePath, { demoMode })
            writeFileSync(path.join(pagesDir, `${name}${demoMode ? '.demo' : ''}.html`), pageHtml(template, page))
          }
          index.pages.push({ path: pagePath, name, status })
        }
        writeFileSync(path.join(pagesDir, 'pages.json'), JSON.stringify(index, null, 2))
      } finally {
        rmSync(serverOutDir, { recursive: true, force: true })
      }
    },
  }
}
