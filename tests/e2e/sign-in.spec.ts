import { expect, test } from '@playwright/test'
import { signInThroughPopup, uniqueEmail } from './helpers.ts'

// SPEC 4 "OAuth login" and 8 "Sign-in", driven through the real popup against the demo identity providers.
for (const [provider, button] of [
  ['Google', 'Continue with Google'],
  ['Microsoft', 'Continue with Microsoft'],
] as const) {
  test(`sign in with ${provider}: popup consent lands on the dashboard with the email, then Sign Out`, async ({ page }) => {
    const email = uniqueEmail(provider.toLowerCase())
    await page.goto('/')
    await page.getByRole('banner').getByRole('link', { name: 'Log In' }).click()
    await expect(page).toHaveURL('/login')
    await signInThroughPopup(page, button, email)

    await expect(page).toHaveURL('/dashboard')
    // A new account is welcomed once (SPEC 4 "Onboarding").
    const welcome = page.getByRole('dialog', { name: 'Welcome to Inbox Guard' })
    await expect(welcome).toBeVisible()
    await expect(welcome.getByRole('listitem')).toHaveCount(4)
    await welcome.getByRole('button', { name: 'Get Started' }).click()
    await expect(welcome).toBeHidden()
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()
    await expect(page.getByText(email)).toBeVisible()
    await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toBeVisible()

    await page.getByRole('button', { name: 'Sign Out' }).click()
    await expect(page.getByRole('banner').getByRole('link', { name: 'Log In' })).toBeVisible()
    const session = await page.request.get('/_api/auth/session')
    expect(await session.json()).toEqual({ user: null })

    // Signing in again: no welcome this time; and /login sends a signed-in user to the dashboard.
    await page.goto('/login')
    await signInThroughPopup(page, button, email)
    await expect(page).toHaveURL('/dashboard')
    await expect(page.getByRole('region', { name: 'Account Settings' })).toBeVisible()
    await expect(welcome).toBeHidden()
    await page.goto('/login')
    await expect(page).toHaveURL('/dashboard')
  })
}

test('a second provider with the same email shows the Account Already Exists card, and Got it clears it', async ({
  page,
}) => {
  const email = uniqueEmail('both')
  await page.goto('/login')
  await signInThroughPopup(page, 'Continue with Google', email)
  await expect(page).toHaveURL('/dashboard')
  await page.getByRole('dialog', { name: 'Welcome to Inbox Guard' }).getByRole('button', { name: 'Get Started' }).click()
  await page.getByRole('button', { name: 'Sign Out' }).click()
  await expect(page.getByRole('banner').getByRole('link', { name: 'Log In' })).toBeVisible()

  await page.goto('/login')
  await signInThroughPopup(page, 'Continue with Microsoft', email)
  await expect(page.getByText('Account Already Exists')).toBeVisible()
  await expect(page.getByText(email)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeHidden()
  await page.getByRole('button', { name: 'Got it' }).click()
  await expect(page.getByText('Account Already Exists')).toBeHidden()
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible()
  await expect(page).toHaveURL('/login')
})

test('cancelling on the consent page shows the error and lets the person try again', async ({ page }) => {
  await page.goto('/login')
  const popupPromise = page.waitForEvent('popup')
  await page.getByRole('button', { name: 'Continue with Google' }).click()
  const popup = await popupPromise
  const closed = popup.waitForEvent('close')
  await popup.getByRole('button', { name: 'Cancel' }).click()
  await closed
  await expect(page.getByRole('alert')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeEnabled()
})
