import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS, type SettingsResponse, type SettingsUpdate } from '#shared/api/settings.ts'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { FilterSettingsCard } from './filter-settings-card.tsx'
import { FilteringStatusCard } from './filtering-status-card.tsx'

const settingsResponse = (overrides: Partial<SettingsResponse> = {}): SettingsResponse => ({
  ...DEFAULT_SETTINGS,
  performanceMetrics: { webhookEventsToday: 1204, pollingEventsToday: 7 },
  ...overrides,
})

describe('Filtering on/off card', () => {
  it('says filtering is on, what that means, and shows today’s performance metrics', async () => {
    mockApi({ 'GET /_api/settings': { body: settingsResponse() } })
    renderPage(<FilteringStatusCard />)
    expect(screen.getByRole('status', { name: 'Loading the filtering status' })).toBeInTheDocument()
    expect(await screen.findByText('Filtering is on')).toBeInTheDocument()
    expect(screen.getByRole('switch', { name: 'Filtering' })).toBeChecked()
    expect(screen.getByRole('switch', { name: 'Filtering' })).toHaveAccessibleDescription(
      'New mail is checked as it arrives, and the kinds you do not want are filed out of your inbox with a reason. Nothing is deleted.',
    )
    expect(screen.getByText('Webhook events today').nextElementSibling).toHaveTextContent('1,204')
    expect(screen.getByText('Polling events today').nextElementSibling).toHaveTextContent('7')
  })

  it('turns filtering off: new mail is left alone and not processed later; the Filter Settings switch agrees', async () => {
    let stored = settingsResponse()
    const { calls } = mockApi({
      'GET /_api/settings': () => ({ body: stored }),
      'POST /_api/settings': (body) => {
        stored = { ...stored, ...(body as SettingsUpdate) } as SettingsResponse
        return { body: stored }
      },
    })
    const { user } = renderPage(
      <>
        <FilteringStatusCard />
        <FilterSettingsCard />
      </>,
    )
    await user.click(await screen.findByRole('switch', { name: 'Filtering' }))

    expect(await screen.findByText('Filtering is off')).toBeInTheDocument()
    expect(
      screen.getByText('New mail is left alone in your inbox, and mail that arrives while filtering is off is not processed later.'),
    ).toBeInTheDocument()
    expect(screen.getByRole('switch', { name: 'Filter my incoming mail' })).not.toBeChecked()
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1))
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({ path: '/_api/settings', body: { filteringEnabled: false } })
  })

  it("shows 'Unable to load performance data' when the settings cannot be loaded", async () => {
    mockApi({ 'GET /_api/settings': { status: 401, body: { error: 'Authentication required' } } })
    renderPage(<FilteringStatusCard />)
    expect(await screen.findByRole('alert')).toHaveTextContent('Unable to load performance data')
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })
})
