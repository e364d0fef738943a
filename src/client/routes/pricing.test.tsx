import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { mockApi, testUser } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import PricingPage from './pricing.tsx'

const card = (name: string) => screen.getByRole('article', { name })

describe('/pricing', () => {
  it('shows the plans with prices, features and the Recommended badge on Standard', () => {
    mockApi()
    renderPage(<PricingPage />, { path: '/pricing' })

    expect(screen.getByRole('heading', { level: 1, name: 'Find the perfect plan' })).toBeInTheDocument()
    expect(within(card('Standard')).getByText('$4.99')).toBeInTheDocument()
    expect(within(card('Standard')).getByText('Recommended')).toBeInTheDocument()
    expect(within(card('Standard')).getByText('Unlimited emails')).toBeInTheDocument()
    expect(within(card('Free')).getByText('$0.00')).toBeInTheDocument()
    expect(within(card('Team')).getByText('Coming soon')).toBeInTheDocument()
    expect(within(card('Free')).queryByText('Recommended')).not.toBeInTheDocument()
  })

  it('back from a canceled checkout: says the plan has not changed', async () => {
    mockApi({ 'GET /_api/billing/subscription': { body: { subscription: { planId: 'free' } } } }, { user: testUser })
    renderPage(<PricingPage />, { path: '/pricing?checkout=canceled' })
    expect(await screen.findByText('Checkout canceled: your plan has not changed.')).toBeInTheDocument()
  })

  it('marks the page index, follow', () => {
    mockApi()
    renderPage(<PricingPage />, { path: '/pricing' })
    expect(document.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'index, follow')
  })

  it('signed out: Upgrade and Notify me are disabled, Free shows a disabled Your Current Plan', async () => {
    mockApi()
    renderPage(<PricingPage />, { path: '/pricing' })

    await waitFor(() => expect(within(card('Standard')).getByText(/please sign in to upgrade your plan/i)).toBeInTheDocument())
    expect(within(card('Free')).getByRole('button', { name: 'Your Current Plan' })).toBeDisabled()
    expect(within(card('Standard')).getByRole('button', { name: 'Upgrade' })).toBeDisabled()
    expect(within(card('Team')).getByRole('button', { name: 'Notify me when available' })).toBeDisabled()
    expect(screen.queryByText('Current plan')).not.toBeInTheDocument()
  })

  it('signed in on free: Free is marked current, Upgrade and Notify me are enabled', async () => {
    mockApi({ 'GET /_api/billing/subscription': { body: { subscription: { planId: 'free' } } } }, { user: testUser })
    renderPage(<PricingPage />, { path: '/pricing' })

    await waitFor(() => expect(within(card('Standard')).getByRole('button', { name: 'Upgrade' })).toBeEnabled())
    expect(within(card('Free')).getByText('Current plan')).toBeInTheDocument()
    expect(within(card('Free')).getByRole('button', { name: 'Your Current Plan' })).toBeDisabled()
    expect(within(card('Team')).getByRole('button', { name: 'Notify me when available' })).toBeEnabled()
  })

  it('signed in on standard: Standard is the disabled current plan', async () => {
    mockApi({ 'GET /_api/billing/subscription': { body: { subscription: { planId: 'standard' } } } }, { user: testUser })
    renderPage(<PricingPage />, { path: '/pricing' })

    await waitFor(() => expect(within(card('Standard')).getByText('Current plan')).toBeInTheDocument())
    expect(within(card('Standard')).getByRole('button', { name: 'Your Current Plan' })).toBeDisabled()
    expect(within(card('Standard')).queryByRole('button', { name: 'Upgrade' })).not.toBeInTheDocument()
    expect(within(card('Free')).queryByText('Current plan')).not.toBeInTheDocument()
  })

  it('Upgrade starts a standard checkout, shows the redirect overlay and goes to the returned url', async () => {
    let finish: (value: { body: unknown }) => void = () => {}
    const { calls } = mockApi(
      { 'POST /_api/billing/create-checkout': () => new Promise((resolve) => (finish = resolve)) },
      { user: testUser },
    )
    const assign = vi.fn()
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign })
    const { user } = renderPage(<PricingPage />, { path: '/pricing' })

    const upgrade = await within(card('Standard')).findByRole('button', { name: 'Upgrade' })
    await waitFor(() => expect(upgrade).toBeEnabled())
    await user.click(upgrade)

    expect(await screen.findByText('Redirecting to checkout...')).toBeInTheDocument()
    const checkout = calls.find((call) => call.path === '/_api/billing/create-checkout')
    expect(checkout?.body).toEqual({ planId: 'standard' })
    expect(checkout?.headers['X-Requested-With']).toBe('XMLHttpRequest')

    finish({ body: { url: 'https://checkout.stripe.com/c/pay/cs_test_1' } })
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'))
  })

  it('shows a toast with the error when checkout cannot be created', async () => {
    mockApi(
      { 'POST /_api/billing/create-checkout': { status: 503, body: { error: 'Checkout is not available yet' } } },
      { user: testUser },
    )
    const { user } = renderPage(<PricingPage />, { path: '/pricing' })

    const upgrade = await within(card('Standard')).findByRole('button', { name: 'Upgrade' })
    await waitFor(() => expect(upgrade).toBeEnabled())
    await user.click(upgrade)

    expect(await screen.findByText('Error: Checkout is not available yet')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByText('Redirecting to checkout...')).not.toBeInTheDocument())
  })

  it('Notify me opens the waitlist dialog prefilled with the signed-in user', async () => {
    mockApi({}, { user: testUser })
    const { user } = renderPage(<PricingPage />, { path: '/pricing' })

    const notify = within(card('Team')).getByRole('button', { name: 'Notify me when available' })
    await waitFor(() => expect(notify).toBeEnabled())
    await user.click(notify)

    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Ada Lovelace')
    expect(within(dialog).getByLabelText('Email')).toHaveValue('ada@example.com')
  })
})
