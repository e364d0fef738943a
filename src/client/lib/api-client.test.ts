import { describe, expect, it, vi } from 'vitest'
import { ApiError, apiClient } from './api-client.ts'

function stubFetch(response: Response) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => response)
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

describe('apiClient', () => {
  it('sends JSON with credentials, and X-Requested-With only on secure calls', async () => {
    const fetchMock = stubFetch(new Response('{"ok":true}'))
    await apiClient.post('/_api/x', { a: 1 }, { secure: true })
    const init = fetchMock.mock.calls[0]![1]!
    expect(init.credentials).toBe('include')
    expect(init.body).toBe('{"a":1}')
    expect(init.headers).toMatchObject({ 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' })

    const plain = stubFetch(new Response('{}'))
    await apiClient.get('/_api/y')
    expect(plain.mock.calls[0]![1]!.headers).not.toHaveProperty('X-Requested-With')
  })

  it('throws an ApiError carrying status, error and code', async () => {
    stubFetch(new Response(JSON.stringify({ error: 'Authentication required', code: 'unauthenticated' }), { status: 401 }))
    const error = await apiClient.get('/_api/z').catch((cause: unknown) => cause)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ message: 'Authentication required', status: 401, error: 'Authentication required', code: 'unauthenticated' })
  })

  it('uses the per-call fallback, else the HTTP status, when the body has no error field', async () => {
    stubFetch(new Response('<html>Bad gateway</html>', { status: 502 }))
    await expect(apiClient.get('/_api/z', { fallbackError: 'Failed to fetch subscription data.' })).rejects.toThrow(
      'Failed to fetch subscription data.',
    )
    stubFetch(new Response('', { status: 503 }))
    await expect(apiClient.get('/_api/z')).rejects.toThrow('HTTP error! status: 503')
  })

  it('reads an empty OK body as undefined', async () => {
    stubFetch(new Response('', { status: 200 }))
    await expect(apiClient.post('/_api/team/waitlist', {})).resolves.toBeUndefined()
  })
})
