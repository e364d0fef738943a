import { useState } from 'react'
import { act, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { WaitlistDialog } from './waitlist-dialog.tsx'

function Harness({ name = '', email = '' }: { name?: string; email?: string }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button onClick={() => setOpen(true)}>Notify me when available</Button>
      <WaitlistDialog open={open} onOpenChange={setOpen} defaultName={name} defaultEmail={email} />
    </>
  )
}

async function openDialog(props: { name?: string; email?: string } = {}) {
  const rendered = renderPage(<Harness {...props} />)
  await rendered.user.click(screen.getByRole('button', { name: 'Notify me when available' }))
  const dialog = await screen.findByRole('dialog')
  return { ...rendered, dialog }
}

describe('Team waitlist dialog', () => {
  it('validates on blur: an empty name and a bad email get their messages', async () => {
    mockApi()
    const { user, dialog } = await openDialog()

    await user.click(within(dialog).getByLabelText('Name'))
    await user.tab()
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument()

    await user.type(within(dialog).getByLabelText('Email'), 'not-an-email')
    await user.tab()
    expect(await within(dialog).findByText('Please enter a valid email address')).toBeInTheDocument()
    expect(within(dialog).getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true')
  })

  it('validates on submit without calling the server', async () => {
    const { calls } = mockApi()
    const { user, dialog } = await openDialog()

    await user.click(within(dialog).getByRole('button', { name: 'Join the waitlist' }))

    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument()
    expect(within(dialog).getByText('Please enter a valid email address')).toBeInTheDocument()
    expect(calls.some((call) => call.path === '/_api/team/waitlist')).toBe(false)
  })

  it('submits name and email and shows the success state', async () => {
    const { calls } = mockApi({ 'POST /_api/team/waitlist': { body: { success: true } } })
    const { user, dialog } = await openDialog({ name: 'Ada Lovelace', email: 'ada@example.com' })

    await user.click(within(dialog).getByRole('button', { name: 'Join the waitlist' }))

    expect(await screen.findByText("You're on the list!")).toBeInTheDocument()
    expect(calls.find((call) => call.path === '/_api/team/waitlist')?.body).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    })
  })

  it('counts an empty OK answer as success', async () => {
    mockApi({ 'POST /_api/team/waitlist': { status: 200 } })
    const { user, dialog } = await openDialog({ name: 'Ada', email: 'ada@example.com' })
    await user.click(within(dialog).getByRole('button', { name: 'Join the waitlist' }))
    expect(await screen.findByText("You're on the list!")).toBeInTheDocument()
  })

  it('shows the server error under the email field', async () => {
    mockApi({ 'POST /_api/team/waitlist': { status: 409, body: { error: 'This email is already on the waitlist.' } } })
    const { user, dialog } = await openDialog({ name: 'Ada', email: 'ada@example.com' })

    await user.click(within(dialog).getByRole('button', { name: 'Join the waitlist' }))

    const message = await within(dialog).findByText('This email is already on the waitlist.')
    expect(within(dialog).getByLabelText('Email')).toHaveAttribute('aria-describedby', message.id)
  })

  it("falls back to 'An unknown error occurred.' when the server gives no reason", async () => {
    mockApi({ 'POST /_api/team/waitlist': { status: 500 } })
    const { user, dialog } = await openDialog({ name: 'Ada', email: 'ada@example.com' })
    await user.click(within(dialog).getByRole('button', { name: 'Join the waitlist' }))
    expect(await within(dialog).findByText('An unknown error occurred.')).toBeInTheDocument()
  })

  it('returns to the prefilled form 300 ms after closing', async () => {
    mockApi({ 'POST /_api/team/waitlist': { body: { success: true } } })
    const { user, dialog } = await openDialog({ name: 'Ada', email: 'ada@example.com' })
    await user.click(within(dialog).getByRole('button', { name: 'Join the waitlist' }))
    await screen.findByText("You're on the list!")

    vi.useFakeTimers({ shouldAdvanceTime: true })
    await user.click(screen.getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    act(() => {
      vi.advanceTimersByTime(300)
    })
    vi.useRealTimers()

    await user.click(screen.getByRole('button', { name: 'Notify me when available' }))
    const reopened = await screen.findByRole('dialog')
    expect(within(reopened).getByRole('button', { name: 'Join the waitlist' })).toBeInTheDocument()
    expect(within(reopened).getByLabelText('Name')).toHaveValue('Ada')
  })
})
