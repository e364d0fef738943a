import { act, screen, waitFor } from '@testing-library/react'
import { toast } from 'sonner'
import { describe, expect, it, vi } from 'vitest'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { EmailIntegrationsCard } from './email-integrations-card.tsx'

// SPEC 4 "Gmail re-authentication". The latch is per page load, i.e. per module instance: the
// tests in this file share one and run in order.
const AUTHORIZATION_URL = '/_api/gmail/authorize?mode=redirect'

function mockActionRequired() {
  return mockApi({
    'GET /_api/gmail/test': {
      body: {
        status: 'action_required',
        message: 'Inbox Guard needs permission to read and label your mail.',
        gmailEmail: 'ada@gmail.com',
        details: null,
        authorizationUrl: AUTHORIZATION_URL,
      },
    },
    'GET /_api/outlook/test': {
      body: { status: 'disconnected', message: 'Your Gmail mailbox is connected.', outlookEmail: null, details: 'Gmail holds the connection' },
    },
  })
}

function spyOnAssign() {
  const assign = vi.fn()
  vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign })
  return assign
}

describe('Gmail re-authentication', () => {
  it('waits while the dashboard shows an error from the last attempt', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    mockActionRequired()
    const assign = spyOnAssign()
    renderPage(<EmailIntegrationsCard />, { path: '/dashboard?error=access_denied' })

    expect(await screen.findByRole('button', { name: 'Reconnect Gmail' })).toBeInTheDocument()
    act(() => {
      vi.advanceTimersByTime(2_000)
    })
    expect(screen.queryByRole('heading', { name: 'Preparing Gmail Re-authentication' })).not.toBeInTheDocument()
    expect(screen.queryByText('Re-authenticating Gmail')).not.toBeInTheDocument()
    expect(assign).not.toHaveBeenCalled()
  })

  it('toasts, shows the preparing screen and goes to the authorization URL after 1 s, once per page load', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    mockActionRequired()
    const assign = spyOnAssign()
    const first = renderPage(<EmailIntegrationsCard />, { path: '/dashboard' })

    expect(await screen.findByRole('heading', { name: 'Preparing Gmail Re-authentication' })).toBeInTheDocument()
    expect(await screen.findByText('Re-authenticating Gmail')).toBeInTheDocument()
    act(() => {
      vi.advanceTimersByTime(900)
    })
    expect(assign).not.toHaveBeenCalled()
    act(() => {
      vi.advanceTimersByTime(100)
    })
    expect(assign).toHaveBeenCalledTimes(1)
    expect(assign).toHaveBeenCalledWith(AUTHORIZATION_URL)
    expect(screen.getByRole('heading', { name: 'Preparing Gmail Re-authentication' })).toBeInTheDocument()

    // The same page load, the dashboard shown again with the same status: no second round.
    first.unmount()
    toast.dismiss()
    renderPage(<EmailIntegrationsCard />, { path: '/dashboard' })
    expect(await screen.findByRole('button', { name: 'Reconnect Gmail' })).toBeInTheDocument()
    act(() => {
      vi.advanceTimersByTime(2_000)
    })
    await waitFor(() => expect(screen.queryByText('Re-authenticating Gmail')).not.toBeInTheDocument())
    expect(screen.queryByRole('heading', { name: 'Preparing Gmail Re-authentication' })).not.toBeInTheDocument()
    expect(assign).toHaveBeenCalledTimes(1)
  })
})
