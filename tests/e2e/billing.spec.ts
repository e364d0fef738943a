import { expect, test } from '@playwright/test'
import { signIn, uniqueEmail, upgradeWithTestCard } from './helpers.ts'

// Issue 16 against the local Stripe in demo mode: a declined card changes nothing, the test card
// upgrades to Standard, and the portal cancels at the period end.
test('upgrade with the test card, see Standard and unlimited, cancel at period end in the portal', async ({ page, context }) => {
  test.setTimeout(150_000)
  await signIn(page, uniqueEmail('billing'))
  const billing = page.getByRole('region', { name: 'Billing & Usage' })
  await expect(billing.getByText(/of 10 e-mails this month/)).toBeVisible()
  await expect(billing.getByRole('button', { name: 'Manage Billing' })).toBeHidden()

  // A declined card: the checkout says so and the plan stays free.
  await page.goto('/pricing')
  await page.getByRole('button', { name: 'Upgrade' }).click()
  await page.waitForURL(/\/c\/pay\/cs_test_/)
  await page.getByLabel('Card number').fill('4000 0000 0000 0002')
  await page.getByRole('button', { name: 'Subscribe' }).click()
  await expect(page.getByText('Your card was declined.')).toBeVisible()
  await page.goto('/dashboard')
  await expect(billing.getByText(/of 10 e-mails this month/)).toBeVisible()

  await upgradeWithTestCard(page)
  await expect(billing.getByText('Standard', { exact: true })).toBeVisible()
  await expect(billing.getByText('Active')).toBeVisible()
  await expect(billing.getByText(/^Renews on /)).toBeVisible()

  // Manage Billing opens the portal in a new tab: cancel at the period end there.
  const portalPromise = context.waitForEvent('page')
  await billing.getByRole('button', { name: 'Manage Billing' }).click()
  const portal = await portalPromise
  await portal.waitForLoadState()
  await portal.getByRole('button', { name: /cancel at (the )?(end of the )?(billing )?period/i }).click()
  await portal.close()
  // The webhook queues a billing re-read (pg-boss, polled every 2 s); on a loaded machine, right after
  // the admin test's failing syncs, that has taken more than 20 s, so the bound is generous.
  await expect(async () => {
    await page.reload()
    await expect(page.getByRole('region', { name: 'Billing & Usage' }).getByText(/^Cancels on /)).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 50_000, intervals: [500, 1_000, 2_000] })
})
