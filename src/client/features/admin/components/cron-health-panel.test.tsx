import { act, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { CronJob } from '#shared/api/admin.ts'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { CronHealthPanel } from './cron-health-panel.tsx'

const NOW = Date.parse('2025-09-30T12:00:00.000Z')
const MINUTE = 60_000

const job = (jobName: string, over: Partial<CronJob> = {}): CronJob => ({
  jobName,
  lastRunAt: new Date(NOW - 4 * MINUTE).toISOString(),
  status: 'OK',
  schedule: '*/5 * * * *',
  intervalMinutes: 5,
  lastRunSucceeded: true,
  ...over,
})

const cronCalls = (calls: { path: string }[]) => calls.filter((call) => call.path === '/_api/cron/health').length
const jobRow = (name: string) => screen.getByRole('rowheader', { name }).closest('tr') as HTMLElement

describe('Cron Job Health (SPEC 4 "Cron health")', () => {
  it("shows each job's last run and its OK, Stale or Not Run badge; any Stale or Not Run job makes it 'Degraded Performance'", async () => {
    mockApi({
      'GET /_api/cron/health': {
        body: {
          jobs: [
            job('heartbeat-watchdog'),
            job('renew-webhooks', { status: 'Stale', lastRunAt: new Date(NOW - 3 * 60 * MINUTE).toISOString(), lastRunSucceeded: false }),
            job('nightly-cleanup', { status: 'Not Run', lastRunAt: null, lastRunSucceeded: null }),
          ],
          overall: 'degraded',
        },
      },
    })
    renderPage(<CronHealthPanel now={NOW} />)
    expect(screen.getByRole('heading', { level: 3, name: 'Cron Job Health' })).toBeInTheDocument()
    expect(await screen.findByText('Degraded Performance')).toBeInTheDocument()
    expect(screen.queryByText('All Systems Operational')).not.toBeInTheDocument()

    const ok = jobRow('heartbeat-watchdog')
    expect(within(ok).getByText('OK')).toBeInTheDocument()
    expect(ok).toHaveTextContent('4 minutes ago')
    const stale = jobRow('renew-webhooks')
    expect(within(stale).getByText('Stale')).toBeInTheDocument()
    expect(stale).toHaveTextContent('3 hours ago')
    expect(stale).toHaveTextContent('Last run failed')
    const notRun = jobRow('nightly-cleanup')
    expect(within(notRun).getByText('Not Run')).toBeInTheDocument()
    expect(notRun).toHaveTextContent('Unknown')
  })

  it.each(['Stale', 'Not Run'] as const)("one %s job among OK ones is enough for 'Degraded Performance'", async (status) => {
    mockApi({ 'GET /_api/cron/health': { body: { jobs: [job('heartbeat-watchdog'), job('renew-webhooks', { status })], overall: 'degraded' } } })
    renderPage(<CronHealthPanel now={NOW} />)
    expect(await screen.findByText('Degraded Performance')).toBeInTheDocument()
    expect(within(jobRow('renew-webhooks')).getByText(status)).toBeInTheDocument()
  })

  it("says 'All Systems Operational' when every job is OK", async () => {
    mockApi({ 'GET /_api/cron/health': { body: { jobs: [job('heartbeat-watchdog'), job('renew-webhooks')], overall: 'healthy' } } })
    renderPage(<CronHealthPanel now={NOW} />)
    expect(await screen.findByText('All Systems Operational')).toBeInTheDocument()
    expect(screen.queryByText('Degraded Performance')).not.toBeInTheDocument()
    expect(screen.getAllByText('OK')).toHaveLength(2)
  })

  it("says 'No cron jobs are being monitored.' when there are none", async () => {
    mockApi({ 'GET /_api/cron/health': { body: { jobs: [], overall: 'unknown' } } })
    renderPage(<CronHealthPanel now={NOW} />)
    expect(await screen.findByText('No cron jobs are being monitored.')).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
    expect(screen.queryByText('All Systems Operational')).not.toBeInTheDocument()
  })

  it("says 'Error loading cron health: {message}' when the call fails", async () => {
    mockApi({ 'GET /_api/cron/health': { status: 401, body: { error: 'Authentication required' } } })
    renderPage(<CronHealthPanel now={NOW} />)
    expect(await screen.findByRole('alert')).toHaveTextContent('Error loading cron health: Authentication required')
  })

  it('asks again every 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const { calls } = mockApi({ 'GET /_api/cron/health': { body: { jobs: [job('heartbeat-watchdog')], overall: 'healthy' } } })
    renderPage(<CronHealthPanel now={NOW} />)
    await screen.findByText('All Systems Operational')
    expect(cronCalls(calls)).toBe(1)
    act(() => {
      vi.advanceTimersByTime(29_000)
    })
    expect(cronCalls(calls)).toBe(1)
    act(() => {
      vi.advanceTimersByTime(1_000)
    })
    await waitFor(() => expect(cronCalls(calls)).toBe(2))
  })
})
