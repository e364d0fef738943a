import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SubscriptionResponse } from '#shared/api/billing.ts'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { BillingPrompt } from './plan-dialog.tsx'

const TITLE = 'Complete Setup - Choose Your Plan'
const CONTINUE = 'Continue with the free plan (10 e-mails a month)'

const answer = (
  over: { subscription?: Partial<SubscriptionResponse['subscription']>; usage?: Partial<SubscriptionResponse['usage']>; planPrompt?: Partial<SubscriptionResponse['planPrompt']> } = {},
): SubscriptionResponse => ({
  subscription: { planId: 'free', planName: 'Free', status: 'active', emailLimit: 10, cancelAtPeriodEnd: false, currentPeriodEnd: null, ...over.subscription },
  usage: { emailsProcessed: 0, percentUsed: 0, emailsLeftAlone: 0, ...over.usage },
  invoice: null,
  planPrompt: { billingAvailable: true, freePlanChosen: false, dismissedThisMonth: false, ...over.planPrompt },
})

const render = (subscription: SubscriptionResponse, { connected = true } = {}) => {
  const api = mockApi({
    'GET /_api/billing/subscription': { body: subscription },
    'POST /_api/billing/continue-free': { body: { planPrompt: { ...subscription.planPrompt, freePlanChosen: true, dismissedThisMonth: subscription.usage.emailsProcessed >= 10 } } },
  })
  const page = renderPage(<BillingPrompt mailboxConnected={connected} onJoinWaitlist={vi.fn()} />)
  return { ...api, ...page }
}

/** The subscription answer has arrived (the prompt decides only then). */
const loaded = (calls: { path: string }[]) => waitFor(() => expect(calls.some((call) => call.path === '/_api/billing/subscription')).toBe(true))

describe('the plan dialog (SPEC 2, 4 "Billing prompt modal"; issue 16)', () => {
  afterEach(() => vi.restoreAllMocks())

  it('opens once a mailbox is connected on the free plan, shows Standard and Team, and Escape does not close it', async () => {
    const { user } = render(answer())
    const dialog = await screen.findByRole('dialog', { name: TITLE })
    expect(dialog).toHaveTextContent('Standard')
    expect(dialog).toHaveTextContent('Team')
    expect(screen.getByRole('button', { name: 'Upgrade' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Notify me when available' })).toBeEnabled()
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument()
    await user.keyboard('{Escape}')
    expect(screen.getByRole('dialog', { name: TITLE })).toBeInTheDocument()
  })

  it('"Continue with the free plan" is remembered by the server and closes the dialog', async () => {
    const { user, calls } = render(answer())
    await user.click(await screen.findByRole('button', { name: CONTINUE }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: TITLE })).not.toBeInTheDocument())
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({ path: '/_api/billing/continue-free', body: {} })
  })

  it('reopens when the free limit is reached, saying why, until dismissed for the month', async () => {
    render(answer({ usage: { emailsProcessed: 10, percentUsed: 100, emailsLeftAlone: 2 }, planPrompt: { freePlanChosen: true } }))
    const dialog = await screen.findByRole('dialog', { name: TITLE })
    expect(dialog).toHaveTextContent("This month's 10 free e-mails are used, so new mail stays in your inbox untouched.")
  })

  it('asks a past-due subscriber to update the payment method', async () => {
    render(answer({ subscription: { planId: 'standard', planName: 'Standard', status: 'past_due', emailLimit: null }, planPrompt: { freePlanChosen: true } }))
    const dialog = await screen.findByRole('dialog', { name: TITLE })
    expect(dialog).toHaveTextContent('Your last payment did not go through.')
    expect(screen.getByRole('button', { name: 'Update payment method' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Your Current Plan' })).toBeDisabled()
  })

  it.each([
    ['an active paid plan', answer({ subscription: { planId: 'standard', planName: 'Standard', status: 'active', emailLimit: null } }), true],
    ['a trialing paid plan', answer({ subscription: { planId: 'standard', planName: 'Standard', status: 'trialing', emailLimit: null } }), true],
    ['the free plan already chosen, under the limit', answer({ usage: { emailsProcessed: 4 }, planPrompt: { freePlanChosen: true } }), true],
    ['the limit reached but dismissed this month', answer({ usage: { emailsProcessed: 10 }, planPrompt: { freePlanChosen: true, dismissedThisMonth: true } }), true],
    ['no billing on this server', answer({ planPrompt: { billingAvailable: false } }), true],
    ['no mailbox connected', answer(), false],
  ])('stays shut with %s', async (_name, subscription, connected) => {
    const { calls } = render(subscription, { connected })
    await loaded(calls)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.queryByRole('dialog', { name: TITLE })).not.toBeInTheDocument()
  })
})
