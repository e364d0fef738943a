import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi, testUser } from '#client/test/fetch-mock.ts'
import { renderApp } from '#client/test/render.tsx'

async function openMenu(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Open menu' }))
  return screen.findByRole('dialog', { name: 'Menu' })
}

describe('mobile menu', () => {
  it('opens with the navigation and locks body scroll, then closes on Escape and unlocks it', async () => {
    mockApi()
    const { user } = renderApp('/')
    const menu = await openMenu(user)

    expect(within(menu).getByRole('link', { name: 'Pricing' })).toBeInTheDocument()
    expect(await within(menu).findByRole('link', { name: 'Log In' })).toBeInTheDocument()
    expect(getComputedStyle(document.body).overflow).toBe('hidden')

    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(getComputedStyle(document.body).overflow).not.toBe('hidden')
  })

  it('closes when the overlay is clicked', async () => {
    mockApi()
    const { user } = renderApp('/')
    await openMenu(user)

    await user.click(screen.getByTestId('mobile-menu-overlay'))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('closes when the route changes', async () => {
    mockApi()
    const { user } = renderApp('/')
    const menu = await openMenu(user)

    await user.click(within(menu).getByRole('link', { name: 'Pricing' }))
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/pricing'))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })
})

describe('header', () => {
  it('offers Log In and Sign Up to signed-out visitors, both leading to /login', async () => {
    mockApi()
    const { user } = renderApp('/')
    const header = screen.getByRole('banner')

    expect(await within(header).findByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login')
    expect(within(header).getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/login')
    expect(within(header).queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument()

    await user.click(within(header).getByRole('link', { name: /inbox guard home/i }))
    expect(screen.getByTestId('location')).toHaveTextContent('/')
  })

  it('shows Dashboard and a crown by Pricing for a signed-in user on the free plan', async () => {
    mockApi({ 'GET /_api/billing/subscription': { body: { subscription: { planId: 'free' } } } }, { user: testUser })
    renderApp('/')
    const nav = screen.getByRole('navigation', { name: 'Main' })

    expect(await within(nav).findByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard')
    expect(await within(nav).findByRole('link', { name: /^Pricing\s*\(upgrade available\)$/ })).toBeInTheDocument()
    expect(within(screen.getByRole('banner')).queryByRole('link', { name: 'Log In' })).not.toBeInTheDocument()
  })

  it('treats a missing subscription endpoint (404) as the free plan', async () => {
    mockApi({}, { user: testUser })
    renderApp('/')
    const nav = screen.getByRole('navigation', { name: 'Main' })
    expect(await within(nav).findByRole('link', { name: /^Pricing\s*\(upgrade available\)$/ })).toBeInTheDocument()
  })

  it('shows no crown for a Standard subscriber', async () => {
    mockApi({ 'GET /_api/billing/subscription': { body: { subscription: { planId: 'standard' } } } }, { user: testUser })
    renderApp('/')
    const nav = screen.getByRole('navigation', { name: 'Main' })
    await within(nav).findByRole('link', { name: 'Dashboard' })
    await waitFor(() => expect(within(nav).getByRole('link', { name: 'Pricing' })).toBeInTheDocument())
    expect(screen.queryByTestId('free-plan-crown')).not.toBeInTheDocument()
  })
})

describe('layout', () => {
  it('has a skip link to the main content and a footer with support, privacy and terms links', async () => {
    mockApi()
    renderApp('/')
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main-content')
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content')

    const footer = screen.getByRole('contentinfo')
    expect(within(footer).getByText(new RegExp(`© ${new Date().getFullYear()} Inbox Guard`))).toBeInTheDocument()
    expect(within(footer).getByRole('link', { name: 'Support' })).toHaveAttribute('href', 'mailto:support@inboxguard.app')
    expect(within(footer).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy')
    expect(within(footer).getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms')
  })

  it('shows the demo-mode notice when the server runs in demo mode', async () => {
    mockApi({ 'GET /_api/app/info': { body: { demoMode: true, productName: 'Inbox Guard', supportEmail: 'x@y.z' } } })
    renderApp('/')
    expect(
      await screen.findByText('Demo mode: sign-in uses local demo accounts; no real mailbox is connected.'),
    ).toBeInTheDocument()
  })
})
