import { act, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { HEARTBEAT_STATUSES } from '#shared/api/health.ts'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { SystemStatusCard } from './system-status-card.tsx'

const NOW = Date.parse('2025-09-30T12:00:00.000Z')
const SECOND = 1_000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString()

const heartbeat = (overrides: Record<string, unknown> = {}) => ({
  heartbeatStatus: 'healthy',
  lastEmailProcessedAt: at(-3 * MINUTE),
  message: 'New mail is filtered as it arrives.',
  lastSyncAt: at(-2 * SECOND),
  ...overrides,
})

const activeGmail = { gmail: { healthStatus: 'active', expiration: at(2 * DAY) }, outlook: null }

/** Date.now() at NOW, timers left real so Testing Library's waits work. */
const freezeDate = () => vi.useFakeTimers({ now: NOW, toFake: ['Date'] })

function renderCard(routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ 'GET /_api/heartbeat/status': { body: heartbeat() }, 'GET /_api/webhooks/status': { body: activeGmail }, ...routes })
  return { ...api, ...renderPage(<SystemStatusCard />) }
}

const headline = () => within(screen.getByTestId('heartbeat')).getByRole('status')
const row = (name: 'Gmail' | 'Outlook') => screen.getByRole('listitem', { name })
const toastOf = async (text: string) => (await screen.findByText(text, { selector: '[data-sonner-toast] *' })).closest('[data-sonner-toast]')

describe('System Status card: heartbeat (SPEC 4 "Heartbeat statuses")', () => {
  it('shows the title, and a skeleton for each half while loading', async () => {
    freezeDate()
    renderCard({ 'GET /_api/heartbeat/status': () => new Promise(() => {}), 'GET /_api/webhooks/status': () => new Promise(() => {}) })
    expect(screen.getByRole('heading', { name: 'System Status' })).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading the filtering heartbeat' })).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading the push notification status' })).toBeInTheDocument()
  })

  const families = {
    running: ['healthy', 'ok'],
    delayed: ['stale_detected', 'checking_prerequisites', 'stale_reconnecting', 'polling_fallback_triggered', 'stale'],
    stopped: [
      'token_validation_failed',
      'reconnection_failed_token',
      'reconnection_failed_webhook',
      'reconnection_failed_systemic',
      'reconnection_failed_unknown',
      'circuit_breaker_open',
      'error',
      'subscription_validation_failed',
      'user_action_conflict',
    ],
    noMailbox: ['unknown_provider'],
  } as const
  const headlines = {
    running: 'Filtering is running',
    delayed: 'Filtering is delayed',
    stopped: 'Filtering is not running',
    noMailbox: 'No mailbox connected',
  } as const
  const cases = Object.entries(families).flatMap(([family, statuses]) =>
    statuses.map((status) => [status, headlines[family as keyof typeof headlines], family] as const),
  )

  it('covers every status the contract lists', () => {
    expect(cases.map(([status]) => status).sort()).toEqual([...HEARTBEAT_STATUSES].sort())
  })

  it.each(cases)('%s: "%s" (%s), with the server message under it', async (status, text, family) => {
    renderCard({ 'GET /_api/heartbeat/status': { body: heartbeat({ heartbeatStatus: status, message: `What ${status} means and what to do.` }) } })
    expect(await screen.findByText(text)).toBe(headline())
    expect(screen.getByTestId('heartbeat')).toHaveAttribute('data-family', family)
    expect(within(screen.getByTestId('heartbeat')).getByText(`What ${status} means and what to do.`)).toBeInTheDocument()
  })

  it('a status this client does not know: "Unknown", still with the message', async () => {
    renderCard({ 'GET /_api/heartbeat/status': { body: heartbeat({ heartbeatStatus: 'quantum_flux', message: 'Something new happened.' }) } })
    expect(await screen.findByText('Unknown')).toBe(headline())
    expect(screen.getByTestId('heartbeat')).toHaveAttribute('data-family', 'unknown')
    expect(screen.getByText('Something new happened.')).toBeInTheDocument()
  })

  it('says when the last email was processed and when the mailbox last synced, as relative times', async () => {
    freezeDate()
    renderCard()
    await screen.findByText('Filtering is running')
    expect(screen.getByText('Last email processed:').closest('p')).toHaveTextContent('Last email processed: 3 minutes ago')
    expect(screen.getByText('Last sync:').closest('p')).toHaveTextContent('Last sync: Active now')
    expect(screen.getByText('3 minutes ago')).toHaveAttribute('datetime', at(-3 * MINUTE))
  })

  it("empty times are 'Unknown' and bad ones 'Invalid date'", async () => {
    freezeDate()
    renderCard({ 'GET /_api/heartbeat/status': { body: heartbeat({ lastEmailProcessedAt: null, lastSyncAt: 'yesterday-ish' }) } })
    await screen.findByText('Filtering is running')
    expect(screen.getByText('Last email processed:').closest('p')).toHaveTextContent('Last email processed: Unknown')
    expect(screen.getByText('Last sync:').closest('p')).toHaveTextContent('Last sync: Invalid date')
  })

  it('keeps the relative times true while the card is shown', async () => {
    vi.useFakeTimers({ now: NOW })
    renderCard({ 'GET /_api/heartbeat/status': { body: heartbeat({ lastSyncAt: at(-2 * SECOND) }) } })
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(screen.getByText('Last sync:').closest('p')).toHaveTextContent('Last sync: Active now')
    await act(() => vi.advanceTimersByTimeAsync(5 * SECOND))
    expect(screen.getByText('Last sync:').closest('p')).toHaveTextContent('Last sync: 7 seconds ago')
  })

  it('a failed heartbeat call says so and offers to try again; the webhook half still shows', async () => {
    let fail = true
    renderCard({
      'GET /_api/heartbeat/status': () => (fail ? { status: 401, body: { error: 'Authentication required' } } : { body: heartbeat() }),
    })
    expect(await screen.findByRole('alert')).toHaveTextContent('Unable to load the filtering heartbeat: Authentication required')
    expect(await screen.findByRole('button', { name: 'Repair Gmail' })).toBeInTheDocument()
    fail = false
    await act(async () => screen.getByRole('button', { name: 'Try again' }).click())
    expect(await screen.findByText('Filtering is running')).toBeInTheDocument()
  })
})

describe('System Status card: webhook health (SPEC 4 "Webhook health")', () => {
  it.each([
    ['active', 'Active', 'Repair'],
    ['expiring_soon', 'Expiring soon', 'Repair'],
    ['expired', 'Expired', 'Repair'],
    ['error', 'Error', 'Repair'],
    ['inactive', 'Inactive', 'Setup'],
  ])('%s: the badge "%s" and %s', async (healthStatus, badge, button) => {
    renderCard({
      'GET /_api/webhooks/status': { body: { gmail: { healthStatus, expiration: null }, outlook: { healthStatus, expiration: null } } },
    })
    for (const provider of ['Gmail', 'Outlook'] as const) {
      expect(await within(await screen.findByRole('listitem', { name: provider })).findByText(badge)).toBeInTheDocument()
      expect(within(row(provider)).getByRole('button', { name: `${button} ${provider}` })).toBeEnabled()
      expect(within(row(provider)).getAllByRole('button')).toHaveLength(1)
    }
  })

  it('a provider that is null shows Not Configured, with no button', async () => {
    renderCard()
    expect(await within(await screen.findByRole('listitem', { name: 'Outlook' })).findByText('Not Configured')).toBeInTheDocument()
    expect(within(row('Outlook')).queryByRole('button')).not.toBeInTheDocument()
    expect(within(row('Gmail')).getByText('Active')).toBeInTheDocument()
  })

  it('shows when push expires, or when it expired', async () => {
    freezeDate()
    renderCard({
      'GET /_api/webhooks/status': {
        body: { gmail: { healthStatus: 'active', expiration: at(2 * DAY) }, outlook: { healthStatus: 'expired', expiration: at(-3 * HOUR) } },
      },
    })
    expect(await within(await screen.findByRole('listitem', { name: 'Gmail' })).findByText('Expires in 2 days')).toBeInTheDocument()
    expect(within(row('Outlook')).getByText('Expired 3 hours ago')).toBeInTheDocument()
  })

  it('a failed status call says so and offers to try again', async () => {
    renderCard({ 'GET /_api/webhooks/status': { status: 401, body: { error: 'Authentication required' } } })
    expect(await screen.findByRole('alert')).toHaveTextContent('Unable to load the push notification status: Authentication required')
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
    expect(await screen.findByText('Filtering is running')).toBeInTheDocument()
  })
})

describe('System Status card: Setup and Repair (SPEC 8 "Other loading")', () => {
  const notAttempted = { success: false, message: 'Not attempted.' }

  it('Setup calls POST /_api/webhooks/setup with the provider, shows the success message, and reloads both statuses', async () => {
    let webhooks: unknown = { gmail: { healthStatus: 'inactive', expiration: null }, outlook: null }
    const { calls, user } = renderCard({
      'GET /_api/webhooks/status': () => ({ body: webhooks }),
      'POST /_api/webhooks/setup': () => {
        webhooks = activeGmail
        return { body: { gmail: { success: true, message: 'Gmail push notifications are on.' }, outlook: notAttempted } }
      },
    })
    await user.click(await screen.findByRole('button', { name: 'Setup Gmail' }))

    const toast = await toastOf('Gmail push notifications are on.')
    expect(toast).toHaveAttribute('data-type', 'success')
    const setup = calls.filter((call) => call.path === '/_api/webhooks/setup')
    expect(setup).toHaveLength(1)
    expect(setup[0]).toMatchObject({ method: 'POST', body: { provider: 'gmail' } })
    expect(setup[0]?.headers['X-Requested-With']).toBe('XMLHttpRequest')

    expect(await within(row('Gmail')).findByRole('button', { name: 'Repair Gmail' })).toBeInTheDocument()
    const after = calls.slice(calls.indexOf(setup[0]!))
    expect(after.some((call) => call.path === '/_api/webhooks/status')).toBe(true)
    await waitFor(() => expect(after.some((call) => call.path === '/_api/heartbeat/status')).toBe(true))
    expect(screen.queryByText('Not attempted.')).not.toBeInTheDocument()
    expect(screen.queryByText('Outlook: Not attempted.')).not.toBeInTheDocument()
  })

  it("Repair on Outlook: a failure is the error 'Outlook: {message}'", async () => {
    const { calls, user } = renderCard({
      'GET /_api/webhooks/status': { body: { gmail: null, outlook: { healthStatus: 'expired', expiration: null } } },
      'POST /_api/webhooks/setup': { body: { gmail: notAttempted, outlook: { success: false, message: 'Graph refused the subscription.' } } },
    })
    await user.click(await screen.findByRole('button', { name: 'Repair Outlook' }))
    expect(await toastOf('Outlook: Graph refused the subscription.')).toHaveAttribute('data-type', 'error')
    expect(calls.find((call) => call.path === '/_api/webhooks/setup')).toMatchObject({ body: { provider: 'outlook' } })
    expect(screen.queryByText('Not attempted.')).not.toBeInTheDocument()
  })

  it('Repair on Gmail: a failure is shown as a warning', async () => {
    const { user } = renderCard({
      'GET /_api/webhooks/status': { body: { gmail: { healthStatus: 'error', expiration: null }, outlook: null } },
      'POST /_api/webhooks/setup': { body: { gmail: { success: false, message: 'The Pub/Sub topic is not configured.' }, outlook: notAttempted } },
    })
    await user.click(await screen.findByRole('button', { name: 'Repair Gmail' }))
    expect(await toastOf('The Pub/Sub topic is not configured.')).toHaveAttribute('data-type', 'warning')
  })

  it("'Not attempted.' answers are ignored, whatever their success flag", async () => {
    const { calls, user } = renderCard({
      'POST /_api/webhooks/setup': { body: { gmail: { success: true, message: 'Not attempted.' }, outlook: notAttempted } },
    })
    await user.click(await screen.findByRole('button', { name: 'Repair Gmail' }))
    await waitFor(() => expect(calls.filter((call) => call.path === '/_api/webhooks/status').length).toBeGreaterThan(1))
    // The toast outlet is mounted, and had time to show anything it was given.
    expect(await screen.findByRole('region', { name: /Notifications/ })).toBeInTheDocument()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(document.querySelector('[data-sonner-toast]')).toBeNull()
  })

  it("a call that fails shows 'An unexpected error occurred during webhook setup.' and still reloads the statuses", async () => {
    const { calls, user } = renderCard({ 'POST /_api/webhooks/setup': { status: 429, body: { error: 'Too many requests. Try again in a minute.' } } })
    await user.click(await screen.findByRole('button', { name: 'Repair Gmail' }))
    const toast = await toastOf('An unexpected error occurred during webhook setup.')
    expect(toast).toHaveAttribute('data-type', 'error')
    expect(within(toast as HTMLElement).getByText('Too many requests. Try again in a minute.')).toBeInTheDocument()
    await waitFor(() => expect(calls.filter((call) => call.path === '/_api/heartbeat/status').length).toBeGreaterThan(1))
  })

  it('a network failure shows the same text', async () => {
    const { user } = renderCard({
      'POST /_api/webhooks/setup': () => {
        throw new TypeError('Failed to fetch')
      },
    })
    await user.click(await screen.findByRole('button', { name: 'Repair Gmail' }))
    expect(await toastOf('An unexpected error occurred during webhook setup.')).toHaveAttribute('data-type', 'error')
  })
})
