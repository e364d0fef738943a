import { vi } from 'vitest'
import type { SessionUser } from '#shared/api/auth.ts'

type Reply = { status?: number; body?: unknown } | ((body: unknown) => { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }>)

export interface RecordedCall {
  method: string
  path: string
  /** The query parameters, e.g. { page: '1', limit: '25' }. */
  query: Record<string, string>
  body: unknown
  headers: Record<string, string>
}

export const testUser: SessionUser = {
  id: 7,
  displayName: 'Ada Lovelace',
  email: 'ada@example.com',
  role: 'user',
  hasCompletedOnboarding: true,
  createdAt: '2025-09-01T00:00:00.000Z',
}

/**
 * Stubs fetch at the network boundary with replies keyed by 'METHOD /path'. Unlisted calls get
 * sensible defaults (signed out, not demo mode, no subscription endpoint yet, no mailbox for the
 * System Status card). Returns the calls.
 */
export function mockApi(routes: Record<string, Reply> = {}, { user = null as SessionUser | null } = {}) {
  const defaults: Record<string, Reply> = {
    'GET /_api/auth/session': { body: { user } },
    'GET /_api/app/info': { body: { demoMode: false, productName: 'Inbox Guard', supportEmail: 'support@inboxguard.app' } },
    'GET /_api/billing/subscription': { status: 404, body: { error: 'Not Found' } },
    // The System Status card sits on every signed-in dashboard: no mailbox, nothing pushed.
    'GET /_api/heartbeat/status': {
      body: { heartbeatStatus: 'unknown_provider', lastEmailProcessedAt: null, message: 'Connect Gmail or Outlook to start filtering.', lastSyncAt: null },
    },
    'GET /_api/webhooks/status': { body: { gmail: null, outlook: null } },
  }
  const table = { ...defaults, ...routes }
  const calls: RecordedCall[] = []

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost')
    const method = (init.method ?? 'GET').toUpperCase()
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined
    calls.push({ method, path: url.pathname, query: Object.fromEntries(url.searchParams), body, headers: { ...(init.headers as Record<string, string>) } })
    const entry = table[`${method} ${url.pathname}`]
    if (!entry) return new Response(JSON.stringify({ error: 'Not Found' }), { status: 404 })
    const reply = typeof entry === 'function' ? await entry(body) : entry
    const payload = reply.body === undefined ? '' : JSON.stringify(reply.body)
    return new Response(payload, { status: reply.status ?? 200, headers: { 'Content-Type': 'application/json' } })
  })
  vi.stubGlobal('fetch', fetchMock)
  return { calls, fetchMock }
}
