import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi, testUser } from '#client/test/fetch-mock.ts'
import { renderApp } from '#client/test/render.tsx'

describe('/dashboard', () => {
  it('is marked noindex', async () => {
    mockApi()
    renderApp('/dashboard')
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' })
    expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toMatch(/noindex/)
  })

  it('signed out: only a placeholder and a sign-in control', async () => {
    mockApi()
    renderApp('/dashboard')
    const signIn = await screen.findByRole('link', { name: 'Sign in' })
    expect(signIn).toHaveAttribute('href', '/login')
    expect(screen.queryByRole('button', { name: 'Sign Out' })).not.toBeInTheDocument()
    expect(screen.queryByTestId('dashboard-grid')).not.toBeInTheDocument()
  })

  it('signed in: shows the email and signs out through the logout call', async () => {
    let signedIn = true
    const { calls } = mockApi({
      'GET /_api/auth/session': () => ({ body: { user: signedIn ? testUser : null } }),
      'POST /_api/auth/logout': () => {
        signedIn = false
        return { body: { success: true } }
      },
    })
    const { user } = renderApp('/dashboard')

    expect(await screen.findByText('ada@example.com')).toBeInTheDocument()
    expect(screen.getByText(/manage your email filtering preferences/i)).toBeInTheDocument()
    expect(screen.getByTestId('dashboard-grid')).toBeInTheDocument()

    calls.length = 0
    await user.click(screen.getByRole('button', { name: 'Sign Out' }))

    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument()
    expect(screen.queryByText('ada@example.com')).not.toBeInTheDocument()
    const logout = calls.find((call) => call.path === '/_api/auth/logout')
    expect(logout).toMatchObject({ method: 'POST', body: {} })
    // The session is checked again after logging out.
    await waitFor(() => expect(calls.some((call) => call.path === '/_api/auth/session')).toBe(true))
  })
})
