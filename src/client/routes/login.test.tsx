import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { OAuthPopupMessage } from '#shared/api/auth.ts'
import { sessionQueryOptions } from '#client/features/auth/api/get-session.ts'
import { mockApi, testUser } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import LoginPage from './login.tsx'

function fakePopup() {
  const popup = { closed: false, close: vi.fn(() => void (popup.closed = true)) }
  const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window)
  return { popup, open }
}

function postFromPopup(data: OAuthPopupMessage | Record<string, unknown>, origin = window.location.origin) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin }))
  })
}

const googleButton = () => screen.getByRole('button', { name: 'Continue with Google' })
const microsoftButton = () => screen.getByRole('button', { name: 'Continue with Microsoft' })

describe('/login', () => {
  it('shows the title and both provider buttons', () => {
    mockApi()
    renderPage(<LoginPage />, { path: '/login' })
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in to your account' })).toBeInTheDocument()
    expect(screen.getByText(/connect your gmail account/i)).toBeInTheDocument()
    expect(googleButton()).toBeEnabled()
    expect(microsoftButton()).toBeEnabled()
  })

  it('opens a centred 500x600 popup on the authorize endpoint for the chosen provider and stays busy', async () => {
    mockApi()
    const { open } = fakePopup()
    const { user } = renderPage(<LoginPage />, { path: '/login' })

    await user.click(microsoftButton())

    expect(open).toHaveBeenCalledTimes(1)
    const [url, name, features] = open.mock.calls[0]!
    expect(url).toBe('/_api/auth/oauth_authorize?provider=microsoft')
    expect(name).toBeTruthy()
    expect(features).toMatch(/width=500,height=600,left=\d+,top=\d+/)
    expect(googleButton()).toBeDisabled()
    expect(microsoftButton()).toBeDisabled()
  })

  it('says so when a popup blocker stops the window from opening', async () => {
    mockApi()
    vi.spyOn(window, 'open').mockReturnValue(null)
    const { user } = renderPage(<LoginPage />, { path: '/login' })

    await user.click(googleButton())

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to open authentication window. Please check if popup blockers are disabled and try again.',
    )
    expect(googleButton()).toBeEnabled()
  })

  it('exchanges the token for a session, stores the user and goes to /dashboard 200 ms later', async () => {
    const { calls } = mockApi({ 'POST /_api/auth/establish_session': { body: { user: testUser } } })
    const { popup } = fakePopup()
    const { user, queryClient } = renderPage(<LoginPage />, { path: '/login' })

    await user.click(googleButton())
    postFromPopup({ type: 'OAUTH_TOKEN_SUCCESS', provider: 'google', token: 'one-time-token' })

    await waitFor(() => expect(queryClient.getQueryData(sessionQueryOptions().queryKey)).toEqual(testUser))
    const establish = calls.find((call) => call.path === '/_api/auth/establish_session')
    expect(establish).toMatchObject({ method: 'POST', body: { tempToken: 'one-time-token' } })
    expect(establish?.headers['Content-Type']).toBe('application/json')
    expect(popup.close).toHaveBeenCalled()
    // Not yet: the redirect waits 200 ms after the session is set.
    expect(screen.getByTestId('location')).toHaveTextContent('/login')
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'))
  })

  it('ignores messages from another origin', async () => {
    const { calls } = mockApi({ 'POST /_api/auth/establish_session': { body: { user: testUser } } })
    fakePopup()
    const { user } = renderPage(<LoginPage />, { path: '/login' })

    await user.click(googleButton())
    postFromPopup({ type: 'OAUTH_TOKEN_SUCCESS', provider: 'google', token: 'forged' }, 'https://evil.example')
    postFromPopup({ type: 'OAUTH_ERROR', provider: 'google', error: { code: 'x', message: 'forged' } }, 'https://evil.example')

    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(calls.some((call) => call.path === '/_api/auth/establish_session')).toBe(false)
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(screen.getByTestId('location')).toHaveTextContent('/login')
    expect(googleButton()).toBeDisabled()
  })

  it('ignores same-origin messages that are not sign-in messages', async () => {
    mockApi()
    fakePopup()
    const { user } = renderPage(<LoginPage />, { path: '/login' })
    await user.click(googleButton())
    postFromPopup({ source: 'react-devtools', payload: 'hello' })
    expect(googleButton()).toBeDisabled()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('shows the server-side failure text when the session cannot be established', async () => {
    mockApi({ 'POST /_api/auth/establish_session': { status: 401, body: { error: 'Invalid or expired token' } } })
    fakePopup()
    const { user } = renderPage(<LoginPage />, { path: '/login' })

    await user.click(googleButton())
    postFromPopup({ type: 'OAUTH_TOKEN_SUCCESS', provider: 'google', token: 'stale' })

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to complete authentication. Please try again.')
    expect(googleButton()).toBeEnabled()
    expect(screen.getByTestId('location')).toHaveTextContent('/login')
  })

  it('shows the unexpected-error text when the exchange throws', async () => {
    mockApi({
      'POST /_api/auth/establish_session': () => {
        throw new TypeError('Failed to fetch')
      },
    })
    fakePopup()
    const { user } = renderPage(<LoginPage />, { path: '/login' })

    await user.click(googleButton())
    postFromPopup({ type: 'OAUTH_TOKEN_SUCCESS', provider: 'google', token: 't' })

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'An unexpected error occurred during authentication. Please try again.',
    )
  })

  it('shows the OAuth error message from the popup, closes it and ends busy', async () => {
    mockApi()
    const { popup } = fakePopup()
    const { user } = renderPage(<LoginPage />, { path: '/login' })

    await user.click(googleButton())
    postFromPopup({ type: 'OAUTH_ERROR', provider: 'google', error: { code: 'access_denied', message: 'You declined access.' } })

    expect(await screen.findByRole('alert')).toHaveTextContent('You declined access.')
    expect(popup.close).toHaveBeenCalled()
    expect(googleButton()).toBeEnabled()
  })

  it('falls back to a generic text when the OAuth error has no message', async () => {
    mockApi()
    fakePopup()
    const { user } = renderPage(<LoginPage />, { path: '/login' })

    await user.click(googleButton())
    postFromPopup({ type: 'OAUTH_ERROR', provider: 'google', error: { code: 'server_error', message: '' } })

    expect(await screen.findByRole('alert')).toHaveTextContent('Authentication failed. Please try again.')
  })

  it('replaces the buttons with an Account Already Exists card, and Got it brings them back', async () => {
    mockApi()
    vi.spyOn(window, 'open').mockReturnValue(null)
    const { user } = renderPage(<LoginPage />, { path: '/login' })
    // An earlier ordinary error is cleared when the card appears.
    await user.click(googleButton())
    expect(await screen.findByRole('alert')).toBeInTheDocument()

    fakePopup()
    await user.click(googleButton())
    postFromPopup({
      type: 'OAUTH_ERROR',
      provider: 'microsoft',
      error: {
        code: 'account_linking_required',
        message: 'An account with ada@example.com already exists. Sign in with Google to continue; one account per email address.',
        details: { email: 'ada@example.com' },
      },
    })

    const card = await screen.findByRole('alertdialog', { name: 'Account Already Exists' })
    expect(card).toHaveTextContent('An account with ada@example.com already exists.')
    expect(screen.queryByRole('button', { name: 'Continue with Google' })).not.toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Got it' }))
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    expect(googleButton()).toBeEnabled()
  })

  it('ends busy when the user closes the popup (checked every second)', async () => {
    mockApi()
    const { popup } = fakePopup()
    const { user } = renderPage(<LoginPage />, { path: '/login' })

    await user.click(googleButton())
    expect(googleButton()).toBeDisabled()
    popup.closed = true

    await waitFor(() => expect(googleButton()).toBeEnabled(), { timeout: 2500 })
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('force-closes a popup still open after 5 minutes and logs the timeout', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    mockApi()
    const { popup } = fakePopup()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { user } = renderPage(<LoginPage />, { path: '/login' }, )

    await user.click(googleButton())
    expect(googleButton()).toBeDisabled()

    act(() => {
      vi.advanceTimersByTime(299_000)
    })
    expect(popup.close).not.toHaveBeenCalled()
    act(() => {
      vi.advanceTimersByTime(1_000)
    })
    expect(popup.close).toHaveBeenCalled()
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/timed out/))
    expect(googleButton()).toBeEnabled()
  })
})
