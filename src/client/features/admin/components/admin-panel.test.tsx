import { screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { AdminPanel } from './admin-panel.tsx'

describe('Admin Panel (SPEC 2 "/dashboard")', () => {
  it('is a region titled Admin Panel (h2) holding every sub-panel under its own h3, each loading on its own', async () => {
    const { calls } = mockApi({
      'GET /_api/health/providers': { body: { providers: [] } },
      'GET /_api/cron/health': { body: { jobs: [], overall: 'unknown' } },
      'GET /_api/admin/mailbox-health': { body: { totalMailboxes: 0, webhooks: {}, heartbeats: {}, needsAttention: [] } },
      'GET /_api/admin/waitlist': { status: 500, body: { error: 'Waitlist table missing' } },
      'GET /_api/audit-logs': { body: { logs: [], pagination: { page: 1, limit: 50, totalPages: 0, totalRecords: 0 } } },
    })
    const onTestOnboarding = vi.fn()
    const onTestBillingPrompt = vi.fn()
    const { user } = renderPage(<AdminPanel onTestOnboarding={onTestOnboarding} onTestBillingPrompt={onTestBillingPrompt} className="md:col-span-2" />)

    const panel = screen.getByRole('region', { name: 'Admin Panel' })
    expect(panel).toHaveClass('md:col-span-2')
    expect(within(panel).getByRole('heading', { level: 2, name: 'Admin Panel' })).toBeInTheDocument()
    expect(await within(panel).findByRole('heading', { level: 3, name: 'Mailboxes Needing Attention' })).toBeInTheDocument()
    expect(
      within(panel)
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual([
      'Provider Health Status',
      'Cron Job Health',
      'Webhook Health',
      'Heartbeat Health',
      'Mailboxes Needing Attention',
      'Admin Controls',
      'Team Waitlist',
      'Security Audit Logs',
    ])
    expect(within(panel).getByText('Audit events are immutable.')).toBeInTheDocument()

    // One failing sub-panel leaves the others working.
    expect(await within(panel).findByText('Error loading the Team waitlist: Waitlist table missing', {}, { timeout: 5_000 })).toBeInTheDocument()
    expect(await within(panel).findByText('No audit logs found')).toBeInTheDocument()
    expect(within(panel).getByText('No cron jobs are being monitored.')).toBeInTheDocument()

    await user.click(within(panel).getByRole('button', { name: 'Test Onboarding Modal' }))
    await user.click(within(panel).getByRole('button', { name: 'Test Billing Prompt' }))
    expect(onTestOnboarding).toHaveBeenCalledTimes(1)
    expect(onTestBillingPrompt).toHaveBeenCalledTimes(1)
    expect(calls.some((call) => call.method === 'POST')).toBe(false)
  })
})
