import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { defineContract, errorResponses } from '#shared/api/contract.ts'
import { ApiError, callApi } from './api-client.ts'

function stubFetch(response: Response) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => response)
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

const secureContract = defineContract({
  method: 'POST',
  path: '/_api/things/:id/rename',
  secure: true,
  params: z.object({ id: z.string() }),
  body: z.object({ a: z.number() }),
  responses: { 200: z.object({ ok: z.boolean() }), ...errorResponses(400) },
})
const plainContract = defineContract({
  method: 'GET',
  path: '/_api/things',
  query: z.object({ page: z.number().optional(), filter: z.string().optional() }),
  responses: { 200: z.object({ items: z.array(z.string()) }) },
})
const emptyContract = defineContract({ method: 'POST', path: '/_api/empty', responses: { 200: z.object({}) } })

describe('callApi', () => {
  it('takes method, path and the secure header from the contract, and sends JSON with credentials', async () => {
    const fetchMock = stubFetch(new Response('{"ok":true}'))
    const data = await callApi(secureContract, { params: { id: 'a b' }, body: { a: 1 } })
    expect(data).toEqual({ ok: true })
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe('/_api/things/a%20b/rename')
    expect(init!.method).toBe('POST')
    expect(init!.credentials).toBe('include')
    expect(init!.body).toBe('{"a":1}')
    expect(init!.headers).toMatchObject({ 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' })
  })

  it('puts the query in the URL and sends no body or secure header on GET', async () => {
    const fetchMock = stubFetch(new Response('{"items":[]}'))
    await callApi(plainContract, { query: { page: 2, filter: undefined } })
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe('/_api/things?page=2')
    expect(init!.body).toBeUndefined()
    expect(init!.headers).not.toHaveProperty('X-Requested-With')
  })

  it('throws an ApiError carrying status, error and code', async () => {
    stubFetch(new Response(JSON.stringify({ error: 'Authentication required', code: 'unauthenticated' }), { status: 401 }))
    const error = await callApi(plainContract, { query: {} }).catch((cause: unknown) => cause)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ message: 'Authentication required', status: 401, error: 'Authentication required', code: 'unauthenticated' })
  })

  it('keeps the whole error body, so fields beside error (a warning) can be read', async () => {
    stubFetch(new Response(JSON.stringify({ error: 'No Gmail account is connected.', warning: 'Revoke it in Google too.' }), { status: 404 }))
    const error = await callApi(plainContract, { query: {} }).catch((cause: unknown) => cause)
    expect(error).toMatchObject({ status: 404, body: { error: 'No Gmail account is connected.', warning: 'Revoke it in Google too.' } })
  })

  it('uses the per-call fallback, else the HTTP status, when the body has no error field', async () => {
    stubFetch(new Response('<html>Bad gateway</html>', { status: 502 }))
    await expect(callApi(plainContract, { query: {} }, { fallbackError: 'Failed to fetch subscription data.' })).rejects.toThrow(
      'Failed to fetch subscription data.',
    )
    stubFetch(new Response('', { status: 503 }))
    await expect(callApi(plainContract, { query: {} })).rejects.toThrow('HTTP error! status: 503')
  })

  it('reads an empty OK body as undefined, and sends {} when the contract has no body', async () => {
    const fetchMock = stubFetch(new Response('', { status: 200 }))
    await expect(callApi(emptyContract)).resolves.toBeUndefined()
    expect(fetchMock.mock.calls[0]![1]!.body).toBe('{}')
  })
})
