import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderApp } from '#client/test/render.tsx'

describe('Not Found', () => {
  it('any unknown path shows Page not found with a link home', async () => {
    mockApi()
    const { user } = renderApp('/no/such/page')

    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument()
    await waitFor(() => expect(document.title).toMatch(/^Page not found/))

    await user.click(screen.getByRole('link', { name: 'Go back home' }))
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/)
    expect(screen.getByRole('heading', { level: 1, name: 'Finally, total control over your inbox.' })).toBeInTheDocument()
  })
})
