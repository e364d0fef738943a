import { act, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { DecisionItem } from '#shared/api/activity.ts'
import { mockApi, type RecordedCall } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { FilteredMailCard } from './filtered-mail-card.tsx'

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()

function decision(overrides: Partial<DecisionItem> & Pick<DecisionItem, 'id'>): DecisionItem {
  return {
    provider: 'gmail',
    receivedAt: minutesAgo(5),
    decidedAt: minutesAgo(5),
    senderAddress: 'someone@example.com',
    senderName: null,
    subject: 'Hello',
    category: 'genuine',
    confidence: 0.9,
    action: 'kept',
    state: 'kept',
    reasons: [],
    decidedBy: 'classifier',
    ...overrides,
  }
}

const coldPitch = decision({
  id: 1,
  senderAddress: 'ben@pipelinepeak.example',
  senderName: 'Ben Carter',
  subject: 'Quick question, Ada',
  category: 'unwanted',
  confidence: 0.92,
  action: 'filed',
  state: 'filed',
  reasons: ['Sent with a sales-engagement tool (Reachloop) by a stranger', 'Wording common in cold outreach: “quick chat”, “demos”'],
})
const friend = decision({
  id: 2,
  receivedAt: minutesAgo(90),
  senderAddress: 'hannah.lindqvist@fernhill.example',
  senderName: 'Hannah Lindqvist',
  subject: 'Re: Roadmap draft for the next two quarters',
  confidence: 0.97,
  reasons: ['You have written to this sender before'],
})
const flagged = decision({ id: 3, receivedAt: minutesAgo(3 * 24 * 60), subject: 'Partnership?', category: 'promotional', state: 'flagged', decidedBy: 'sender_rule' })
const restored = decision({ id: 4, subject: 'Your newsletter', category: 'informational', state: 'restored', action: 'filed' })
const skipped = decision({ id: 5, subject: 'Broken message', state: 'skipped', action: 'skipped', decidedBy: 'error', reasons: [] })

const page = (items: DecisionItem[], totalPages = 1) => ({
  items,
  pagination: { page: 1, limit: 25, totalPages, totalRecords: items.length },
})

const listCalls = (calls: RecordedCall[]) => calls.filter((call) => call.method === 'GET' && call.path === '/_api/activity')
const row = (subject: string) => screen.getByText(subject).closest('li') as HTMLElement

function renderCard(path = '/dashboard', options: { fakeTimers?: boolean } = {}) {
  if (options.fakeTimers) vi.useFakeTimers({ shouldAdvanceTime: true })
  return renderPage(<FilteredMailCard />, { path, userOptions: options.fakeTimers ? { advanceTimers: vi.advanceTimersByTime } : {} })
}

describe('Filtered Mail card', () => {
  it('asks for 25 decisions a page and shows each with time, sender, subject, category, confidence and state', async () => {
    const { calls } = mockApi({ 'GET /_api/activity': { body: page([coldPitch, friend, flagged, restored, skipped]) } })
    renderCard()
    expect(screen.getByRole('heading', { name: 'Filtered Mail' })).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading filtered mail' })).toBeInTheDocument()

    const list = await screen.findByRole('list', { name: 'Decisions' })
    expect(within(list).getAllByRole('listitem').filter((item) => item.parentElement === list)).toHaveLength(5)
    expect(listCalls(calls)[0]?.query).toEqual({ page: '1', limit: '25' })

    const cold = row('Quick question, Ada')
    expect(within(cold).getByText('Ben Carter')).toHaveAttribute('title', 'ben@pipelinepeak.example')
    expect(within(cold).getByText('5 min ago')).toBeInTheDocument()
    expect(within(cold).getByText('Cold outreach')).toBeInTheDocument()
    expect(within(cold).getByText('92 % confidence')).toBeInTheDocument()
    expect(within(cold).getByText('Filed away')).toBeInTheDocument()

    const hannah = row('Re: Roadmap draft for the next two quarters')
    expect(within(hannah).getByText('1 h ago')).toBeInTheDocument()
    expect(within(hannah).getByText('Genuine')).toBeInTheDocument()
    expect(within(hannah).getByText('Kept')).toBeInTheDocument()
    expect(within(row('Partnership?')).getByText('Marked cold')).toBeInTheDocument()
    expect(within(row('Partnership?')).getByText('3 days ago')).toBeInTheDocument()
    expect(within(row('Your newsletter')).getByText('Restored')).toBeInTheDocument()
    expect(within(row('Broken message')).getByText('Skipped')).toBeInTheDocument()
    expect(screen.getByText('Page 1 of 1 · 5 messages')).toBeInTheDocument()
  })

  it('shows the reasons on request', async () => {
    mockApi({ 'GET /_api/activity': { body: page([coldPitch]) } })
    const { user } = renderCard()
    await screen.findByText('Quick question, Ada')
    const reason = screen.getByText('Sent with a sales-engagement tool (Reachloop) by a stranger')
    expect(reason).not.toBeVisible()

    const toggle = within(row('Quick question, Ada')).getByRole('button', { name: 'Show reasons' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await user.click(toggle)
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    expect(toggle).toHaveAccessibleName('Hide reasons')
    expect(reason).toBeVisible()
    expect(screen.getByText('Wording common in cold outreach: “quick chat”, “demos”')).toBeVisible()
    expect(screen.getByText('Decided by the classifier')).toBeVisible()
  })

  it('offers Restore on filed and flagged mail, "This is cold" on kept and restored mail, nothing on skipped', async () => {
    mockApi({ 'GET /_api/activity': { body: page([coldPitch, friend, flagged, restored, skipped]) } })
    renderCard()
    await screen.findByText('Quick question, Ada')
    const buttonsOf = (subject: string) => within(row(subject)).queryAllByRole('button').map((button) => button.textContent)
    expect(buttonsOf('Quick question, Ada')).toEqual(['Restore', 'Show reasons'])
    expect(buttonsOf('Partnership?')).toEqual(['Restore', 'Show reasons'])
    expect(buttonsOf('Re: Roadmap draft for the next two quarters')).toEqual(['This is cold', 'Show reasons'])
    expect(buttonsOf('Your newsletter')).toEqual(['This is cold', 'Show reasons'])
    expect(buttonsOf('Broken message')).toEqual(['Show reasons'])
    // Each button explains that the sender is remembered.
    expect(within(row('Quick question, Ada')).getByRole('button', { name: 'Restore' })).toHaveAccessibleDescription(
      'Restore moves a message back to your inbox, and Inbox Guard keeps this sender’s mail from then on.',
    )
    expect(within(row('Your newsletter')).getByRole('button', { name: 'This is cold' })).toHaveAccessibleDescription(
      '“This is cold” files a message away, and this sender’s mail is filed away from then on.',
    )
  })

  it('Restore: POST /_api/activity/restore, a toast with the server message, and the list refreshed', async () => {
    let state: DecisionItem['state'] = 'filed'
    const { calls } = mockApi({
      'GET /_api/activity': () => ({ body: page([{ ...coldPitch, state }]) }),
      'POST /_api/activity/restore': () => {
        state = 'restored'
        return { body: { decision: { ...coldPitch, state }, message: 'Moved back to your inbox. Mail from ben@pipelinepeak.example will be kept.' } }
      },
    })
    const { user } = renderCard()
    await user.click(await screen.findByRole('button', { name: 'Restore' }))

    expect(await screen.findByText('Moved back to your inbox. Mail from ben@pipelinepeak.example will be kept.')).toBeInTheDocument()
    const restore = calls.find((call) => call.path === '/_api/activity/restore')
    expect(restore).toMatchObject({ method: 'POST', body: { decisionId: 1 } })
    expect(restore?.headers['X-Requested-With']).toBe('XMLHttpRequest')
    expect(await within(row('Quick question, Ada')).findByText('Restored')).toBeInTheDocument()
    await waitFor(() => expect(listCalls(calls)).toHaveLength(2))
    expect(within(row('Quick question, Ada')).getByRole('button', { name: 'This is cold' })).toBeInTheDocument()
  })

  it('"This is cold": POST /_api/activity/flag, a toast, and the list refreshed', async () => {
    let state: DecisionItem['state'] = 'kept'
    const { calls } = mockApi({
      'GET /_api/activity': () => ({ body: page([{ ...friend, state }]) }),
      'POST /_api/activity/flag': () => {
        state = 'flagged'
        return { body: { decision: { ...friend, state }, message: 'Filed away. Mail from hannah.lindqvist@fernhill.example will be filed away.' } }
      },
    })
    const { user } = renderCard()
    await user.click(await screen.findByRole('button', { name: 'This is cold' }))

    expect(await screen.findByText('Filed away. Mail from hannah.lindqvist@fernhill.example will be filed away.')).toBeInTheDocument()
    expect(calls.find((call) => call.path === '/_api/activity/flag')).toMatchObject({ method: 'POST', body: { decisionId: 2 } })
    expect(await within(row('Re: Roadmap draft for the next two quarters')).findByText('Marked cold')).toBeInTheDocument()
    await waitFor(() => expect(listCalls(calls)).toHaveLength(2))
  })

  it('a failed correction toasts why and leaves the state as it was', async () => {
    mockApi({
      'GET /_api/activity': { body: page([coldPitch]) },
      'POST /_api/activity/restore': { status: 502, body: { error: 'Gmail did not answer. Try again in a minute.' } },
    })
    const { user } = renderCard()
    await user.click(await screen.findByRole('button', { name: 'Restore' }))
    expect(await screen.findByText('Could not restore the message: Gmail did not answer. Try again in a minute.')).toBeInTheDocument()
    expect(within(row('Quick question, Ada')).getByText('Filed away')).toBeInTheDocument()
  })

  it('the empty state', async () => {
    mockApi({ 'GET /_api/activity': { body: page([]) } })
    renderCard()
    expect(await screen.findByText('No mail decided yet. New mail is checked as it arrives.')).toBeInTheDocument()
  })

  it('filters by category and "Filed away only" through the URL, back to page 1', async () => {
    const { calls } = mockApi({ 'GET /_api/activity': { body: page([coldPitch], 3) } })
    const { user } = renderCard('/dashboard?mailPage=2&keep=1')
    await screen.findByText('Quick question, Ada')
    expect(listCalls(calls).at(-1)?.query).toEqual({ page: '2', limit: '25' })

    await user.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'Cold outreach')
    await waitFor(() => expect(listCalls(calls).at(-1)?.query).toEqual({ page: '1', limit: '25', category: 'unwanted' }))
    expect(screen.getByTestId('location-search')).toHaveTextContent('?keep=1&mailCategory=unwanted')

    await user.click(screen.getByRole('checkbox', { name: 'Filed away only' }))
    await waitFor(() => expect(listCalls(calls).at(-1)?.query).toEqual({ page: '1', limit: '25', category: 'unwanted', filed: 'true' }))

    await user.click(screen.getByRole('button', { name: 'Next' }))
    await waitFor(() => expect(listCalls(calls).at(-1)?.query).toMatchObject({ page: '2' }))
    expect(screen.getByTestId('location-search')).toHaveTextContent('?keep=1&mailCategory=unwanted&mailFiled=true&mailPage=2')
  })

  it('says when nothing matches the filters', async () => {
    mockApi({ 'GET /_api/activity': { body: page([]) } })
    renderCard('/dashboard?mailFiled=true')
    expect(await screen.findByText('No mail matches these filters.')).toBeInTheDocument()
    expect(screen.getByRole('checkbox', { name: 'Filed away only' })).toBeChecked()
  })

  it('refetches every 30 s while the page is visible, not while it is hidden', async () => {
    const { calls } = mockApi({ 'GET /_api/activity': { body: page([coldPitch]) } })
    renderCard('/dashboard', { fakeTimers: true })
    await screen.findByText('Quick question, Ada')
    expect(listCalls(calls)).toHaveLength(1)

    act(() => {
      vi.advanceTimersByTime(30_000)
    })
    await waitFor(() => expect(listCalls(calls)).toHaveLength(2))

    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden')
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'))
      vi.advanceTimersByTime(90_000)
    })
    expect(listCalls(calls)).toHaveLength(2)
  })

  it('Refresh asks again at once', async () => {
    const { calls } = mockApi({ 'GET /_api/activity': { body: page([coldPitch]) } })
    const { user } = renderCard()
    await screen.findByText('Quick question, Ada')
    await user.click(screen.getByRole('button', { name: 'Refresh' }))
    await waitFor(() => expect(listCalls(calls)).toHaveLength(2))
  })

  it("shows why the list could not be loaded", async () => {
    mockApi({ 'GET /_api/activity': { status: 401, body: { error: 'Authentication required' } } })
    renderCard()
    expect(await screen.findByRole('alert')).toHaveTextContent('Error loading filtered mail: Authentication required')
  })
})
