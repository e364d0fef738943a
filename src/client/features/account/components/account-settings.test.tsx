import { screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { ACCOUNT_SETTINGS_EXPANDED_KEY, AccountSettingsCard } from './account-settings-card.tsx'
import { DangerZone } from './danger-zone.tsx'
import { DataRetentionPolicy } from './data-retention-policy.tsx'

describe('Account Settings card (SPEC 2)', () => {
  beforeEach(() => window.localStorage.clear())

  it('is collapsed by default; its open state is kept in local storage under accountSettingsExpanded', async () => {
    const first = renderPage(
      <AccountSettingsCard>
        <p>Inside</p>
      </AccountSettingsCard>,
    )
    const toggle = screen.getByRole('button', { name: 'Account Settings' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByText('Inside')).not.toBeInTheDocument()
    await first.user.click(toggle)
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getByText('Inside')).toBeVisible()
    expect(window.localStorage.getItem(ACCOUNT_SETTINGS_EXPANDED_KEY)).toBe('true')
    first.unmount()

    renderPage(
      <AccountSettingsCard>
        <p>Inside</p>
      </AccountSettingsCard>,
    )
    expect(screen.getByRole('button', { name: 'Account Settings' })).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getByText('Inside')).toBeVisible()
  })
})

describe('Data Retention Policy', () => {
  it('states the legal text’s figures', () => {
    renderPage(<DataRetentionPolicy />)
    for (const figure of ['Never stored', '45 days', '90 days', '30 days', '7 years']) expect(screen.getByText(figure)).toBeInTheDocument()
    expect(screen.getByText(/Anonymized after 7 days\. Error logs are kept 14 days\./)).toBeInTheDocument()
    expect(screen.getByText(/AES-256-GCM/)).toBeInTheDocument()
  })
})

describe('Danger Zone (SPEC 4 "Account deletion", 5, 8)', () => {
  afterEach(() => vi.restoreAllMocks())

  it('asks twice; Delete is enabled only for the exact e-mail and phrase; success reports and hands over', async () => {
    const { calls } = mockApi({ 'POST /_api/account/delete': { body: { message: 'Account deleted successfully. You will be logged out.' } } })
    const onDeleted = vi.fn()
    const { user } = renderPage(<DangerZone email="ada@example.com" onDeleted={onDeleted} />)
    await user.click(screen.getByRole('button', { name: 'Delete Account' }))
    const first = screen.getByRole('dialog', { name: 'Delete your account?' })
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    expect(first).not.toBeInTheDocument()
    screen.getByRole('dialog', { name: 'Confirm account deletion' })
    const submit = screen.getByRole('button', { name: 'Delete my account' })
    const email = screen.getByLabelText('Your e-mail address')
    const phrase = screen.getByLabelText('Type DELETE MY ACCOUNT')
    expect(submit).toBeDisabled()
    await user.type(email, 'ada@example.org')
    await user.type(phrase, 'DELETE MY ACCOUNT')
    expect(submit).toBeDisabled()
    await user.clear(email)
    await user.type(email, ' ada@example.com ')
    await user.clear(phrase)
    await user.type(phrase, 'delete my account')
    expect(submit).toBeDisabled()
    await user.clear(phrase)
    await user.type(phrase, 'DELETE MY ACCOUNT')
    expect(submit).toBeEnabled()
    await user.click(submit)
    await waitFor(() => expect(onDeleted).toHaveBeenCalledTimes(1))
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({ path: '/_api/account/delete', body: { confirmationEmail: 'ada@example.com', confirmationPhrase: 'DELETE MY ACCOUNT' } })
    expect(await screen.findByText('Account deleted successfully. You will be logged out.')).toBeInTheDocument()
  })

  it('shows the validation messages on blur and the server’s message on failure', async () => {
    mockApi({ 'POST /_api/account/delete': { status: 502, body: { error: 'Stripe could not be reached to cancel your subscription, so nothing was deleted. Please try again in a moment.' } } })
    const onDeleted = vi.fn()
    const { user } = renderPage(<DangerZone email="ada@example.com" onDeleted={onDeleted} />)
    await user.click(screen.getByRole('button', { name: 'Delete Account' }))
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await user.type(screen.getByLabelText('Your e-mail address'), 'nope')
    await user.click(screen.getByLabelText('Type DELETE MY ACCOUNT'))
    await user.tab()
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument()
    expect(await screen.findByText('Confirmation phrase is required.')).toBeInTheDocument()
    await user.clear(screen.getByLabelText('Your e-mail address'))
    await user.type(screen.getByLabelText('Your e-mail address'), 'ada@example.com')
    await user.type(screen.getByLabelText('Type DELETE MY ACCOUNT'), 'DELETE MY ACCOUNT')
    await user.click(screen.getByRole('button', { name: 'Delete my account' }))
    expect(await screen.findByText(/nothing was deleted/)).toBeInTheDocument()
    expect(onDeleted).not.toHaveBeenCalled()
    expect(screen.getByRole('dialog', { name: 'Confirm account deletion' })).toBeInTheDocument()
  })
})
