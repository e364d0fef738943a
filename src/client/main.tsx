import './lib/zod-config.ts'
import './styles.css'
import type * as App from './app/boot.tsx'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

/**
 * The app's entry chunk, preceded by loading the chunks it imports at the same time. Built pages
 * name them in their app-entry meta tag (vite.config.ts); the dev server serves the module itself.
 */
function loadApp(): Promise<typeof App> {
  const [entry = '/app/boot.tsx', ...chunks] = (document.querySelector('meta[name="app-entry"]')?.getAttribute('content') ?? '').split(' ').filter(Boolean)
  for (const href of chunks) {
    const link = document.createElement('link')
    link.rel = 'modulepreload'
    link.href = href
    document.head.append(link)
  }
  return import(/* @vite-ignore */ entry) as Promise<typeof App>
}

/**
 * Runs `callback` once the whole page is on screen: after its first contentful paint (reported once
 * the frame is presented), the browser may have painted only the top of a long page, so it waits
 * for the next frame, which has all of it (this module runs when the document is parsed), to be
 * presented too. After `fallbackMs` it runs anyway: paints are not reported everywhere, and not at
 * all in a tab opened in the background.
 */
function afterFirstPaint(callback: () => void, fallbackMs: number) {
  let done = false
  const once = () => {
    if (done) return
    done = true
    callback()
  }
  const afterNextFrame = () => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(once)))
  if (PerformanceObserver.supportedEntryTypes.includes('paint')) {
    new PerformanceObserver((entries, observer) => {
      if (!entries.getEntriesByName('first-contentful-paint').length) return
      observer.disconnect()
      afterNextFrame()
    }).observe({ type: 'paint', buffered: true })
  } else {
    afterNextFrame()
  }
  setTimeout(once, fallbackMs)
}

// Public pages arrive prerendered and complete (docs/decisions/020-prerendered-public-pages.md):
// the app loads after their first paint rather than competing with it, then hydrates them. Until
// then the few controls that need it say they are unavailable. The other routes get the empty
// shell and need the app at once.
const prerendered = root.hasChildNodes()
const start = () => void loadApp().then(({ boot }) => boot(root, { prerendered }))
if (prerendered) afterFirstPaint(start, 1000)
else start()
