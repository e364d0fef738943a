import { defineConfig, devices } from '@playwright/test'

// Browser tests drive Debian's Chromium (never a downloaded browser) against the production build,
// started exactly as `npm start` does, on its own port and a fresh data directory.
const port = Number(process.env.E2E_PORT ?? 3111)
const baseURL = `http://localhost:${port}`

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? 'list' : 'line',
  timeout: 30_000,
  use: {
    baseURL,
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'rm -rf .tmp/e2e-data && node --max-semi-space-size=2 scripts/start.mjs',
    url: `${baseURL}/_api/auth/session`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: baseURL,
      DATA_DIR: '.tmp/e2e-data',
      ADMIN_EMAILS: 'admin@example.com',
      LOG_LEVEL: 'warn',
    },
  },
})
