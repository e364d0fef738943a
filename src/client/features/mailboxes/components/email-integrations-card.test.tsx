import { act, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { GmailStatus, MailboxPopupMessage, OutlookStatus } from '#shared/api/mailboxes.ts'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { EmailIntegrationsCard } from './email-integrations-card.tsx'

const gmailStatus = (overrides: Partial<GmailStatus> | Record<string, unknown> = {}) => ({
  status: 'disconnected',
  message: 'No Gmail account connected.',
  gmailEmail: null,
  details: null,
  authorizationUrl: null,
  ...overrides,
})
const outlookStatus = (overrides: Partial<OutlookStatus> | Record<string, unknown> = {}) => ({
  status: 'disconnected',
  message: 'No Outlook account connected.',
  outlookEmail: null,
  details: null,
  ...overrides,
})

const gmailConnected = gmailStatus({ status: 'connected', message: 'Gmail is connected.', gmailEmail: 'ada@gmail.com' })
const outlookHeldByGmail = outlookStatus({
  message: 'Your Gmail mailbox is connected. Switch Email Address to use Outlook instead.',
  details: 'Gmail holds the connection',
})

const gmailCard = () => screen.getByRole('article', { name: 'Gmail' })
const outlookCard = () => screen.getByRole('article', { name: 'Outlook' })

function renderCard(options: { path?: string; userOptions?: NonNullable<Parameters<typeof renderPage>[1]>['userOptions'] } = {}) {
  return renderPage(<EmailIntegrationsCard />, { path: options.path ?? '/dashboard', userOptions: options.userOptions })
}

function fakePopup() {
  const popup = { closed: false, close: vi.fn(() => void (popup.closed = true)) }
  const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window)
  return { popup, open }
}

function postFromPopup(data: MailboxPopupMessage | Record<string, unknown>, origin = window.location.origin) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin }))
  })
}

const statusCalls = (calls: { path: string }[], provider: 'gmail' | 'outlook') =>
  calls.filter((call) => call.path === `/_api/${provider}/test`).length

describe('Email Provider Integrations card: status values (SPEC 4 "Mailbox connection")', () => {
  it('shows the title, and a skeleton in each card while the checks are pending', () => {
    mockApi({ 'GET /_api/gmail/test': () => new Promise(() => {}), 'GET /_api/outlook/test': () => new Promise(() => {}) })
    renderCard()
    expect(screen.getByRole('heading', { name: 'Email Provider Integrations' })).toBeInTheDocument()
    expect(within(gmailCard()).getByRole('status', { name: 'Checking the Gmail connection' })).toBeInTheDocument()
    expect(within(outlookCard()).getByRole('status', { name: 'Checking the Outlook connection' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /connect/i })).not.toBeInTheDocument()
  })

  it('disconnected: both cards offer Connect', async () => {
    mockApi({ 'GET /_api/gmail/test': { body: gmailStatus() }, 'GET /_api/outlook/test': { body: outlookStatus() } })
    renderCard()
    expect(await within(gmailCard()).findByRole('button', { name: 'Connect Gmail' })).toBeEnabled()
    expect(await within(outlookCard()).findByRole('button', { name: 'Connect Outlook' })).toBeEnabled()
    expect(within(gmailCard()).getByText('No Gmail account connected.')).toBeInTheDocument()
    expect(within(gmailCard()).queryByRole('button', { name: 'Switch Email Address' })).not.toBeInTheDocument()
  })

  it('Gmail connected: shows the address and Switch Email Address', async () => {
    mockApi({ 'GET /_api/gmail/test': { body: gmailConnected }, 'GET /_api/outlook/test': { body: outlookHeldByGmail } })
    renderCard()
    expect(await within(gmailCard()).findByText('ada@gmail.com')).toBeInTheDocument()
    expect(within(gmailCard()).getByText('Connected as')).toBeInTheDocument()
    expect(within(gmailCard()).getByRole('button', { name: 'Switch Email Address' })).toBeEnabled()
    expect(within(gmailCard()).queryByRole('button', { name: 'Connect Gmail' })).not.toBeInTheDocument()
  })

  it('Outlook connected: shows the address, and the Gmail card is the disabled one', async () => {
    mockApi({
      'GET /_api/gmail/test': { body: gmailStatus({ message: 'Your Outlook mailbox is connected. Switch Email Address to use Gmail instead.' }) },
      'GET /_api/outlook/test': { body: outlookStatus({ status: 'connected', message: 'Outlook is connected.', outlookEmail: 'ada@outlook.com' }) },
    })
    renderCard()
    expect(await within(outlookCard()).findByText('ada@outlook.com')).toBeInTheDocument()
    await waitFor(() => expect(gmailCard()).toHaveAttribute('aria-disabled', 'true'))
    expect(within(gmailCard()).getByRole('button', { name: 'Connect Gmail' })).toBeDisabled()
    expect(outlookCard()).not.toHaveAttribute('aria-disabled')
  })

  it.each([
    ['action_required', 'Action required'],
    ['revoked', 'Access revoked'],
  ])('Gmail %s: Reconnect, with the server message and Switch Email Address', async (status, badge) => {
    mockApi({
      'GET /_api/gmail/test': { body: gmailStatus({ status, message: 'Reconnect to resume filtering.', gmailEmail: 'ada@gmail.com' }) },
      'GET /_api/outlook/test': { body: outlookHeldByGmail },
    })
    renderCard()
    expect(await within(gmailCard()).findByRole('button', { name: 'Reconnect Gmail' })).toBeEnabled()
    expect(within(gmailCard()).getByText(badge)).toBeInTheDocument()
    expect(within(gmailCard()).getByText('Reconnect to resume filtering.')).toBeInTheDocument()
    expect(within(gmailCard()).getByRole('button', { name: 'Switch Email Address' })).toBeInTheDocument()
    expect(within(outlookCard()).getByRole('button', { name: 'Connect Outlook' })).toBeDisabled()
  })

  it('Outlook action_required: Reconnect', async () => {
    mockApi({
      'GET /_api/gmail/test': { body: gmailStatus() },
      'GET /_api/outlook/test': { body: outlookStatus({ status: 'action_required', message: 'Connect Outlook again.', outlookEmail: 'ada@outlook.com' }) },
    })
    renderCard()
    expect(await within(outlookCard()).findByRole('button', { name: 'Reconnect Outlook' })).toBeEnabled()
    expect(within(gmailCard()).getByRole('button', { name: 'Connect Gmail' })).toBeDisabled()
  })

  it.each([
    ['gmail', 'error', 'Unable to check Gmail connection status. Please try again later.', 'Unable to reach Gmail right now. (unreachable)'],
    ['gmail', 'paused', 'Unable to check Gmail connection status. Please try again later.', 'Unable to reach Gmail right now. (unreachable)'],
    // Outlook does not understand revoked (SPEC 4): anything else is an error.
    ['outlook', 'revoked', 'Unable to check Outlook connection status. Please try again later.', 'Unable to reach Gmail right now. (unreachable)'],
    ['outlook', 'error', 'Unable to check Outlook connection status. Please try again later.', 'Unable to reach Gmail right now. (unreachable)'],
  ] as const)('%s status %s is an error with its detail, and the tokens can still be cleared', async (provider, status, title, detail) => {
    const broken = { status, message: 'Unable to reach Gmail right now.', details: 'unreachable' }
    mockApi({
      'GET /_api/gmail/test': { body: provider === 'gmail' ? gmailStatus({ ...broken, gmailEmail: 'ada@gmail.com' }) : gmailStatus() },
      'GET /_api/outlook/test': { body: provider === 'outlook' ? outlookStatus({ ...broken, outlookEmail: 'ada@outlook.com' }) : outlookStatus() },
    })
    renderCard()
    const card = provider === 'gmail' ? gmailCard : outlookCard
    const alert = await within(card()).findByRole('alert')
    expect(alert).toHaveTextContent(title)
    expect(alert).toHaveTextContent(detail)
    expect(within(card()).getByRole('button', { name: 'Switch Email Address' })).toBeInTheDocument()
    expect(within(card()).getByRole('button', { name: 'Check again' })).toBeInTheDocument()
  })

  it('a failed check is an error with the failure as detail; Check again asks once more', async () => {
    let fail = true
    const { calls } = mockApi({
      'GET /_api/gmail/test': () => (fail ? { status: 503, body: { error: 'Service temporarily unavailable' } } : { body: gmailConnected }),
      'GET /_api/outlook/test': { body: outlookStatus() },
    })
    const { user } = renderCard()
    const alert = await within(gmailCard()).findByRole('alert')
    expect(alert).toHaveTextContent('Unable to check Gmail connection status. Please try again later.')
    expect(alert).toHaveTextContent('Service temporarily unavailable')
    // Not holding tokens as far as anyone knows: nothing to clear, and Outlook stays enabled.
    expect(within(gmailCard()).queryByRole('button', { name: 'Switch Email Address' })).not.toBeInTheDocument()
    expect(within(outlookCard()).getByRole('button', { name: 'Connect Outlook' })).toBeEnabled()
    // Retried like other queries: 1 + 3.
    expect(statusCalls(calls, 'gmail')).toBe(4)

    fail = false
    await user.click(within(gmailCard()).getByRole('button', { name: 'Check again' }))
    expect(await within(gmailCard()).findByText('ada@gmail.com')).toBeInTheDocument()
  })

  it.each([
    ['401', { status: 401, body: { error: 'Authentication required' } }],
    ['an Unauthenticated message', { status: 500, body: { error: 'Unauthenticated' } }],
  ])('is not retried on %s (SPEC 7)', async (_name, reply) => {
    const { calls } = mockApi({ 'GET /_api/gmail/test': reply, 'GET /_api/outlook/test': reply })
    renderCard()
    await within(gmailCard()).findByRole('alert')
    await within(outlookCard()).findByRole('alert')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(statusCalls(calls, 'gmail')).toBe(1)
    expect(statusCalls(calls, 'outlook')).toBe(1)
  })

  it('Gmail holding the tokens disables the Outlook card with a note', async () => {
    mockApi({ 'GET /_api/gmail/test': { body: gmailConnected }, 'GET /_api/outlook/test': { body: outlookHeldByGmail } })
    renderCard()
    await within(gmailCard()).findByText('ada@gmail.com')
    await waitFor(() => expect(outlookCard()).toHaveAttribute('aria-disabled', 'true'))
    expect(within(outlookCard()).getByRole('button', { name: 'Connect Outlook' })).toBeDisabled()
    expect(within(outlookCard()).getByText(/Only one mailbox can be connected: use Switch Email Address on the Gmail card/)).toBeInTheDocument()
  })
})

describe('Switch Email Address', () => {
  it('confirms, disconnects Gmail, says so with the backup ID and the warning, and frees Outlook', async () => {
    let connected = true
    const { calls } = mockApi({
      'GET /_api/gmail/test': () => ({ body: connected ? gmailConnected : gmailStatus() }),
      'GET /_api/outlook/test': () => ({ body: connected ? outlookHeldByGmail : outlookStatus() }),
      'POST /_api/gmail/disconnect': () => {
        connected = false
        return { body: { success: true, backupId: 'bk_42', warning: 'Google could not be reached to revoke access.' } }
      },
    })
    const { user } = renderCard()

    await user.click(await within(gmailCard()).findByRole('button', { name: 'Switch Email Address' }))
    const dialog = await screen.findByRole('dialog', { name: 'Switch Email Address' })
    expect(dialog).toHaveTextContent('ada@gmail.com')
    await user.click(within(dialog).getByRole('button', { name: 'Clear Tokens & Switch Provider' }))

    expect(await screen.findByText('Gmail account disconnected successfully. Backup ID: bk_42')).toBeInTheDocument()
    expect(await screen.findByText('Google could not be reached to revoke access.')).toBeInTheDocument()
    const disconnect = calls.find((call) => call.path === '/_api/gmail/disconnect')
    expect(disconnect).toMatchObject({ method: 'POST', body: { confirmDisconnection: true } })
    expect(disconnect?.headers['X-Requested-With']).toBe('XMLHttpRequest')

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(await within(gmailCard()).findByRole('button', { name: 'Connect Gmail' })).toBeEnabled()
    await waitFor(() => expect(within(outlookCard()).getByRole('button', { name: 'Connect Outlook' })).toBeEnabled())
    expect(outlookCard()).not.toHaveAttribute('aria-disabled')
  })

  it('Cancel closes the dialog without disconnecting', async () => {
    const { calls } = mockApi({ 'GET /_api/gmail/test': { body: gmailConnected }, 'GET /_api/outlook/test': { body: outlookHeldByGmail } })
    const { user } = renderCard()
    await user.click(await within(gmailCard()).findByRole('button', { name: 'Switch Email Address' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(calls.some((call) => call.path === '/_api/gmail/disconnect')).toBe(false)
  })

  it("shows the server's error when disconnecting fails, after one retry", async () => {
    const { calls } = mockApi({
      'GET /_api/gmail/test': { body: gmailStatus() },
      'GET /_api/outlook/test': { body: outlookStatus({ status: 'connected', outlookEmail: 'ada@outlook.com', message: 'Outlook is connected.' }) },
      'POST /_api/outlook/disconnect': { status: 404, body: { error: 'No Outlook account is connected.' } },
    })
    const { user } = renderCard()
    await user.click(await within(outlookCard()).findByRole('button', { name: 'Switch Email Address' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clear Tokens & Switch Provider' }))

    expect(await screen.findByText('No Outlook account is connected.')).toBeInTheDocument()
    expect(calls.filter((call) => call.path === '/_api/outlook/disconnect')).toHaveLength(2)
  })

  it("falls back to 'Failed to disconnect Gmail account.' when the server gives no reason", async () => {
    mockApi({
      'GET /_api/gmail/test': { body: gmailConnected },
      'GET /_api/outlook/test': { body: outlookHeldByGmail },
      'POST /_api/gmail/disconnect': { status: 500 },
    })
    const { user } = renderCard()
    await user.click(await within(gmailCard()).findByRole('button', { name: 'Switch Email Address' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clear Tokens & Switch Provider' }))
    expect(await screen.findByText('Failed to disconnect Gmail account.')).toBeInTheDocument()
  })

  it('a check pending over 30 s shows a timeout notice that still allows clearing', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const { calls } = mockApi({
      'GET /_api/gmail/test': () => new Promise(() => {}),
      'GET /_api/outlook/test': { body: outlookStatus() },
      'POST /_api/gmail/disconnect': { body: { success: true } },
    })
    const { user } = renderCard({ userOptions: { advanceTimers: vi.advanceTimersByTime } })
    await within(outlookCard()).findByRole('button', { name: 'Connect Outlook' })

    act(() => {
      vi.advanceTimersByTime(29_000)
    })
    expect(within(gmailCard()).queryByText(/taking longer than 30 seconds/)).not.toBeInTheDocument()
    act(() => {
      vi.advanceTimersByTime(1_000)
    })
    expect(within(gmailCard()).getByText(/Checking the Gmail connection is taking longer than 30 seconds/)).toBeInTheDocument()

    await user.click(within(gmailCard()).getByRole('button', { name: 'Switch Email Address' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clear Tokens & Switch Provider' }))
    expect(await screen.findByText('Gmail account disconnected successfully.')).toBeInTheDocument()
    expect(calls.some((call) => call.path === '/_api/gmail/disconnect')).toBe(true)
  })
})

describe('Connect in the popup', () => {
  it('opens the 500x600 authorize popup, then shows the address once the popup reports success', async () => {
    let connected = false
    mockApi({
      'GET /_api/gmail/test': () => ({ body: connected ? gmailConnected : gmailStatus() }),
      'GET /_api/outlook/test': () => ({ body: connected ? outlookHeldByGmail : outlookStatus() }),
    })
    const { popup, open } = fakePopup()
    const { user } = renderCard()

    await user.click(await within(gmailCard()).findByRole('button', { name: 'Connect Gmail' }))
    const [url, , features] = open.mock.calls[0]!
    expect(url).toBe('/_api/gmail/authorize?mode=popup')
    expect(features).toMatch(/width=500,height=600,left=\d+,top=\d+/)
    expect(within(gmailCard()).getByRole('button', { name: 'Connect Gmail' })).toBeDisabled()
    expect(within(outlookCard()).getByRole('button', { name: 'Connect Outlook' })).toBeDisabled()

    connected = true
    postFromPopup({ type: 'OAUTH_TOKEN_SUCCESS', provider: 'gmail', email: 'ada@gmail.com' })

    expect(await within(gmailCard()).findByText('ada@gmail.com')).toBeInTheDocument()
    await waitFor(() => expect(popup.close).toHaveBeenCalled())
    await waitFor(() => expect(outlookCard()).toHaveAttribute('aria-disabled', 'true'))
  })

  it("shows the popup's error message, or the fallback when it has none", async () => {
    mockApi({ 'GET /_api/gmail/test': { body: gmailStatus() }, 'GET /_api/outlook/test': { body: outlookStatus() } })
    const { popup } = fakePopup()
    const { user } = renderCard()

    await user.click(await within(outlookCard()).findByRole('button', { name: 'Connect Outlook' }))
    postFromPopup({
      type: 'OAUTH_ERROR',
      provider: 'outlook',
      error: { code: 'provider_conflict', message: 'Your Gmail mailbox is connected. Use "Switch Email Address" to disconnect it before connecting Outlook.' },
    })
    expect(await within(outlookCard()).findByRole('alert')).toHaveTextContent('Your Gmail mailbox is connected.')
    expect(popup.close).toHaveBeenCalled()
    expect(within(outlookCard()).getByRole('button', { name: 'Connect Outlook' })).toBeEnabled()

    popup.closed = false
    await user.click(within(outlookCard()).getByRole('button', { name: 'Connect Outlook' }))
    postFromPopup({ type: 'OAUTH_ERROR', provider: 'outlook', error: { code: 'server_error', message: '' } })
    expect(await within(outlookCard()).findByRole('alert')).toHaveTextContent('Failed to connect to Outlook. Please try again.')
  })

  it('says so when a popup blocker stops the window from opening', async () => {
    mockApi({ 'GET /_api/gmail/test': { body: gmailStatus() }, 'GET /_api/outlook/test': { body: outlookStatus() } })
    vi.spyOn(window, 'open').mockReturnValue(null)
    const { user } = renderCard()
    await user.click(await within(gmailCard()).findByRole('button', { name: 'Connect Gmail' }))
    expect(await within(gmailCard()).findByRole('alert')).toHaveTextContent(
      'Failed to open authentication window. Please check if popup blockers are disabled and try again.',
    )
    expect(within(gmailCard()).getByRole('button', { name: 'Connect Gmail' })).toBeEnabled()
  })

  it('ignores messages from another origin and ends busy when the popup is closed', async () => {
    const { calls } = mockApi({ 'GET /_api/gmail/test': { body: gmailStatus() }, 'GET /_api/outlook/test': { body: outlookStatus() } })
    const { popup } = fakePopup()
    const { user } = renderCard()
    await user.click(await within(gmailCard()).findByRole('button', { name: 'Connect Gmail' }))
    const before = statusCalls(calls, 'gmail')

    postFromPopup({ type: 'OAUTH_TOKEN_SUCCESS', provider: 'gmail', email: 'forged@evil.example' }, 'https://evil.example')
    expect(within(gmailCard()).getByRole('button', { name: 'Connect Gmail' })).toBeDisabled()
    expect(statusCalls(calls, 'gmail')).toBe(before)

    popup.closed = true
    await waitFor(() => expect(within(gmailCard()).getByRole('button', { name: 'Connect Gmail' })).toBeEnabled(), { timeout: 2500 })
    expect(within(gmailCard()).queryByRole('alert')).not.toBeInTheDocument()
  })
})
