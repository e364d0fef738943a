import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { openOAuthPopup } from './oauth-popup.ts'

const Schema = z.object({ type: z.literal('DONE'), value: z.string() })

function fakePopup() {
  const popup = { closed: false, close: vi.fn(() => void (popup.closed = true)) }
  const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window)
  return { popup, open }
}

const post = (data: unknown, origin = window.location.origin) => window.dispatchEvent(new MessageEvent('message', { data, origin }))

describe('openOAuthPopup', () => {
  it('returns null when the window cannot open', () => {
    vi.spyOn(window, 'open').mockReturnValue(null)
    expect(openOAuthPopup({ url: '/x', windowName: 'w', schema: Schema, label: 'Test', onMessage: vi.fn(), onAbandon: vi.fn() })).toBeNull()
  })

  it('hands over the first valid same-origin message, and closes the popup only after the handler settles', async () => {
    const { popup } = fakePopup()
    let finish: () => void = () => {}
    const onMessage = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)))
    const onAbandon = vi.fn()
    openOAuthPopup({ url: '/x', windowName: 'w', schema: Schema, label: 'Test', onMessage, onAbandon })

    post({ type: 'DONE', value: 'forged' }, 'https://evil.example')
    post({ type: 'OTHER' })
    expect(onMessage).not.toHaveBeenCalled()

    post({ type: 'DONE', value: 'ok' })
    post({ type: 'DONE', value: 'second' })
    await vi.waitFor(() => expect(onMessage).toHaveBeenCalledTimes(1))
    expect(onMessage).toHaveBeenCalledWith({ type: 'DONE', value: 'ok' })
    expect(popup.close).not.toHaveBeenCalled()
    finish()
    await vi.waitFor(() => expect(popup.close).toHaveBeenCalled())
    expect(onAbandon).not.toHaveBeenCalled()
  })

  it('still takes a message dispatched just after the popup was seen closed', async () => {
    vi.useFakeTimers()
    const { popup } = fakePopup()
    const onMessage = vi.fn()
    const onAbandon = vi.fn()
    openOAuthPopup({ url: '/x', windowName: 'w', schema: Schema, label: 'Test', onMessage, onAbandon })
    popup.closed = true
    vi.advanceTimersByTime(1_200)
    post({ type: 'DONE', value: 'late' })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(onMessage).toHaveBeenCalledWith({ type: 'DONE', value: 'late' })
    expect(onAbandon).not.toHaveBeenCalled()
  })

  it('reports a closed popup (checked every second, then 500 ms for a message in flight) and a timeout after 5 minutes, logged with the label', () => {
    vi.useFakeTimers()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const first = fakePopup()
    const onAbandon = vi.fn()
    openOAuthPopup({ url: '/x', windowName: 'w', schema: Schema, label: 'Gmail connect', onMessage: vi.fn(), onAbandon })
    first.popup.closed = true
    vi.advanceTimersByTime(1_000)
    expect(onAbandon).not.toHaveBeenCalled() // its message may still be in flight
    vi.advanceTimersByTime(500)
    expect(onAbandon).toHaveBeenCalledWith('closed')

    const second = fakePopup()
    const onTimeout = vi.fn()
    openOAuthPopup({ url: '/x', windowName: 'w', schema: Schema, label: 'Gmail connect', onMessage: vi.fn(), onAbandon: onTimeout })
    vi.advanceTimersByTime(299_999)
    expect(onTimeout).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(second.popup.close).toHaveBeenCalled()
    expect(onTimeout).toHaveBeenCalledWith('timeout')
    expect(warn).toHaveBeenCalledWith('Gmail connect popup timed out after 300000 ms and was closed')
  })
})
