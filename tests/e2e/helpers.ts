import { expect, type Page } from '@playwright/test'

/** An address no earlier test used: one account per address, and the e2e database lives across specs. */
export const uniqueEmail = (name: string) => `${name}.${Date.now()}${Math.floor(Math.random() * 1000)}@example.com`

/** Clicks a sign-in button and answers the demo consent page in the popup with a typed identity. */
export async function signInThroughPopup(page: Page, providerButton: string, email: string, name = 'Demo Person') {
  const popupPromise = page.waitForEvent('popup')
  await page.getByRole('button', { name: providerButton }).click()
  const popup = await popupPromise
  await popup.waitForLoadState()
  await popup.getByLabel('Email').fill(email)
  await popup.getByLabel('Name').fill(name)
  // The popup may close as soon as the callback posts its message: listen before clicking.
  const closed = popup.waitForEvent('close')
  await popup.getByRole('button', { name: 'Continue', exact: true }).click()
  await closed
}

/**
 * Signs in with demo Google from /login and lands on the dashboard; a new account is welcomed by the
 * onboarding dialog, which 'Get Started' completes (onboarding.spec.ts tests it on its own).
 */
export async function signIn(page: Page, email: string, name?: string, { completeOnboarding = true } = {}) {
  await page.goto('/login')
  await signInThroughPopup(page, 'Continue with Google', email, name)
  await expect(page).toHaveURL('/dashboard')
  if (!completeOnboarding) return
  const welcome = page.getByRole('dialog', { name: 'Welcome to Inbox Guard' })
  await welcome.getByRole('button', { name: 'Get Started' }).click()
  await expect(welcome).toBeHidden()
}

/**
 * Upgrades the signed-in user to Standard through the local Stripe's hosted checkout, paying with a
 * card number; lands back on the dashboard. Returns after the Billing & Usage card shows Standard.
 */
export async function upgradeWithTestCard(page: Page, card = '4242 4242 4242 4242') {
  await page.goto('/pricing')
  await page.getByRole('button', { name: 'Upgrade' }).click()
  await page.waitForURL(/\/c\/pay\/cs_test_/)
  await page.getByLabel('Card number').fill(card)
  await page.getByRole('button', { name: 'Subscribe' }).click()
  await page.waitForURL(/\/dashboard/)
  const billing = page.getByRole('region', { name: 'Billing & Usage' })
  // The subscription arrives by webhook and a background re-read: reload until the card shows it.
  await expect(async () => {
    await page.reload()
    await expect(billing.getByText(/e-mails this month \(unlimited\)/)).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 20_000, intervals: [500, 1_000, 2_000] })
}
