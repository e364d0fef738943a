import { expect, test } from '@playwright/test'
import { signIn, uniqueEmail } from './helpers.ts'

// Issue 17 in the browser: the Account Settings card, another browser's session revoked, and the
// account deleted, after which the same address signs up afresh.
test('Account Settings: remembered open, revoke another browser, delete the account and start afresh', async ({ page, browser }) => {
  test.setTimeout(90_000)
  const email = uniqueEmail('account')
  await signIn(page, email)
  // A second browser signed in to the same account.
  const other = await browser.newContext()
  const otherPage = await other.newPage()
  await signIn(otherPage, email, undefined, { completeOnboarding: false })
  await expect(otherPage.getByRole('region', { name: 'Account Settings' })).toBeVisible()

  // Collapsed by default; its open state survives a reload.
  await page.reload()
  const toggle = page.getByRole('button', { name: 'Account Settings' })
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await page.reload()
  await expect(page.getByRole('button', { name: 'Account Settings' })).toHaveAttribute('aria-expanded', 'true')
  await expect(page.getByRole('heading', { name: 'Data Retention Policy' })).toBeVisible()

  // Two sessions: this one, and the other browser's, which is revoked.
  const list = page.getByRole('list', { name: 'Active sessions' })
  await expect(list.getByRole('listitem')).toHaveCount(2)
  await expect(list.getByText('This device')).toHaveCount(1)
  await list.getByRole('button', { name: /^Revoke / }).click()
  await page.getByRole('dialog', { name: 'Revoke this session?' }).getByRole('button', { name: 'Revoke session' }).click()
  await expect(page.getByText('Session revoked successfully.')).toBeVisible()
  await expect(list.getByRole('listitem')).toHaveCount(1)
  // The other browser is signed out on its next request.
  await otherPage.reload()
  await expect(otherPage.getByText('Sign in to see your mailbox connection, filtering preferences and stats.')).toBeVisible()
  expect(await (await otherPage.request.get('/_api/auth/session')).json()).toEqual({ user: null })
  await other.close()

  // Delete the account: two dialogs, the exact address and phrase, then /login.
  await page.getByRole('button', { name: 'Delete Account' }).click()
  await page.getByRole('dialog', { name: 'Delete your account?' }).getByRole('button', { name: 'Continue' }).click()
  const form = page.getByRole('dialog', { name: 'Confirm account deletion' })
  const submit = form.getByRole('button', { name: 'Delete my account' })
  await form.getByLabel('Your e-mail address').fill(email)
  await form.getByLabel('Type DELETE MY ACCOUNT').fill('DELETE MY ACCOUN')
  await expect(submit).toBeDisabled()
  await form.getByLabel('Type DELETE MY ACCOUNT').fill('DELETE MY ACCOUNT')
  await submit.click()
  await expect(page.getByText('Account deleted successfully. You will be logged out.')).toBeVisible()
  await expect(page).toHaveURL('/login', { timeout: 10_000 })
  expect(await (await page.request.get('/_api/auth/session')).json()).toEqual({ user: null })

  // The same address signs up as a new account: welcomed again.
  await signIn(page, email)
  await expect(page.getByRole('region', { name: 'Billing & Usage' }).getByText(/of 10 e-mails this month/)).toBeVisible()
})
