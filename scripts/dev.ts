// `npm run dev`: the API under `tsx watch` (restarts on change) on port 3001 and Vite with hot reload
// on port 5173, which proxies /_api to the API. Sign-in callbacks return through Vite's origin.
import { spawn } from 'node:child_process'
import { createServer } from 'vite'

const vitePort = 5173
const api = spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'src/server/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: '3001', HOST: '127.0.0.1', APP_URL: `http://localhost:${vitePort}` },
})

const vite = await createServer({ configFile: 'vite.config.ts', server: { port: vitePort, strictPort: true } })
await vite.listen()
vite.printUrls()

const stop = async () => {
  api.kill('SIGTERM')
  await vite.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
api.on('exit', (code) => {
  if (code !== 0 && code !== null) console.error(`API process exited with code ${code}`)
})
