import { act, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { mockApi, testUser } from '#client/test/fetch-mock.ts'
import { renderApp } from '#client/test/render.tsx'

describe('/dashboard', () => {
  it('is marked noindex', async () => {
    mockApi()
    renderApp('/dashboard')
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' })
    expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toMatch(/noindex/)
  })

  it('signed out: only a placeholder and a sign-in control', async () => {
    mockApi()
    renderApp('/dashboard')
    const signIn = await screen.findByRole('link', { name: 'Sign in' })
    expect(signIn).toHaveAttribute('href', '/login')
    expect(screen.queryByRole('button', { name: 'Sign Out' })).not.toBeInTheDocument()
    expect(screen.queryByTestId('dashboard-grid')).not.toBeInTheDocument()
  })

  it('signed in: shows the email and signs out through the logout call', async () => {
    let signedIn = true
    const { calls } = mockApi({
      'GET /_api/auth/session': () => ({ body: { user: signedIn ? testUser : null } }),
      'POST /_api/auth/logout': () => {
        signedIn = false
        return { body: { success: true } }
      },
    })
    const { user } = renderApp('/dashboard')

    expect(await screen.findByText('ada@example.com')).toBeInTheDocument()
    expect(screen.getByText(/manage your email filtering preferences/i)).toBeInTheDocument()
    expect(screen.getByTestId('dashboard-grid')).toBeInTheDocument()

    calls.length = 0
    await user.click(screen.getByRole('button', { name: 'Sign Out' }))

    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument()
    expect(screen.queryByText('ada@example.com')).not.toBeInTheDocument()
    const logout = calls.find((call) => call.path === '/_api/auth/logout')
    expect(logout).toMatchObject({ method: 'POST', body: {} })
    // The session is checked again after logging out.
    await waitFor(() => expect(calls.some((call) => call.path === '/_api/auth/session')).toBe(true))
  })
})

const disconnectedStatuses = {
  'GET /_api/gmail/test': { body: { status: 'disconnected', message: 'No Gmail account connected.', gmailEmail: null, details: null, authorizationUrl: null } },
  'GET /_api/outlook/test': { body: { status: 'disconnected', message: 'No Outlook account connected.', outlookEmail: null, details: null } },
}

describe('/dashboard: Email Provider Integrations', () => {
  it('signed in: shows the card with a Gmail card and an Outlook card', async () => {
    mockApi(disconnectedStatuses, { user: testUser })
    renderApp('/dashboard')
    expect(await screen.findByRole('heading', { name: 'Email Provider Integrations' })).toBeInTheDocument()
    expect(screen.getByRole('article', { name: 'Gmail' })).toBeInTheDocument()
    expect(screen.getByRole('article', { name: 'Outlook' })).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'Connect Gmail' })).toBeEnabled()
    expect(await screen.findByRole('button', { name: 'Connect Outlook' })).toBeEnabled()
  })
})

describe('/dashboard URL errors (SPEC 8)', () => {
  const cases = [
    ['?message=Invalid%20token%20response', 'Connection Failed', 'Failed to save your Gmail connection. Please try connecting again and ensure you grant all requested permissions.'],
    ['?message=Could%20not%20store%20Credentials', 'Connection Failed', 'Failed to save your Gmail connection. Please try connecting again and ensure you grant all requested permissions.'],
    ['?message=The%20mailbox%20is%20busy', 'Connection Failed', 'The mailbox is busy'],
    ['?message=The%20mailbox%20is%20busy&error=access_denied', 'Connection Failed', 'The mailbox is busy'],
    ['?error=access_denied&error_description=denied', 'Permission Denied', 'Inbox Guard needs your Gmail permissions to filter your mail. Please try again and click "Allow" when Google asks.'],
    ['?error=invalid_scope', 'Permission Error', 'The requested permissions could not be granted. Please contact support.'],
    ['?error=server_error', 'Server Error', 'Something went wrong on our side. Please try again in a few minutes.'],
    ['?error=exchange_license_required', 'Exchange Online License Required', 'Your Outlook work account needs an Exchange Online license. Ask your administrator to assign one, or connect a personal Outlook account instead.'],
    ['?error=rate_limited&error_description=Too%20many%20connection%20attempts.', 'Connection Failed', 'Too many connection attempts.'],
    ['?error=invalid_state', 'Connection Failed', 'Authorization failed with error: invalid_state. Please try connecting again.'],
  ] as const

  it.each(cases)('%s shows "%s": %s, and Retry clears the parameters', async (query, title, text) => {
    mockApi(disconnectedStatuses, { user: testUser })
    const { user } = renderApp(`/dashboard${query}&keep=1`)

    const toastTitle = await screen.findByText(title, { selector: '[data-sonner-toast] *' })
    const toastElement = toastTitle.closest('[data-sonner-toast]') as HTMLElement
    expect(within(toastElement).getByText(text)).toBeInTheDocument()
    expect(screen.getByTestId('location-search')).toHaveTextContent(query.slice(1))

    await user.click(within(toastElement).getByRole('button', { name: 'Retry' }))
    await waitFor(() => expect(screen.getByTestId('location-search')).toHaveTextContent(/^\?keep=1$/))
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard')
  })

  it('shows nothing without the parameters', async () => {
    mockApi(disconnectedStatuses, { user: testUser })
    renderApp('/dashboard?keep=1')
    await screen.findByRole('button', { name: 'Connect Gmail' })
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument()
  })

  it('keeps the toast for 8 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    mockApi(disconnectedStatuses, { user: testUser })
    renderApp('/dashboard?error=server_error')
    expect(await screen.findByText('Server Error')).toBeInTheDocument()
    act(() => {
      vi.advanceTimersByTime(7_500)
    })
    expect(screen.getByText('Server Error')).toBeInTheDocument()
    act(() => {
      vi.advanceTimersByTime(1_500)
    })
    await waitFor(() => expect(screen.queryByText('Server Error')).not.toBeInTheDocument())
  })
})
