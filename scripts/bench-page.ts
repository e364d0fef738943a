// `npm run bench:page`: what a browser downloads for `/`, measured in Chromium against the running
// production app (start it with `npm start` first; BASE_URL overrides http://localhost:3000).
// Counts bytes on the wire (after compression) by resource type, from Chromium's own accounting,
// then lists each script with its size on the wire and its brotli size (what the budget of
// docs/decisions/020-prerendered-public-pages.md counts). PAGE_PATH measures another page.
import { chromium } from '@playwright/test'

const baseUrl = process.env.BASE_URL ?? 'http://localhost:3000'
const pagePath = process.env.PAGE_PATH ?? '/'
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
})
const page = await browser.newPage()
const cdp = await page.context().newCDPSession(page)
await cdp.send('Network.enable')
const requests = new Map<string, { type: string; url: string; encoding: string }>()
const totals = new Map<string, { requests: number; bytes: number }>()
const scripts: { url: string; encoding: string; bytes: number }[] = []
cdp.on('Network.responseReceived', (event) => {
  const encoding = Object.entries(event.response.headers).find(([name]) => name.toLowerCase() === 'content-encoding')?.[1] ?? 'none'
  requests.set(event.requestId, { type: event.type, url: event.response.url, encoding })
})
cdp.on('Network.loadingFinished', (event) => {
  const request = requests.get(event.requestId)
  const type = request?.type ?? 'Other'
  const entry = totals.get(type) ?? { requests: 0, bytes: 0 }
  entry.requests += 1
  entry.bytes += event.encodedDataLength
  totals.set(type, entry)
  if (request && type === 'Script') scripts.push({ url: request.url, encoding: request.encoding, bytes: event.encodedDataLength })
})
const started = performance.now()
await page.goto(`${baseUrl}${pagePath}`, { waitUntil: 'networkidle' })
const loadMs = performance.now() - started
await browser.close()

console.log(`${'resource type'.padEnd(14)} ${'requests'.padStart(8)} ${'kB on the wire'.padStart(15)}`)
for (const [type, { requests: count, bytes }] of [...totals].sort()) {
  console.log(`${type.padEnd(14)} ${String(count).padStart(8)} ${(bytes / 1024).toFixed(1).padStart(15)}`)
}
console.log(`page settled (network idle) after ${Math.round(loadMs)} ms`)

// Each script's body as the server sends it to a browser that accepts brotli, headers excluded
// (files under 1 kB have no brotli twin and go out as they are).
console.log(`\n${'script'.padEnd(44)} ${'encoding'.padStart(8)} ${'on the wire'.padStart(12)} ${'br body'.padStart(8)}`)
let brotliTotal = 0
for (const { url, encoding, bytes } of scripts) {
  const response = await fetch(url, { headers: { 'accept-encoding': 'br' } })
  const brotli = Number(response.headers.get('content-length') ?? (await response.arrayBuffer()).byteLength)
  brotliTotal += brotli
  console.log(`${new URL(url).pathname.padEnd(44)} ${encoding.padStart(8)} ${String(bytes).padStart(12)} ${String(brotli).padStart(8)}`)
}
console.log(`${'all scripts'.padEnd(44)} ${''.padStart(8)} ${''.padStart(12)} ${String(brotliTotal).padStart(8)} bytes (${(brotliTotal / 1024).toFixed(1)} KiB)`)
