import { expect, test, type Page } from '@playwright/test'
import { signIn, uniqueEmail } from './helpers.ts'

// SPEC 2 "/dashboard" (Email Provider Integrations), 4 "Mailbox connection" and 8 "Mailboxes" /
// "Dashboard URL errors", driven through the real connect popup against the demo providers.


/** Connect in the popup as the consent page's first demo identity; returns its address. */
async function connectThroughPopup(page: Page, provider: 'Gmail' | 'Outlook'): Promise<string> {
  const popupPromise = page.waitForEvent('popup')
  await page.getByRole('article', { name: provider }).getByRole('button', { name: `Connect ${provider}` }).click()
  const popup = await popupPromise
  await popup.waitForLoadState()
  const identity = popup.getByRole('button', { name: /^Continue as / }).first()
  const name = (await identity.getAttribute('aria-label')) ?? ''
  const address = name.replace(/^Continue as /, '')
  expect(address).toContain('@')
  // The popup closes itself as soon as the callback posts its message: listen before clicking.
  const closed = popup.waitForEvent('close')
  await identity.click()
  await closed
  return address
}

async function switchEmailAddress(page: Page, provider: 'Gmail' | 'Outlook') {
  await page.getByRole('article', { name: provider }).getByRole('button', { name: 'Switch Email Address' }).click()
  const dialog = page.getByRole('dialog', { name: 'Switch Email Address' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Clear Tokens & Switch Provider' }).click()
  await expect(page.getByText(new RegExp(`^${provider} account disconnected successfully\\.`))).toBeVisible()
  await expect(dialog).toBeHidden()
}

test('connect Gmail, switch to Outlook, then disconnect: one mailbox at a time', async ({ page }) => {
  await signIn(page, uniqueEmail('mailbox'))
  const gmailCard = page.getByRole('article', { name: 'Gmail' })
  const outlookCard = page.getByRole('article', { name: 'Outlook' })
  await expect(page.getByRole('heading', { name: 'Email Provider Integrations' })).toBeVisible()
  await expect(gmailCard.getByRole('button', { name: 'Connect Gmail' })).toBeEnabled()
  await expect(outlookCard.getByRole('button', { name: 'Connect Outlook' })).toBeEnabled()

  const gmailAddress = await connectThroughPopup(page, 'Gmail')
  await expect(gmailCard.getByText(gmailAddress)).toBeVisible()
  // Connected on the free plan: the plan dialog asks, Escape does not close it, the free choice does.
  const plans = page.getByRole('dialog', { name: 'Complete Setup - Choose Your Plan' })
  await expect(plans).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(plans).toBeVisible()
  await plans.getByRole('button', { name: 'Continue with the free plan (10 e-mails a month)' }).click()
  await expect(plans).toBeHidden()
  await expect(gmailCard.getByText('Connected as')).toBeVisible()
  // Only one provider may hold tokens: Outlook waits until they are cleared.
  await expect(outlookCard).toHaveAttribute('aria-disabled', 'true')
  await expect(outlookCard.getByRole('button', { name: 'Connect Outlook' })).toBeDisabled()

  await switchEmailAddress(page, 'Gmail')
  await expect(gmailCard.getByRole('button', { name: 'Connect Gmail' })).toBeEnabled()
  await expect(outlookCard.getByRole('button', { name: 'Connect Outlook' })).toBeEnabled()

  const outlookAddress = await connectThroughPopup(page, 'Outlook')
  await expect(outlookCard.getByText(outlookAddress)).toBeVisible()
  // The free choice is remembered: no dialog for the second mailbox.
  await page.reload()
  await expect(outlookCard.getByText(outlookAddress)).toBeVisible()
  await expect(plans).toBeHidden()
  await expect(gmailCard).toHaveAttribute('aria-disabled', 'true')
  await expect(gmailCard.getByRole('button', { name: 'Connect Gmail' })).toBeDisabled()

  await switchEmailAddress(page, 'Outlook')
  await expect(gmailCard.getByRole('button', { name: 'Connect Gmail' })).toBeEnabled()
  await expect(outlookCard.getByRole('button', { name: 'Connect Outlook' })).toBeEnabled()
  const status = await page.request.get('/_api/outlook/test')
  expect(await status.json()).toMatchObject({ status: 'disconnected' })
})

test('the plan dialog after connecting: upgrade with the test card and come back to Standard, no dialog', async ({ page }) => {
  test.setTimeout(90_000)
  await signIn(page, uniqueEmail('plan-dialog'))
  await connectThroughPopup(page, 'Gmail')
  const plans = page.getByRole('dialog', { name: 'Complete Setup - Choose Your Plan' })
  await expect(plans).toBeVisible()
  await plans.getByRole('button', { name: 'Upgrade' }).click()
  await page.waitForURL(/\/c\/pay\/cs_test_/)
  await page.getByLabel('Card number').fill('4242 4242 4242 4242')
  await page.getByRole('button', { name: 'Subscribe' }).click()
  await page.waitForURL(/\/dashboard/)
  // Back from Stripe, the dashboard waits for the plan to switch instead of asking again.
  await expect(page.getByText('You are on the Standard plan: every new message is filtered.')).toBeVisible({ timeout: 30_000 })
  const billing = page.getByRole('region', { name: 'Billing & Usage' })
  await expect(billing.getByText(/e-mails this month \(unlimited\)/)).toBeVisible()
  await expect(plans).toBeHidden()
  await page.reload()
  await expect(billing.getByText('Standard', { exact: true })).toBeVisible()
  await expect(plans).toBeHidden()
})

test('/dashboard?error=access_denied shows Permission Denied, and Retry clears the parameters', async ({ page }) => {
  await page.goto('/dashboard?error=access_denied&error_description=The%20user%20denied%20access')
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Permission Denied' })
  await expect(toast).toBeVisible()
  await toast.getByRole('button', { name: 'Retry' }).click()
  await expect(page).toHaveURL('/dashboard')
})
