import { act, render } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mockApi } from '#client/test/fetch-mock.ts'
import { createTestQueryClient } from '#client/test/render.tsx'
import { nextPollDelay, pollInterval } from '../lib/poll-schedule.ts'
import { useMailPolling, type MailPollingOptions } from './use-mail-polling.ts'

const START = new Date('2025-09-01T08:00:00Z').getTime()
const SECOND = 1_000

function Poller(props: MailPollingOptions) {
  useMailPolling(props)
  return null
}

function renderPoller(props: MailPollingOptions) {
  const queryClient = createTestQueryClient()
  const ui = (next: MailPollingOptions) => (
    <QueryClientProvider client={queryClient}>
      <Poller {...next} />
    </QueryClientProvider>
  )
  const result = render(ui(props))
  return { ...result, queryClient, rerender: (next: MailPollingOptions) => result.rerender(ui(next)) }
}

/** The poll endpoint; `replies` are used in turn (the last one from then on). Records when each poll arrived. */
function mockPoll(replies: { status?: number; body?: unknown }[] = [{ body: { message: 'Checked', emailsQueued: 0 } }]) {
  const times: number[] = []
  const api = mockApi({
    'POST /_api/gmail/poll': () => {
      times.push((Date.now() - START) / SECOND)
      return replies[Math.min(times.length - 1, replies.length - 1)]!
    },
    'GET /_api/settings': { status: 401, body: { error: 'Authentication required' } },
  })
  return { ...api, times }
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))

let visibility: DocumentVisibilityState = 'visible'
function setVisibility(next: DocumentVisibilityState) {
  visibility = next
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'))
  })
}

beforeEach(() => {
  vi.useFakeTimers({ now: START })
  visibility = 'visible'
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility)
})
afterEach(() => {
  vi.useRealTimers()
})

describe('poll schedule (SPEC 4 "Polling", SPEC 9)', () => {
  it('is 60 s, doubling after each failure up to 5 minutes', () => {
    expect([0, 1, 2, 3, 4, 10].map((failures) => pollInterval(failures) / SECOND)).toEqual([60, 120, 240, 300, 300, 300])
  })

  it('never schedules two polls less than 30 s apart', () => {
    for (const failures of [0, 1, 5]) {
      for (const restart of [true, false]) {
        expect(nextPollDelay({ lastPollAt: START, failures }, START, { restart })).toBeGreaterThanOrEqual(30 * SECOND)
      }
    }
    expect(nextPollDelay({ lastPollAt: null, failures: 0 }, START, { restart: true })).toBe(0)
  })
})

describe('useMailPolling', () => {
  it('polls POST /_api/gmail/poll with {} at once, then every 60 s', async () => {
    const { times, calls } = mockPoll()
    renderPoller({ connected: true })
    await advance(0)
    expect(times).toEqual([0])
    const poll = calls.find((call) => call.path === '/_api/gmail/poll')
    expect(poll).toMatchObject({ method: 'POST', body: {} })
    expect(poll?.headers['X-Requested-With']).toBe('XMLHttpRequest')

    await advance(59 * SECOND)
    expect(times).toEqual([0])
    await advance(1 * SECOND)
    expect(times).toEqual([0, 60])
    await advance(120 * SECOND)
    expect(times).toEqual([0, 60, 120, 180])
  })

  it('does nothing without a connected mailbox, and starts when one is connected', async () => {
    const { times } = mockPoll()
    const { rerender } = renderPoller({ connected: false })
    await advance(10 * 60 * SECOND)
    expect(times).toEqual([])

    rerender({ connected: true })
    await advance(0)
    expect(times).toEqual([600])
    await advance(60 * SECOND)
    expect(times).toEqual([600, 660])

    rerender({ connected: false })
    await advance(10 * 60 * SECOND)
    expect(times).toEqual([600, 660])
  })

  it('doubles the interval after each failure up to 5 minutes, and resets after a success', async () => {
    const failure = { status: 503, body: { error: 'Gmail is not answering' } }
    const success = { body: { message: 'Checked', emailsQueued: 0 } }
    const { times } = mockPoll([failure, failure, failure, failure, success, success])
    renderPoller({ connected: true })
    await advance(0)
    await advance(20 * 60 * SECOND)
    const gaps = times.slice(1).map((time, index) => time - times[index]!)
    // fail → 120 s → fail → 240 s → fail → 300 s (cap) → fail → 300 s → success → 60 s → success → 60 s
    expect(gaps.slice(0, 6)).toEqual([120, 240, 300, 300, 60, 60])
  })

  it('pauses while the tab is hidden; back in view it polls at once, but never within 30 s of the last poll', async () => {
    const { times } = mockPoll()
    renderPoller({ connected: true })
    await advance(0)
    expect(times).toEqual([0])

    await advance(10 * SECOND)
    setVisibility('hidden')
    await advance(5 * 60 * SECOND)
    expect(times).toEqual([0])

    setVisibility('visible')
    await advance(0)
    expect(times).toEqual([0, 310])

    // Hidden and back within 30 s of that poll: the next one waits for the 30 s mark.
    await advance(5 * SECOND)
    setVisibility('hidden')
    await advance(5 * SECOND)
    setVisibility('visible')
    await advance(19 * SECOND)
    expect(times).toEqual([0, 310])
    await advance(1 * SECOND)
    expect(times).toEqual([0, 310, 340])
    await advance(60 * SECOND)
    expect(times).toEqual([0, 310, 340, 400])
  })

  it('a failure streak keeps its backoff when the tab comes back into view', async () => {
    const { times } = mockPoll([{ status: 503, body: { error: 'Gmail is not answering' } }])
    renderPoller({ connected: true })
    await advance(0)
    setVisibility('hidden')
    await advance(30 * SECOND)
    setVisibility('visible')
    await advance(89 * SECOND)
    expect(times).toEqual([0])
    await advance(1 * SECOND)
    expect(times).toEqual([0, 120])
  })

  it('after a poll that queued mail, calls onMailQueued 5 s later', async () => {
    mockPoll([{ body: { message: 'Queued 2 new messages', emailsQueued: 2 } }, { body: { message: 'Checked', emailsQueued: 0 } }])
    const onMailQueued = vi.fn()
    renderPoller({ connected: true, onMailQueued })
    await advance(0)
    await advance(4_900)
    expect(onMailQueued).not.toHaveBeenCalled()
    await advance(100)
    expect(onMailQueued).toHaveBeenCalledTimes(1)
    expect(onMailQueued).toHaveBeenCalledWith(2)
    await advance(5 * 60 * SECOND)
    expect(onMailQueued).toHaveBeenCalledTimes(1)
  })

  it('stops when unmounted, and a remount keeps the schedule instead of polling at once', async () => {
    const { times } = mockPoll()
    const first = renderPoller({ connected: true })
    await advance(0)
    first.unmount()
    await advance(5 * 60 * SECOND)
    expect(times).toEqual([0])

    // The same query client (the same page load): leaving the dashboard and coming back.
    const queryClient = first.queryClient
    render(
      <QueryClientProvider client={queryClient}>
        <Poller connected />
      </QueryClientProvider>,
    )
    await advance(0)
    expect(times).toEqual([0, 300])
    await advance(10 * SECOND)
    const again = render(
      <QueryClientProvider client={queryClient}>
        <Poller connected />
      </QueryClientProvider>,
    )
    await advance(19 * SECOND)
    again.unmount()
    // Two pollers on one page share the history: nothing before 30 s after the last poll.
    expect(times).toEqual([0, 300])
  })
})
