// `npm run bench:page`: what a browser downloads for `/`, measured in Chromium against the running
// production app (start it with `npm start` first; BASE_URL overrides http://localhost:3000).
// Counts bytes on the wire (after compression) by resource type, from Chromium's own accounting.
import { chromium } from '@playwright/test'

const baseUrl = process.env.BASE_URL ?? 'http://localhost:3000'
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
})
const page = await browser.newPage()
const cdp = await page.context().newCDPSession(page)
await cdp.send('Network.enable')
const types = new Map<string, string>()
const totals = new Map<string, { requests: number; bytes: number }>()
cdp.on('Network.responseReceived', (event) => types.set(event.requestId, event.type))
cdp.on('Network.loadingFinished', (event) => {
  const type = types.get(event.requestId) ?? 'Other'
  const entry = totals.get(type) ?? { requests: 0, bytes: 0 }
  entry.requests += 1
  entry.bytes += event.encodedDataLength
  totals.set(type, entry)
})
const started = performance.now()
await page.goto(`${baseUrl}/`, { waitUntil: 'networkidle' })
const loadMs = performance.now() - started
await browser.close()

console.log(`${'resource type'.padEnd(14)} ${'requests'.padStart(8)} ${'kB on the wire'.padStart(15)}`)
for (const [type, { requests, bytes }] of [...totals].sort()) {
  console.log(`${type.padEnd(14)} ${String(requests).padStart(8)} ${(bytes / 1024).toFixed(1).padStart(15)}`)
}
console.log(`page settled (network idle) after ${Math.round(loadMs)} ms`)
