import type { ReactNode } from 'react'
import { renderHook, waitFor } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { mockApi, testUser } from '#client/test/fetch-mock.ts'
import { createTestQueryClient } from '#client/test/render.tsx'
import { useAuth } from './use-auth.ts'

function renderUseAuth() {
  const queryClient = createTestQueryClient()
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  )
  return renderHook(() => useAuth(), { wrapper })
}

describe('useAuth', () => {
  it('is loading, then authenticated with the session user', async () => {
    mockApi({}, { user: testUser })
    const { result } = renderUseAuth()
    expect(result.current.status).toBe('loading')
    await waitFor(() => expect(result.current).toEqual({ status: 'authenticated', user: testUser, error: null }))
  })

  it('is unauthenticated without a user', async () => {
    mockApi()
    const { result } = renderUseAuth()
    await waitFor(() => expect(result.current).toEqual({ status: 'unauthenticated', user: null, error: null }))
  })

  it("is unauthenticated with the server's error message when the check fails", async () => {
    mockApi({ 'GET /_api/auth/session': { status: 500, body: { error: 'Database unavailable' } } })
    const { result } = renderUseAuth()
    await waitFor(() => expect(result.current).toMatchObject({ status: 'unauthenticated', error: 'Database unavailable' }))
  })

  it("defaults the error to 'Session check failed'", async () => {
    mockApi({ 'GET /_api/auth/session': { status: 502 } })
    const { result } = renderUseAuth()
    await waitFor(() => expect(result.current).toMatchObject({ status: 'unauthenticated', error: 'Session check failed' }))
  })
})
