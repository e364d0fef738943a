import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { MailboxHealthPanels } from './mailbox-health-panels.tsx'

const NOW = Date.parse('2025-09-30T12:00:00.000Z')
const HOUR = 3_600_000

const health = {
  totalMailboxes: 14,
  webhooks: { active: 9, expiring_soon: 2, expired: 1, not_configured: 2 },
  heartbeats: { healthy: 10, stale_detected: 3, reconnection_failed_token: 1 },
  needsAttention: [
    { userId: 31, mailboxId: 5, provider: 'gmail', status: 'expired', since: new Date(NOW - 2 * HOUR).toISOString() },
    { userId: 44, mailboxId: 9, provider: 'outlook', status: 'reconnection_failed_token', since: null },
  ],
}

/** The number under `label` in the counts named `grid`. */
const count = (grid: string, label: string) => within(document.querySelector(`dl[aria-label="${grid}"]`) as HTMLElement).getByText(label, { selector: 'dt' }).nextElementSibling

describe('Webhook and heartbeat sub-panels (GET /_api/admin/mailbox-health)', () => {
  it('counts mailboxes by webhook health (zero included) and heartbeat status, and lists those needing attention', async () => {
    mockApi({ 'GET /_api/admin/mailbox-health': { body: health } })
    renderPage(<MailboxHealthPanels now={NOW} />)
    expect(screen.getByRole('heading', { level: 3, name: 'Webhook and Heartbeat Health' })).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading mailbox health' })).toBeInTheDocument()
    expect(await screen.findByRole('heading', { level: 3, name: 'Webhook Health' })).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Webhook and Heartbeat Health' })).not.toBeInTheDocument()
    expect(screen.getByText('Push notification health across all 14 connected mailboxes.')).toBeInTheDocument()
    expect(count('Webhook Health', 'Active')).toHaveTextContent('9')
    expect(count('Webhook Health', 'Expiring soon')).toHaveTextContent('2')
    expect(count('Webhook Health', 'Expired')).toHaveTextContent('1')
    expect(count('Webhook Health', 'Error')).toHaveTextContent('0')
    expect(count('Webhook Health', 'Inactive')).toHaveTextContent('0')
    expect(count('Webhook Health', 'Not Configured')).toHaveTextContent('2')

    expect(screen.getByRole('heading', { level: 3, name: 'Heartbeat Health' })).toBeInTheDocument()
    expect(count('Heartbeat Health', 'Healthy')).toHaveTextContent('10')
    expect(count('Heartbeat Health', 'Stale detected')).toHaveTextContent('3')
    expect(count('Heartbeat Health', 'Reconnection failed token')).toHaveTextContent('1')

    const table = screen.getByRole('table', { name: 'Mailboxes needing attention' })
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['User ID', 'Provider', 'Status', 'Since'])
    const [, first, second] = within(table).getAllByRole('row')
    expect(within(first!).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['31', 'Gmail', 'expired', '2 hours ago'])
    expect(within(second!).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['44', 'Outlook', 'reconnection_failed_token', 'Unknown'])
  })

  it('says when no mailbox needs attention', async () => {
    mockApi({ 'GET /_api/admin/mailbox-health': { body: { totalMailboxes: 0, webhooks: {}, heartbeats: {}, needsAttention: [] } } })
    renderPage(<MailboxHealthPanels now={NOW} />)
    expect(await screen.findByText('No mailbox needs attention.')).toBeInTheDocument()
    expect(screen.getByText('No heartbeat has been recorded yet.')).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })

  it('says why when the call fails', async () => {
    mockApi({ 'GET /_api/admin/mailbox-health': { status: 403, body: { error: 'Admin access required' } } })
    renderPage(<MailboxHealthPanels now={NOW} />)
    expect(await screen.findByRole('alert')).toHaveTextContent('Error loading mailbox health: Admin access required')
  })
})
