import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ProviderHealth } from '#shared/api/admin.ts'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { ProviderHealthPanel } from './provider-health-panel.tsx'

const NOW = Date.parse('2025-09-30T12:00:00.000Z')
const MINUTE = 60_000
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString()

const provider = (serviceName: ProviderHealth['serviceName'], over: Partial<ProviderHealth> = {}): ProviderHealth => ({
  id: serviceName.length,
  serviceName,
  isHealthy: true,
  failureCount: 0,
  lastFailureAt: null,
  circuitOpenUntil: null,
  updatedAt: at(-MINUTE),
  ...over,
})

const healthy = () => [provider('gmail'), provider('outlook'), provider('openai_classification')]

function renderPanel(routes: Parameters<typeof mockApi>[0]) {
  const api = mockApi(routes)
  return { ...api, ...renderPage(<ProviderHealthPanel now={NOW} />) }
}

const row = (name: string) => screen.getByRole('listitem', { name })
const toastOf = async (text: string) => (await screen.findByText(text, { selector: '[data-sonner-toast] *' })).closest('[data-sonner-toast]')

describe('Provider Health Status (SPEC 4 "Circuit breaker")', () => {
  it("says 'Loading' while fetching, then 'All Systems Operational' when every provider is healthy with no open circuit", async () => {
    let answer: (reply: { body: unknown }) => void = () => {}
    renderPanel({ 'GET /_api/health/providers': () => new Promise((resolve) => (answer = resolve)) })
    expect(screen.getByRole('heading', { level: 3, name: 'Provider Health Status' })).toBeInTheDocument()
    expect(await screen.findByText('Loading')).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading provider health' })).toBeInTheDocument()

    // A circuit that was open but has since closed (circuitOpenUntil in the past) does not count.
    answer({ body: { providers: [provider('gmail', { circuitOpenUntil: at(-5 * MINUTE), failureCount: 2, lastFailureAt: at(-3 * MINUTE) }), provider('outlook'), provider('openai_classification')] } })
    expect(await screen.findByText('All Systems Operational')).toBeInTheDocument()
    expect(screen.queryByText('Loading')).not.toBeInTheDocument()
    expect(screen.queryByText('Systemic Issues Detected')).not.toBeInTheDocument()

    const gmail = row('Gmail')
    expect(within(gmail).getByText('Healthy')).toBeInTheDocument()
    expect(gmail).toHaveTextContent('Failures:2')
    expect(gmail).toHaveTextContent('Last failure:3 minutes ago')
    expect(gmail).not.toHaveTextContent('Open until')
    expect(row('Outlook')).toHaveTextContent('Last failure:Unknown')
    expect(within(row('OpenAI classification')).getByText('Healthy')).toBeInTheDocument()
  })

  it("a healthy provider whose circuit is open until a future time is open, and the overall is 'Systemic Issues Detected'", async () => {
    renderPanel({
      'GET /_api/health/providers': {
        body: { providers: [provider('gmail', { isHealthy: true, failureCount: 5, circuitOpenUntil: at(10 * MINUTE) }), provider('outlook'), provider('openai_classification')] },
      },
    })
    expect(await screen.findByText('Systemic Issues Detected')).toBeInTheDocument()
    expect(screen.queryByText('All Systems Operational')).not.toBeInTheDocument()
    const gmail = row('Gmail')
    expect(within(gmail).getByText('Circuit Open')).toBeInTheDocument()
    expect(gmail).toHaveTextContent(/Open until:.*\(in 10 minutes\)/)
    expect(within(row('Outlook')).getByText('Healthy')).toBeInTheDocument()
  })

  it("an unhealthy provider with no open circuit is degraded, and the overall is 'Systemic Issues Detected'", async () => {
    renderPanel({
      'GET /_api/health/providers': { body: { providers: [provider('gmail'), provider('outlook', { isHealthy: false, failureCount: 1, circuitOpenUntil: at(-MINUTE) }), provider('openai_classification')] } },
    })
    expect(await screen.findByText('Systemic Issues Detected')).toBeInTheDocument()
    expect(within(row('Outlook')).getByText('Degraded')).toBeInTheDocument()
    expect(row('Outlook')).not.toHaveTextContent('Open until')
  })

  it("says 'Error loading provider health: {message}' when the call fails", async () => {
    renderPanel({ 'GET /_api/health/providers': { status: 403, body: { error: 'Admin access required' } } })
    expect(await screen.findByRole('alert')).toHaveTextContent('Error loading provider health: Admin access required')
    expect(screen.queryByText('All Systems Operational')).not.toBeInTheDocument()
  })

  it("Reset posts the service name, toasts the server's message and fetches the providers again", async () => {
    let open = true
    const { calls, user } = renderPanel({
      'GET /_api/health/providers': () => ({
        body: { providers: [provider('gmail', { circuitOpenUntil: open ? at(10 * MINUTE) : null }), provider('outlook'), provider('openai_classification')] },
      }),
      'POST /_api/health/reset-circuit-breaker': () => {
        open = false
        return { body: { success: true, message: 'Circuit breaker for gmail was reset.', provider: provider('gmail') } }
      },
    })
    await user.click(await screen.findByRole('button', { name: 'Reset Gmail circuit breaker' }))
    expect(await toastOf('Circuit breaker for gmail was reset.')).toHaveAttribute('data-type', 'success')
    const reset = calls.filter((call) => call.method === 'POST')
    expect(reset).toHaveLength(1)
    expect(reset[0]).toMatchObject({ path: '/_api/health/reset-circuit-breaker', body: { serviceName: 'gmail' }, headers: { 'X-Requested-With': 'XMLHttpRequest' } })
    expect(await screen.findByText('All Systems Operational')).toBeInTheDocument()
    expect(calls.filter((call) => call.path === '/_api/health/providers')).toHaveLength(2)
  })

  it("a failed Reset toasts 'Reset failed: {message}'", async () => {
    const { user } = renderPanel({
      'GET /_api/health/providers': { body: { providers: healthy() } },
      'POST /_api/health/reset-circuit-breaker': { status: 500, body: { error: 'Database unavailable' } },
    })
    await user.click(await screen.findByRole('button', { name: 'Reset Outlook circuit breaker' }))
    expect(await toastOf('Reset failed: Database unavailable')).toHaveAttribute('data-type', 'error')
    await waitFor(() => expect(screen.getByText('All Systems Operational')).toBeInTheDocument())
  })
})
