import { act, screen, waitFor, within } from '@testing-library/react'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { mockApi, testUser } from '#client/test/fetch-mock.ts'
import { renderApp } from '#client/test/render.tsx'

// The page is a lazy chunk; compiling it and its cards on first use can take longer than a findBy
// waits, so load it once before the tests.
beforeAll(async () => {
  await import('./dashboard.tsx')
})

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

const gmailConnected = {
  'GET /_api/gmail/test': { body: { status: 'connected', message: 'Gmail is connected.', gmailEmail: 'ada@gmail.com', details: null, authorizationUrl: null } },
  'GET /_api/outlook/test': { body: { status: 'disconnected', message: 'Your Gmail mailbox is connected.', outlookEmail: null, details: 'Gmail holds the connection' } },
}

const filteringEndpoints = {
  'GET /_api/settings': {
    body: {
      filteringEnabled: true,
      confidenceThreshold: 0.7,
      strictnessLevel: 'balanced',
      allowGenuine: true,
      allowInformational: true,
      allowPromotional: true,
      allowTransactional: true,
      allowUnwanted: false,
      performanceMetrics: { webhookEventsToday: 4, pollingEventsToday: 2 },
    },
  },
  'GET /_api/whitelist': { body: [{ id: 1, domain: 'fernhill.example' }] },
  'GET /_api/blacklist': { body: [] },
  'GET /_api/activity': { body: { items: [], pagination: { page: 1, limit: 25, totalPages: 0, totalRecords: 0 } } },
  'GET /_api/activity/stats': { body: { days: [] } },
}

describe('/dashboard: filtering cards and polling (issue 13)', () => {
  it('signed in: shows the filtering, list, Filtered Mail and chart cards', async () => {
    mockApi({ ...disconnectedStatuses, ...filteringEndpoints }, { user: testUser })
    renderApp('/dashboard')
    for (const name of ['Filtering', 'Filter Settings', 'Whitelisted Domains', 'Blacklisted Domains', 'Filtered Mail', 'Mail per day']) {
      expect(await screen.findByRole('heading', { name })).toBeInTheDocument()
    }
    expect(await screen.findByText('Filtering is on')).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'Remove fernhill.example' })).toBeInTheDocument()
    expect(await screen.findByText('No mail decided yet. New mail is checked as it arrives.')).toBeInTheDocument()
  })

  it('one card failing to load does not take the others down', async () => {
    mockApi({ ...disconnectedStatuses, ...filteringEndpoints, 'GET /_api/settings': { status: 401, body: { error: 'Authentication required' } } }, { user: testUser })
    renderApp('/dashboard')
    expect(await screen.findByText('Error loading category settings: Authentication required')).toBeInTheDocument()
    expect(await screen.findByText('Unable to load performance data')).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'Remove fernhill.example' })).toBeInTheDocument()
  })

  it('does not poll without a connected mailbox', async () => {
    const { calls } = mockApi({ ...disconnectedStatuses, ...filteringEndpoints }, { user: testUser })
    renderApp('/dashboard')
    await screen.findByRole('button', { name: 'Connect Gmail' })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(calls.some((call) => call.path === '/_api/gmail/poll')).toBe(false)
  })

  it('with Gmail connected, polls for mail, and refreshes Filtered Mail 5 s after a poll that queued mail', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const { calls } = mockApi(
      { ...gmailConnected, ...filteringEndpoints, 'POST /_api/gmail/poll': { body: { message: 'Queued 2 new messages', emailsQueued: 2 } } },
      { user: testUser },
    )
    renderApp('/dashboard')
    await waitFor(() => expect(calls.filter((call) => call.path === '/_api/gmail/poll')).toHaveLength(1))
    await screen.findByText('No mail decided yet. New mail is checked as it arrives.')
    const before = calls.filter((call) => call.path === '/_api/activity').length

    act(() => {
      vi.advanceTimersByTime(5_000)
    })
    await waitFor(() => expect(calls.filter((call) => call.path === '/_api/activity').length).toBeGreaterThan(before))
    expect(calls.filter((call) => call.path === '/_api/gmail/poll')).toHaveLength(1)
  })
})

describe('/dashboard: System Status (issue 14)', () => {
  const healthEndpoints = {
    'GET /_api/heartbeat/status': {
      body: { heartbeatStatus: 'healthy', lastEmailProcessedAt: null, message: 'New mail is filtered as it arrives.', lastSyncAt: null },
    },
    'GET /_api/webhooks/status': { body: { gmail: { healthStatus: 'active', expiration: null }, outlook: null } },
  }

  it('signed in: shows the System Status card right after the Filtering card', async () => {
    mockApi({ ...gmailConnected, ...filteringEndpoints, 'POST /_api/gmail/poll': { body: { message: 'Checked', emailsQueued: 0 } }, ...healthEndpoints }, { user: testUser })
    renderApp('/dashboard')
    const card = await screen.findByRole('region', { name: 'System Status' })
    expect(await within(card).findByText('Filtering is running')).toBeInTheDocument()
    expect(within(card).getByText('New mail is filtered as it arrives.')).toBeInTheDocument()
    expect(await within(card).findByRole('button', { name: 'Repair Gmail' })).toBeInTheDocument()
    expect(within(card).getByText('Not Configured')).toBeInTheDocument()

    const filtering = screen.getByRole('region', { name: 'Filtering' })
    const regions = screen.getAllByRole('region').filter((region) => region === filtering || region === card)
    expect(regions).toEqual([filtering, card])
  })

  it('a System Status answer it cannot show takes down that card alone', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    mockApi(
      { ...disconnectedStatuses, ...filteringEndpoints, 'GET /_api/heartbeat/status': { body: { ...healthEndpoints['GET /_api/heartbeat/status'].body, lastSyncAt: 42 } } },
      { user: testUser },
    )
    renderApp('/dashboard')
    const fallback = (await screen.findByText('This card could not be shown. The rest of the dashboard still works.')).closest('[role="alert"]') as HTMLElement
    expect(within(fallback).getByRole('heading', { name: 'System Status' })).toBeInTheDocument()
    expect(within(fallback).getByRole('button', { name: 'Try again' })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'System Status' })).not.toBeInTheDocument()
    expect(await screen.findByText('Filtering is on')).toBeInTheDocument()
  })
})
