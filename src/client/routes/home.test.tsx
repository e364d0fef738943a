import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi, testUser } from '#client/test/fetch-mock.ts'
import { renderApp } from '#client/test/render.tsx'

describe('/ (home)', () => {
  it('shows the hero, the three feature cards and Learn More pointing at them', async () => {
    mockApi()
    renderApp('/')
    expect(screen.getByRole('heading', { level: 1, name: 'Finally, total control over your inbox.' })).toBeInTheDocument()
    for (const title of ['Reclaim Your Inbox', 'AI-Powered Precision', 'Safe & Secure']) {
      expect(screen.getByRole('heading', { level: 3, name: title })).toBeInTheDocument()
    }
    expect(screen.getByRole('link', { name: 'Learn More' })).toHaveAttribute('href', '#features')
    expect(document.getElementById('features')).toContainElement(screen.getByRole('heading', { name: 'Safe & Secure' }))
  })

  it("signed out: 'Get Started - It's Free' goes to /login", async () => {
    mockApi()
    const { user } = renderApp('/')
    const [hero] = await screen.findAllByRole('link', { name: "Get Started - It's Free" })
    expect(screen.queryByRole('link', { name: 'Go to Dashboard' })).not.toBeInTheDocument()

    await user.click(hero!)
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'))
  })

  it("signed in: 'Go to Dashboard' goes to /dashboard", async () => {
    mockApi({}, { user: testUser })
    const { user } = renderApp('/')
    const [hero] = await screen.findAllByRole('link', { name: 'Go to Dashboard' })
    expect(screen.queryByRole('link', { name: "Get Started - It's Free" })).not.toBeInTheDocument()

    await user.click(hero!)
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'))
  })

  it('treats a failed session check as signed out', async () => {
    mockApi({ 'GET /_api/auth/session': { status: 500, body: { error: 'Database unavailable' } } })
    renderApp('/')
    expect((await screen.findAllByRole('link', { name: "Get Started - It's Free" })).length).toBeGreaterThan(0)
  })

  it('sets the page title and description', async () => {
    mockApi()
    renderApp('/')
    await waitFor(() => expect(document.title).toMatch(/Inbox Guard/))
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toMatch(/never deletes mail/)
  })
})
