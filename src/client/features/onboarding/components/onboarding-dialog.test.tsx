import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { OnboardingDialog } from './onboarding-dialog.tsx'

describe('the onboarding dialog (SPEC 2 "Modals", 4 "Onboarding")', () => {
  afterEach(() => vi.restoreAllMocks())

  it('shows the product name and four steps; Get Started completes it and closes 300 ms later', async () => {
    const { calls } = mockApi({ 'POST /_api/onboarding/complete': { body: { success: true } } })
    const onCompleted = vi.fn()
    const { user } = renderPage(<OnboardingDialog open onCompleted={onCompleted} />)
    const dialog = screen.getByRole('dialog', { name: 'Welcome to Inbox Guard' })
    const steps = screen.getAllByRole('listitem')
    expect(steps.map((step) => step.textContent)).toEqual([
      expect.stringContaining('Connect your email'),
      expect.stringMatching(/Authorize permissions.*1-2 minutes/),
      expect.stringContaining('Configure filtering'),
      expect.stringMatching(/whitelist.*still in testing|still in testing.*whitelist/),
    ])
    await user.click(screen.getByRole('button', { name: 'Get Started' }))
    await waitFor(() => expect(dialog).not.toBeInTheDocument())
    await waitFor(() => expect(onCompleted).toHaveBeenCalledTimes(1))
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({ path: '/_api/onboarding/complete', body: {} })
  })

  it('stays shut for a user who completed it', () => {
    mockApi()
    renderPage(<OnboardingDialog open={false} onCompleted={vi.fn()} />)
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })
})
