import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SubscriptionResponse } from '#shared/api/billing.ts'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { BillingUsageCard } from './billing-usage-card.tsx'

const free: SubscriptionResponse = {
  subscription: { planId: 'free', planName: 'Free', status: 'active', emailLimit: 10, cancelAtPeriodEnd: false, currentPeriodEnd: null },
  usage: { emailsProcessed: 7, percentUsed: 70, emailsLeftAlone: 0 },
  invoice: null,
  planPrompt: { billingAvailable: true, freePlanChosen: true, dismissedThisMonth: false },
}
const standard = (over: Partial<SubscriptionResponse['subscription']> = {}): SubscriptionResponse => ({
  subscription: { planId: 'standard', planName: 'Standard', status: 'active', emailLimit: null, cancelAtPeriodEnd: false, currentPeriodEnd: '2026-12-29T10:00:00.000Z', ...over },
  usage: { emailsProcessed: 1234, percentUsed: 0, emailsLeftAlone: 0 },
  invoice: { amountCents: 499, currency: 'usd', status: 'paid', date: '2026-11-29T10:00:00.000Z', hostedUrl: null },
  planPrompt: { billingAvailable: true, freePlanChosen: false, dismissedThisMonth: false },
})

describe('Billing & Usage card (SPEC 4 "Subscription status display")', () => {
  afterEach(() => vi.restoreAllMocks())

  it('on the free plan: usage against the limit of 10 and Upgrade, no Manage Billing', async () => {
    mockApi({ 'GET /_api/billing/subscription': { body: free } })
    renderPage(<BillingUsageCard />)
    expect(await screen.findByText('7 of 10 e-mails this month')).toBeInTheDocument()
    expect(screen.getByRole('progressbar', { name: 'E-mails used this month' })).toHaveAttribute('aria-valuenow', '70')
    expect(screen.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/pricing')
    expect(screen.queryByRole('button', { name: 'Manage Billing' })).not.toBeInTheDocument()
  })

  it('says when the free plan’s limit left new mail untouched, how many, and that upgrading resumes filtering', async () => {
    mockApi({ 'GET /_api/billing/subscription': { body: { ...free, usage: { emailsProcessed: 10, percentUsed: 100, emailsLeftAlone: 3 } } } })
    renderPage(<BillingUsageCard />)
    expect(
      await screen.findByText("This month's 10 e-mails are used: 3 new messages were left in your inbox untouched. Filtering resumes next month, or as soon as you upgrade."),
    ).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Upgrade' })).toBeInTheDocument()
  })

  it('on Standard: Active, the renewal date, unlimited usage, and Manage Billing opening the portal in a new tab', async () => {
    const { calls } = mockApi({ 'GET /_api/billing/subscription': { body: standard() }, 'POST /_api/billing/portal': { body: { url: 'https://billing.example/session' } } })
    const open = vi.spyOn(window, 'open').mockReturnValue(null)
    const { user } = renderPage(<BillingUsageCard />)
    expect(await screen.findByText('1234 e-mails this month (unlimited)')).toBeInTheDocument()
    expect(screen.getByText('Active')).toBeInTheDocument()
    expect(screen.getByText(/^Renews on /)).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Manage Billing' }))
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://billing.example/session', '_blank', 'noopener'))
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({ path: '/_api/billing/portal', body: {} })
  })

  it('opens the tab in the click itself and sends it to the portal when the answer comes; closes it if the call fails', async () => {
    mockApi({ 'GET /_api/billing/subscription': { body: standard() }, 'POST /_api/billing/portal': { body: { url: 'https://billing.example/session' } } })
    const tab = { closed: false, opener: window as Window | null, location: { href: 'about:blank' }, close: vi.fn() }
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window)
    const { user } = renderPage(<BillingUsageCard />)
    await user.click(await screen.findByRole('button', { name: 'Manage Billing' }))
    expect(open).toHaveBeenCalledWith('about:blank', '_blank')
    await waitFor(() => expect(tab.location.href).toBe('https://billing.example/session'))
    expect(tab.opener).toBeNull()
    expect(open).toHaveBeenCalledTimes(1)

    mockApi({ 'GET /_api/billing/subscription': { body: standard() }, 'POST /_api/billing/portal': { status: 400, body: { error: 'No customer' } } })
    const failed = { ...tab, location: { href: 'about:blank' }, close: vi.fn() }
    open.mockReturnValue(failed as unknown as Window)
    await user.click(screen.getByRole('button', { name: 'Manage Billing' }))
    await waitFor(() => expect(failed.close).toHaveBeenCalled())
    expect(failed.location.href).toBe('about:blank')
  })

  it.each([
    [{ status: 'past_due' }, 'Past Due', /^Renews on /],
    [{ cancelAtPeriodEnd: true }, 'Active', /^Cancels on /],
    [{ status: 'incomplete' }, 'incomplete', /^Renews on /],
  ])('shows %o as %s with the right date', async (over, label, date) => {
    mockApi({ 'GET /_api/billing/subscription': { body: standard(over) } })
    renderPage(<BillingUsageCard />)
    expect(await screen.findByText(label)).toBeInTheDocument()
    expect(screen.getByText(date)).toBeInTheDocument()
  })

  it("says 'Error loading billing info' with the reason when the call fails", async () => {
    mockApi({ 'GET /_api/billing/subscription': { status: 400, body: { error: 'Something broke' } } })
    renderPage(<BillingUsageCard />)
    expect(await screen.findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent('Error loading billing info: Something broke')
  })
})
