import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS, type SettingsResponse, type SettingsUpdate } from '#shared/api/settings.ts'
import { mockApi, type RecordedCall } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { FilterSettingsCard } from './filter-settings-card.tsx'

const settingsResponse = (overrides: Partial<SettingsResponse> = {}): SettingsResponse => ({
  ...DEFAULT_SETTINGS,
  performanceMetrics: { webhookEventsToday: 12, pollingEventsToday: 3 },
  ...overrides,
})

/** A settings endpoint that keeps what it is sent, like the server. */
function mockSettingsServer(initial: Partial<SettingsResponse> = {}) {
  let stored = settingsResponse(initial)
  const api = mockApi({
    'GET /_api/settings': () => ({ body: stored }),
    'POST /_api/settings': (body) => {
      stored = { ...stored, ...(body as SettingsUpdate) } as SettingsResponse
      return { body: stored }
    },
  })
  return { ...api, stored: () => stored }
}

const saves = (calls: RecordedCall[]) => calls.filter((call) => call.method === 'POST' && call.path === '/_api/settings')

function renderCard() {
  return renderPage(<FilterSettingsCard />, { path: '/dashboard' })
}

describe('Filter Settings card', () => {
  it('shows a skeleton while loading, then the settings; genuine and unwanted are fixed and explained', async () => {
    mockSettingsServer({ allowPromotional: false, confidenceThreshold: 0.85, strictnessLevel: 'strict' })
    renderCard()
    expect(screen.getByRole('heading', { name: 'Filter Settings' })).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading your filter settings' })).toBeInTheDocument()

    expect(await screen.findByRole('switch', { name: 'Filter my incoming mail' })).toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'Informational' })).toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'Promotional' })).not.toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'Transactional' })).toBeChecked()
    // Only the three kinds are toggles.
    expect(screen.getAllByRole('checkbox')).toHaveLength(3)
    expect(screen.getByText('Genuine')).toBeInTheDocument()
    expect(screen.getByText('Always kept')).toBeInTheDocument()
    expect(screen.getByText('Unwanted (cold outreach)')).toBeInTheDocument()
    expect(screen.getByText('Always filed away')).toBeInTheDocument()

    expect(screen.getByRole('slider', { name: 'Confidence threshold' })).toHaveAttribute('aria-valuenow', '0.85')
    expect(screen.getByText('85 %')).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: 'Strict' })).toBeChecked()
    for (const [name, hint] of [
      ['Balanced', "Uses the model's own judgement of what is cold outreach. Recommended."],
      ['Relaxed', 'Gives senders the benefit of the doubt: only clear cold outreach is filed away.'],
      ['Strict', 'Also files borderline mail that reads like outreach; look at Filtered Mail now and then.'],
    ]) {
      expect(screen.getByRole('radio', { name })).toHaveAccessibleDescription(hint)
    }
  })

  it('saves only the changed field (secure call) and keeps the new value', async () => {
    const { calls } = mockSettingsServer()
    const { user } = renderCard()
    await user.click(await screen.findByRole('checkbox', { name: 'Promotional' }))

    expect(screen.getByRole('checkbox', { name: 'Promotional' })).not.toBeChecked()
    await waitFor(() => expect(saves(calls)).toHaveLength(1))
    expect(saves(calls)[0]).toMatchObject({ body: { allowPromotional: false } })
    expect(saves(calls)[0]?.headers['X-Requested-With']).toBe('XMLHttpRequest')
    expect(await screen.findByText('All changes saved.')).toBeInTheDocument()
    expect(screen.getByRole('checkbox', { name: 'Promotional' })).not.toBeChecked()

    await user.click(screen.getByRole('switch', { name: 'Filter my incoming mail' }))
    await waitFor(() => expect(saves(calls)).toHaveLength(2))
    expect(saves(calls)[1]).toMatchObject({ body: { filteringEnabled: false } })
    expect(screen.getByRole('switch', { name: 'Filter my incoming mail' })).not.toBeChecked()

    await user.click(screen.getByRole('radio', { name: 'Relaxed' }))
    await waitFor(() => expect(saves(calls)).toHaveLength(3))
    expect(saves(calls)[2]).toMatchObject({ body: { strictnessLevel: 'relaxed' } })
    expect(screen.getByRole('radio', { name: 'Relaxed' })).toBeChecked()
  })

  it('shows a change at once and rolls it back with a toast when saving fails (after one retry)', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const { calls } = mockApi({
      'GET /_api/settings': { body: settingsResponse() },
      'POST /_api/settings': async () => {
        await gate
        return { status: 500, body: { error: 'Database unavailable' } }
      },
    })
    const { user } = renderCard()
    await user.click(await screen.findByRole('checkbox', { name: 'Transactional' }))

    // Optimistic: unticked while the request runs.
    expect(screen.getByRole('checkbox', { name: 'Transactional' })).not.toBeChecked()
    expect(await screen.findByText('Saving…')).toBeInTheDocument()

    release()
    expect(await screen.findByText('Your change was not saved: Database unavailable')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Transactional' })).toBeChecked())
    expect(saves(calls)).toHaveLength(2)
    expect(screen.queryByText('All changes saved.')).not.toBeInTheDocument()
  })

  it('a failed save does not undo another change made meanwhile', async () => {
    let releaseFirst!: () => void
    const firstGate = new Promise<void>((resolve) => (releaseFirst = resolve))
    let stored = settingsResponse()
    mockApi({
      'GET /_api/settings': () => ({ body: stored }),
      'POST /_api/settings': async (body) => {
        if ('allowInformational' in (body as object)) {
          await firstGate
          return { status: 500, body: { error: 'Database unavailable' } }
        }
        stored = { ...stored, ...(body as SettingsUpdate) } as SettingsResponse
        return { body: stored }
      },
    })
    const { user } = renderCard()
    await user.click(await screen.findByRole('checkbox', { name: 'Informational' }))
    await user.click(screen.getByRole('checkbox', { name: 'Promotional' }))
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Promotional' })).not.toBeChecked())

    releaseFirst()
    expect(await screen.findByText('Your change was not saved: Database unavailable')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Informational' })).toBeChecked())
    expect(screen.getByRole('checkbox', { name: 'Promotional' })).not.toBeChecked()
  })

  it('keeps the threshold between 0.1 and 1 in steps of 0.05, showing the value', async () => {
    const { calls } = mockSettingsServer()
    const { user } = renderCard()
    const slider = await screen.findByRole('slider', { name: 'Confidence threshold' })
    expect(slider).toHaveAttribute('aria-valuemin', '0.1')
    expect(slider).toHaveAttribute('aria-valuemax', '1')
    expect(slider).toHaveAttribute('aria-valuetext', '70 %')
    expect(screen.getByText('70 %')).toBeInTheDocument()

    slider.focus()
    await user.keyboard('{ArrowRight}')
    expect(slider).toHaveAttribute('aria-valuenow', '0.75')
    expect(screen.getByText('75 %')).toBeInTheDocument()
    await waitFor(() => expect(saves(calls).at(-1)).toMatchObject({ body: { confidenceThreshold: 0.75 } }))

    await user.keyboard('{End}')
    await waitFor(() => expect(saves(calls).at(-1)).toMatchObject({ body: { confidenceThreshold: 1 } }))
    const atTop = saves(calls).length
    await user.keyboard('{ArrowRight}{PageUp}')
    expect(slider).toHaveAttribute('aria-valuenow', '1')
    expect(screen.getByText('100 %')).toBeInTheDocument()

    await user.keyboard('{Home}')
    await waitFor(() => expect(saves(calls).at(-1)).toMatchObject({ body: { confidenceThreshold: 0.1 } }))
    await user.keyboard('{ArrowLeft}{PageDown}')
    expect(slider).toHaveAttribute('aria-valuenow', '0.1')
    expect(screen.getByText('10 %')).toBeInTheDocument()
    // Nothing beyond the bounds was ever sent: 1 was saved once, then 0.1 once.
    expect(saves(calls)).toHaveLength(atTop + 1)
    const sent = saves(calls).map((call) => (call.body as SettingsUpdate).confidenceThreshold)
    expect(sent.every((value) => value !== undefined && value >= 0.1 && value <= 1)).toBe(true)
  })

  it("shows 'Error loading category settings: {message}' when loading fails, and Try again", async () => {
    let fail = true
    mockApi({
      'GET /_api/settings': () => (fail ? { status: 401, body: { error: 'Authentication required' } } : { body: settingsResponse() }),
    })
    const { user } = renderCard()
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Error loading category settings: Authentication required')

    fail = false
    await user.click(within(alert.parentElement as HTMLElement).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('switch', { name: 'Filter my incoming mail' })).toBeInTheDocument()
  })
})
