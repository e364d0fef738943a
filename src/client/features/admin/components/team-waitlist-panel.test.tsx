import { act, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { TeamWaitlistPanel } from './team-waitlist-panel.tsx'

const NOW = Date.parse('2025-09-30T12:00:00.000Z')
const DAY = 86_400_000
const entry = (id: number, name: string, daysAgo: number, userId: number | null) => ({
  id,
  name,
  email: `${name.toLowerCase()}@example.com`,
  userId,
  createdAt: new Date(NOW - daysAgo * DAY).toISOString(),
})

describe('Team waitlist (admin)', () => {
  it('lists the entries newest first, with N/A for a visitor without an account', async () => {
    // Out of order on purpose: the panel keeps newest first whatever it is sent.
    mockApi({ 'GET /_api/admin/waitlist': { body: { entries: [entry(1, 'Grace', 9, 3), entry(3, 'Linus', 1, null), entry(2, 'Ada', 3, 7)] } } })
    renderPage(<TeamWaitlistPanel now={NOW} />)
    const table = await screen.findByRole('table', { name: 'Team waitlist' })
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Name', 'Email', 'User ID', 'Joined'])
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['Linus', 'linus@example.com', 'N/A', '1 day ago'],
      ['Ada', 'ada@example.com', '7', '3 days ago'],
      ['Grace', 'grace@example.com', '3', '1 week ago'],
    ])
  })

  it("is the admin teamWaitlist cache that joining the waitlist invalidates (key ['admin', 'teamWaitlist'])", async () => {
    let entries = [entry(1, 'Grace', 9, 3)]
    const { calls } = mockApi({ 'GET /_api/admin/waitlist': () => ({ body: { entries } }) })
    const { queryClient } = renderPage(<TeamWaitlistPanel now={NOW} />)
    await screen.findByText('Grace')
    entries = [entry(2, 'Ada', 0, 7), ...entries]
    // What src/client/features/waitlist/api/join-waitlist.ts does on success.
    await act(() => queryClient.invalidateQueries({ queryKey: ['admin', 'teamWaitlist'] }))
    expect(await screen.findByText('Ada')).toBeInTheDocument()
    expect(calls.filter((call) => call.path === '/_api/admin/waitlist')).toHaveLength(2)
  })

  it('says when the list is empty, and why when it fails', async () => {
    mockApi({ 'GET /_api/admin/waitlist': { body: { entries: [] } } })
    const { unmount } = renderPage(<TeamWaitlistPanel now={NOW} />)
    expect(await screen.findByText('No one has joined the Team waitlist yet.')).toBeInTheDocument()
    unmount()

    mockApi({ 'GET /_api/admin/waitlist': { status: 403, body: { error: 'Admin access required' } } })
    renderPage(<TeamWaitlistPanel now={NOW} />)
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Error loading the Team waitlist: Admin access required'))
  })
})
