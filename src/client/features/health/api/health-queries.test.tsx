import { act, render } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mockApi } from '#client/test/fetch-mock.ts'
import { createTestQueryClient } from '#client/test/render.tsx'
import { useHeartbeatStatus } from './get-heartbeat-status.ts'
import { useWebhookStatus, webhookStatusRetryDelay } from './get-webhook-status.ts'

const START = Date.parse('2025-09-30T12:00:00.000Z')
const SECOND = 1_000
const MINUTE = 60 * SECOND

const heartbeatBody = { heartbeatStatus: 'healthy', lastEmailProcessedAt: null, message: 'Filtering is running.', lastSyncAt: null }
const webhookBody = { gmail: { healthStatus: 'active', expiration: null }, outlook: null }

/** The two endpoints, recording the second (since START) at which each call arrived. */
function mockHealth({ webhookReplies = [{ body: webhookBody }] }: { webhookReplies?: { status?: number; body?: unknown }[] } = {}) {
  const heartbeat: number[] = []
  const webhooks: number[] = []
  mockApi({
    'GET /_api/heartbeat/status': () => {
      heartbeat.push((Date.now() - START) / SECOND)
      return { body: heartbeatBody }
    },
    'GET /_api/webhooks/status': () => {
      webhooks.push((Date.now() - START) / SECOND)
      return webhookReplies[Math.min(webhooks.length - 1, webhookReplies.length - 1)]!
    },
  })
  return { heartbeat, webhooks }
}

function Heartbeat() {
  useHeartbeatStatus()
  return null
}
function Webhooks() {
  useWebhookStatus()
  return null
}

/** The production cache rules (the test client only drops the waits between default retries). */
function renderQueries(ui = <><Heartbeat /><Webhooks /></>, queryClient = createTestQueryClient()) {
  const result = render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>)
  return { ...result, queryClient }
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))
const focusWindow = () =>
  act(() => {
    window.dispatchEvent(new Event('visibilitychange'))
  })

beforeEach(() => {
  vi.useFakeTimers({ now: START })
})

describe('heartbeat status query (SPEC 7 "Health", SPEC 9: stale 25 s, refetch every 30 s)', () => {
  it('fetches GET /_api/heartbeat/status at once, then every 30 s', async () => {
    const { heartbeat } = mockHealth()
    renderQueries(<Heartbeat />)
    await advance(0)
    expect(heartbeat).toEqual([0])
    await advance(29 * SECOND)
    expect(heartbeat).toEqual([0])
    await advance(1 * SECOND)
    expect(heartbeat).toEqual([0, 30])
    await advance(60 * SECOND)
    expect(heartbeat).toEqual([0, 30, 60, 90])
  })

  it('is fresh for 25 s: a card shown again within 25 s reuses the answer, later it asks again', async () => {
    const { heartbeat } = mockHealth()
    const first = renderQueries(<Heartbeat />)
    await advance(0)
    first.unmount()

    await advance(24 * SECOND)
    const second = renderQueries(<Heartbeat />, first.queryClient)
    await advance(0)
    expect(heartbeat).toEqual([0])
    second.unmount()

    await advance(2 * SECOND)
    renderQueries(<Heartbeat />, first.queryClient)
    await advance(0)
    expect(heartbeat).toEqual([0, 26])
  })

  it('is not refetched on window focus (the app default)', async () => {
    const { heartbeat } = mockHealth()
    renderQueries(<Heartbeat />)
    await advance(26 * SECOND)
    await focusWindow()
    await advance(0)
    expect(heartbeat).toEqual([0])
  })
})

describe('webhook status query (SPEC 7 "Health", SPEC 9: stale 30 s, refetch every 5 min and on focus)', () => {
  it('fetches GET /_api/webhooks/status at once, then every 5 minutes', async () => {
    const { webhooks } = mockHealth()
    renderQueries(<Webhooks />)
    await advance(0)
    expect(webhooks).toEqual([0])
    await advance(5 * MINUTE - SECOND)
    expect(webhooks).toEqual([0])
    await advance(SECOND)
    expect(webhooks).toEqual([0, 300])
    await advance(5 * MINUTE)
    expect(webhooks).toEqual([0, 300, 600])
  })

  it('refetches when the window regains focus, once the answer is older than 30 s', async () => {
    const { webhooks } = mockHealth()
    renderQueries(<Webhooks />)
    await advance(29 * SECOND)
    await focusWindow()
    await advance(0)
    expect(webhooks).toEqual([0])

    await advance(2 * SECOND)
    await focusWindow()
    await advance(0)
    expect(webhooks).toEqual([0, 31])
  })

  it('retries a failure after 1 s, 2 s and 4 s', async () => {
    const failure = { status: 503, body: { error: 'Service unavailable' } }
    const { webhooks } = mockHealth({ webhookReplies: [failure, failure, failure, { body: webhookBody }] })
    const { queryClient } = renderQueries(<Webhooks />)
    await advance(10 * SECOND)
    expect(webhooks).toEqual([0, 1, 3, 7])
    expect(queryClient.getQueryState(['health', 'webhooks'])?.status).toBe('success')
  })

  it('doubles the retry delay per attempt and caps it at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(webhookStatusRetryDelay)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000])
  })
})
