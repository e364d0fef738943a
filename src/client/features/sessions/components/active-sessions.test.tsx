import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ActiveSessionWire } from '#shared/api/sessions.ts'
import { mockApi, type RecordedCall } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { ActiveSessions } from './active-sessions.tsx'

const MINUTE = 60_000
const ago = (ms: number) => new Date(Date.now() - ms).toISOString()

const current = (): ActiveSessionWire => ({
  id: 's-current',
  isCurrent: true,
  deviceType: 'desktop',
  browser: 'Chrome 120',
  os: 'Windows 10',
  location: 'Local network',
  ipAddress: '127.0.0.1',
  createdAt: ago(3 * 24 * 60 * MINUTE),
  lastAccessed: ago(0),
})
const phone = (): ActiveSessionWire => ({
  id: 's-phone',
  isCurrent: false,
  deviceType: 'mobile',
  browser: 'Mobile Safari 17',
  os: 'iOS 17.0',
  location: 'São Paulo, BR',
  ipAddress: '200.160.2.3',
  createdAt: ago(2 * 60 * MINUTE),
  lastAccessed: ago(3 * MINUTE),
})
const television = (): ActiveSessionWire => ({
  id: 's-tv',
  isCurrent: false,
  deviceType: 'smarttv',
  browser: 'Firefox 128',
  os: 'Linux',
  location: 'Unknown',
  ipAddress: null,
  createdAt: ago(10 * 24 * 60 * MINUTE),
  lastAccessed: ago(8 * 24 * 60 * MINUTE),
})

const PHONE_REVOKE = 'Revoke Mobile Safari 17 on iOS 17.0, São Paulo, BR'

/** A server holding these sessions: revoking removes them from what the next list call answers. */
function serveSessions(initial: ActiveSessionWire[], replies: { revoke?: { status: number; body?: unknown }; revokeAll?: { status: number; body?: unknown } } = {}) {
  let held = initial
  return mockApi({
    'GET /_api/sessions': () => ({ body: { sessions: held } }),
    'POST /_api/sessions/revoke': (body) => {
      if (replies.revoke) return replies.revoke
      held = held.filter((s) => s.id !== (body as { sessionId: string }).sessionId)
      return { body: { success: true } }
    },
    'POST /_api/sessions/revoke-all': () => {
      if (replies.revokeAll) return replies.revokeAll
      const count = held.filter((s) => !s.isCurrent).length
      held = held.filter((s) => s.isCurrent)
      return { body: { revokedCount: count } }
    },
  })
}

const listCalls = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'GET' && c.path === '/_api/sessions').length

describe('Active Sessions (SPEC 3 "Active session", SPEC 4 "Session revocation", SPEC 8)', () => {
  it('shows three placeholder rows while loading, then every session with its device, place, address and times', async () => {
    // Made before the page reads the clock, so "3 days ago" is not a few milliseconds short of it.
    const sessions = [current(), phone(), television()]
    let answer: (value: { body: unknown }) => void = () => {}
    mockApi({ 'GET /_api/sessions': () => new Promise((resolve) => (answer = resolve)) })
    renderPage(<ActiveSessions />)
    const loading = await screen.findByRole('status', { name: 'Loading sessions' })
    expect(within(loading).getAllByTestId('session-skeleton')).toHaveLength(3)

    answer({ body: { sessions } })
    const list = await screen.findByRole('list', { name: 'Active sessions' })
    const [mine, mobile, tv] = within(list).getAllByRole('listitem')

    expect(mine).toHaveTextContent('Chrome 120 on Windows 10')
    expect(within(mine!).getByText('This device')).toBeInTheDocument()
    expect(within(mine!).getByRole('img', { name: 'Desktop' })).toBeInTheDocument()
    expect(mine).toHaveTextContent('Local network · 127.0.0.1')
    expect(mine).toHaveTextContent('Signed in 3 days ago · Active now')
    expect(within(mine!).queryByRole('button')).not.toBeInTheDocument()

    expect(mobile).toHaveTextContent('Mobile Safari 17 on iOS 17.0')
    expect(within(mobile!).getByRole('img', { name: 'Mobile' })).toBeInTheDocument()
    expect(mobile).toHaveTextContent('São Paulo, BR · 200.160.2.3')
    expect(mobile).toHaveTextContent('Signed in 2 hours ago · Last active 3 minutes ago')
    expect(within(mobile!).getByRole('button', { name: PHONE_REVOKE })).toHaveTextContent('Revoke')

    // An unknown device type is shown as desktop; a missing address says so.
    expect(within(tv!).getByRole('img', { name: 'Desktop' })).toBeInTheDocument()
    expect(tv).toHaveTextContent('Unknown · Unknown IP')
    expect(tv).toHaveTextContent('Signed in 1 week ago · Last active 1 week ago')
    expect(screen.getAllByText('This device')).toHaveLength(1)
    expect(screen.queryByRole('status', { name: 'Loading sessions' })).not.toBeInTheDocument()
  })

  it("says 'Could not load sessions.' with the server's message when the list fails", async () => {
    mockApi({ 'GET /_api/sessions': { status: 500, body: { error: 'Database unavailable' } } })
    renderPage(<ActiveSessions />)
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load sessions. Database unavailable')
    expect(screen.queryByRole('list', { name: 'Active sessions' })).not.toBeInTheDocument()
  })

  it("says 'No active sessions found.' for an empty list", async () => {
    mockApi({ 'GET /_api/sessions': { body: { sessions: [] } } })
    renderPage(<ActiveSessions />)
    expect(await screen.findByText('No active sessions found.')).toBeInTheDocument()
  })

  it('revokes a session after confirmation: a success toast, then the list refreshes without it', async () => {
    const { calls } = serveSessions([current(), phone(), television()])
    const { user } = renderPage(<ActiveSessions />)
    await user.click(await screen.findByRole('button', { name: PHONE_REVOKE }))
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this session?' })
    expect(dialog).toHaveTextContent('Mobile Safari 17 on iOS 17.0 (São Paulo, BR) will be signed out')
    expect(calls.some((c) => c.method === 'POST')).toBe(false)

    await user.click(within(dialog).getByRole('button', { name: 'Revoke session' }))
    expect(await screen.findByText('Session revoked successfully.')).toBeInTheDocument()
    const revoked = calls.filter((c) => c.method === 'POST')
    expect(revoked).toHaveLength(1)
    expect(revoked[0]).toMatchObject({ path: '/_api/sessions/revoke', body: { sessionId: 's-phone' }, headers: { 'X-Requested-With': 'XMLHttpRequest' } })
    await waitFor(() => expect(screen.queryByRole('button', { name: PHONE_REVOKE })).not.toBeInTheDocument())
    expect(listCalls(calls)).toBe(2)
    expect(within(screen.getByRole('list', { name: 'Active sessions' })).getAllByRole('listitem')).toHaveLength(2)
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('sends nothing when the confirmation is cancelled', async () => {
    const { calls } = serveSessions([current(), phone()])
    const { user } = renderPage(<ActiveSessions />)
    await user.click(await screen.findByRole('button', { name: PHONE_REVOKE }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    expect(screen.getByRole('button', { name: PHONE_REVOKE })).toBeInTheDocument()
  })

  it.each([
    ['the server’s message', { status: 404, body: { error: 'Session not found', code: 'session_not_found' } }, 'Session not found'],
    ["'Failed to revoke session.' when the server sent none", { status: 502 }, 'Failed to revoke session.'],
  ])('a failed revocation toasts %s, then the list refreshes', async (_label, reply, text) => {
    const { calls } = serveSessions([current(), phone()], { revoke: reply })
    const { user } = renderPage(<ActiveSessions />)
    await user.click(await screen.findByRole('button', { name: PHONE_REVOKE }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke session' }))
    expect(await screen.findByText(text)).toBeInTheDocument()
    expect(screen.queryByText('Session revoked successfully.')).not.toBeInTheDocument()
    await waitFor(() => expect(listCalls(calls)).toBe(2))
  })

  it('logs out other devices after confirmation, toasting how many, and then has nothing left to log out', async () => {
    const { calls } = serveSessions([current(), phone(), television()])
    const { user } = renderPage(<ActiveSessions />)
    await user.click(await screen.findByRole('button', { name: 'Log out other devices' }))
    const dialog = await screen.findByRole('dialog', { name: 'Log out other devices?' })
    expect(dialog).toHaveTextContent('This device stays signed in.')
    await user.click(within(dialog).getByRole('button', { name: 'Log out other devices' }))

    expect(await screen.findByText('2 other session(s) have been logged out.')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: '/_api/sessions/revoke-all', body: {}, headers: { 'X-Requested-With': 'XMLHttpRequest' } })
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Active sessions' })).getAllByRole('listitem')).toHaveLength(1))
    expect(screen.getByRole('button', { name: 'Log out other devices' })).toBeDisabled()
  })

  it("toasts 'Failed to log out other devices.' when that fails", async () => {
    serveSessions([current(), phone()], { revokeAll: { status: 500, body: { error: 'Database unavailable' } } })
    const { user } = renderPage(<ActiveSessions />)
    await user.click(await screen.findByRole('button', { name: 'Log out other devices' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Log out other devices' }))
    expect(await screen.findByText('Failed to log out other devices.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: PHONE_REVOKE })).toBeInTheDocument()
  })
})
