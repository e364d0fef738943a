import { expect, test, type Page } from '@playwright/test'
import { signIn, signInThroughPopup, uniqueEmail } from './helpers.ts'

// Issue 18 in the browser, against the demo fakes: the admin (ADMIN_EMAILS in playwright.config.ts)
// trips and resets the Gmail circuit breaker, runs the cleanup and pages through the audit log; a
// normal user sees no trace of the panel and is refused by the server.
const SECURE = { 'x-requested-with': 'XMLHttpRequest' }

/** The plan dialog asks an admin on the free plan too: carry on with the free plan when it does. */
async function dismissPlanDialog(page: Page) {
  await page
    .getByRole('dialog', { name: 'Complete Setup - Choose Your Plan' })
    .getByRole('button', { name: 'Continue with the free plan (10 e-mails a month)' })
    .click({ timeout: 5_000 })
    .catch(() => undefined)
}

async function connectGmail(page: Page) {
  const popupPromise = page.waitForEvent('popup')
  await page.getByRole('article', { name: 'Gmail' }).getByRole('button', { name: 'Connect Gmail' }).click()
  const popup = await popupPromise
  await popup.waitForLoadState()
  const closed = popup.waitForEvent('close')
  await popup.getByRole('button', { name: /^Continue as / }).first().click()
  await closed
}

test('a normal user sees no admin panel, and the server refuses the admin calls', async ({ page }) => {
  await signIn(page, uniqueEmail('plain'))
  await expect(page.getByRole('region', { name: 'Account Settings' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Admin Panel' })).toHaveCount(0)
  expect((await page.request.get('/_api/audit-logs')).status()).toBe(403)
  expect((await page.request.get('/_api/health/providers')).status()).toBe(403)
  expect((await page.request.post('/_api/admin/trigger-cleanup', { headers: SECURE, data: {} })).status()).toBe(403)
})

test('the admin trips and resets the Gmail breaker, runs the cleanup, and pages through the audit log', async ({ page }) => {
  test.setTimeout(300_000)
  await page.goto('/login')
  await signInThroughPopup(page, 'Continue with Google', 'admin@example.com', 'Demo Admin')
  await expect(page).toHaveURL('/dashboard')
  // The admin account outlives a retried run: welcomed only the first time.
  const welcome = page.getByRole('dialog', { name: 'Welcome to Inbox Guard' })
  await welcome
    .getByRole('button', { name: 'Get Started' })
    .click({ timeout: 5_000 })
    .catch(() => undefined)
  await expect(welcome).toBeHidden()
  await dismissPlanDialog(page)
  const panel = page.getByRole('region', { name: 'Admin Panel' })
  await expect(panel).toBeVisible()
  await expect(panel.getByText('Audit events are immutable.')).toBeVisible()

  // A connected Gmail mailbox whose demo API fails: the syncs trip the breaker.
  if (await page.getByRole('article', { name: 'Gmail' }).getByRole('button', { name: 'Connect Gmail' }).isVisible()) {
    await connectGmail(page)
    const plans = page.getByRole('dialog', { name: 'Complete Setup - Choose Your Plan' })
    await plans.getByRole('button', { name: 'Continue with the free plan (10 e-mails a month)' }).click()
    await expect(plans).toBeHidden()
  }
  const fault = await page.request.post('/_api/demo/provider-fault', { headers: SECURE, data: { provider: 'gmail', status: 503, times: 50 } })
  expect(fault.status()).toBe(200)
  // One poll queues a sync; it fails, and the queue's retries (5 s, 10 s, 20 s, 40 s) fail too: the
  // fifth failure in a row opens the breaker. Polling more would spend the faults on counting mail.
  expect((await page.request.post('/_api/gmail/poll', { headers: SECURE, data: {} })).status()).toBe(200)
  await expect(async () => {
    const { providers } = (await (await page.request.get('/_api/health/providers')).json()) as { providers: { serviceName: string; circuitOpenUntil: string | null }[] }
    const gmail = providers.find((p) => p.serviceName === 'gmail')
    expect(gmail?.circuitOpenUntil && Date.parse(gmail.circuitOpenUntil) > Date.now()).toBeTruthy()
  }).toPass({ timeout: 200_000, intervals: [5_000] })
  await page.request.post('/_api/demo/provider-fault', { headers: SECURE, data: { provider: 'gmail', status: 503, times: 0 } })

  await page.reload()
  // The demo mail used the free plan's 10 meanwhile: the plan dialog asks once more this month.
  await dismissPlanDialog(page)
  const providers = panel.locator('section', { has: page.getByRole('heading', { name: 'Provider Health Status' }) })
  await expect(providers.getByText('Systemic Issues Detected')).toBeVisible()
  await providers.getByRole('button', { name: 'Reset Gmail circuit breaker' }).click()
  await expect(providers.getByText('All Systems Operational')).toBeVisible()

  // The cleanup asks first, then says what it deleted.
  await panel.getByRole('button', { name: 'Run Cleanup' }).click()
  await page.getByRole('dialog', { name: 'Run the database cleanup?' }).getByRole('button', { name: 'Run Cleanup' }).click()
  await expect(panel.getByText(/^Cleanup complete: \d+ support records and \d+ queue entries deleted\.$/)).toBeVisible()

  // Enough account changes for two pages of 25, then page through them.
  for (let n = 0; n < 26; n++) {
    expect((await page.request.post('/_api/whitelist', { headers: SECURE, data: { domain: `audit-${n}-${Date.now()}.example` } })).status()).toBe(200)
  }
  await page.reload()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  const audit = panel.locator('section', { has: page.getByRole('heading', { name: 'Security Audit Logs' }) })
  await audit.getByLabel('Page size').selectOption('25')
  await expect(audit.getByText(/^Page 1 of \d+$/)).toBeVisible()
  await expect(audit.getByRole('button', { name: 'Previous page' })).toBeDisabled()
  await audit.getByRole('button', { name: 'Next page' }).click()
  await expect(audit.getByText(/^Page 2 of \d+$/)).toBeVisible()
  const last = audit.getByRole('button', { name: 'Last page' })
  if (await last.isEnabled()) await last.click()
  await expect(last).toBeDisabled()
  await expect(audit.getByRole('button', { name: 'Next page' })).toBeDisabled()
  await audit.getByRole('button', { name: 'First page' }).click()
  await expect(audit.getByText(/^Page 1 of \d+$/)).toBeVisible()
  // One row's details at a time, with its metadata.
  await audit.getByRole('button', { name: /^Show details of event \d+$/ }).first().click()
  await expect(audit.getByRole('button', { name: /^Hide details of event \d+$/ })).toHaveCount(1)
  await expect(audit.getByText('WHITELIST_DOMAIN_ADDED').first()).toBeVisible()
})
