import { useCallback, useEffect, useRef, useState } from 'react'
import type { z } from 'zod'
import { SIGN_IN_MESSAGES } from '#shared/messages.ts'
import { OAUTH_POPUP } from '#shared/product.ts'

/**
 * The OAuth popup mechanics shared by sign-in and mailbox connect (SPEC 4 "OAuth login (login page
 * and mailbox connect)", SPEC 9 "Timing"): a centred 500x600 window, watched until it posts a
 * message, the person closes it (polled every second; a closed popup gets CLOSED_GRACE_MS more for a
 * message already in flight) or five minutes pass (then it is force-closed and the timeout logged).
 * Messages from any origin other than the page's own are ignored, and so are same-origin messages the
 * given schema rejects (extensions and dev tools post messages too).
 */

/** Text for a popup that cannot open (SPEC 8: the same for sign-in, Gmail and Outlook connect). */
export const POPUP_BLOCKED_MESSAGE = SIGN_IN_MESSAGES.popupBlocked

/** window.open features for a 500x600 popup centred over the current window. */
export function popupFeatures(): string {
  const { width, height } = OAUTH_POPUP
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2))
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2))
  return `width=${width},height=${height},left=${left},top=${top},resizable=yes,scrollbars=yes`
}

export function closePopup(popup: Window) {
  try {
    if (!popup.closed) popup.close()
  } catch {
    // A popup on another origin can refuse; it closes itself after posting its message.
  }
}

/** How long a closed popup's message may still be in flight. */
export const CLOSED_GRACE_MS = 500

/** Why a watched popup ended without a message. */
export type PopupAbandonReason = 'closed' | 'timeout'

export interface OpenOAuthPopupOptions<T> {
  /** The authorize endpoint (same origin), opened in the popup, not fetched. */
  url: string
  /** window.open target name; a second open with the same name reuses the window. */
  windowName: string
  /** Validates what the popup posts; anything it rejects is ignored. */
  schema: z.ZodType<T>
  /** Names the flow in the timeout log line, e.g. 'Sign-in' or 'Gmail connect'. */
  label: string
  /**
   * The first valid message. Watching has stopped by then; the popup is closed once this settles
   * (so sign-in closes it after the session exists, as SPEC 4 orders it).
   */
  onMessage: (message: T) => void | Promise<void>
  /** The person closed the popup, or it timed out (already force-closed and logged). */
  onAbandon: (reason: PopupAbandonReason) => void
}

/** A popup being watched; `stop` stops listening and polling and leaves the window alone. */
export interface WatchedPopup {
  popup: Window
  stop: () => void
}

/**
 * Opens the popup and watches it. Returns null when the window cannot open (a popup blocker):
 * show POPUP_BLOCKED_MESSAGE then. Exactly one of onMessage / onAbandon is called, unless `stop`
 * is called first.
 */
export function openOAuthPopup<T>(options: OpenOAuthPopupOptions<T>): WatchedPopup | null {
  const { url, windowName, schema, label, onMessage, onAbandon } = options
  const opened = window.open(url, windowName, popupFeatures())
  if (!opened) return null
  const popup: Window = opened

  let watching = true
  let closedGrace: number | undefined
  const stop = () => {
    if (!watching) return
    watching = false
    window.removeEventListener('message', handleMessage)
    window.clearInterval(closedPoll)
    window.clearTimeout(closedGrace)
    window.clearTimeout(timeout)
  }

  function handleMessage(event: MessageEvent) {
    if (event.origin !== window.location.origin) return
    const parsed = schema.safeParse(event.data)
    if (!parsed.success) return
    stop()
    void Promise.resolve()
      .then(() => onMessage(parsed.data))
      .catch((error: unknown) => console.error(`${label} popup message handler failed`, error))
      .finally(() => closePopup(popup))
  }

  const closedPoll = window.setInterval(() => {
    if (!popup.closed) return
    window.clearInterval(closedPoll)
    // The popup posts its message and closes itself at once, and the opener can see the closure
    // before the message event is dispatched: listen a moment longer before calling it abandoned.
    closedGrace = window.setTimeout(() => {
      stop()
      onAbandon('closed')
    }, CLOSED_GRACE_MS)
  }, OAUTH_POPUP.closedPollMs)

  const timeout = window.setTimeout(() => {
    stop()
    if (!popup.closed) {
      closePopup(popup)
      console.warn(`${label} popup timed out after ${OAUTH_POPUP.timeoutMs} ms and was closed`)
    }
    onAbandon('timeout')
  }, OAUTH_POPUP.timeoutMs)

  window.addEventListener('message', handleMessage)
  return { popup, stop }
}

export interface PopupFlowHandlers<T> {
  /** Names the flow in the timeout log line. */
  label: string
  onMessage: (message: T) => void | Promise<void>
  /** Called when the popup cannot open (after busy has been cleared). */
  onBlocked: () => void
  onAbandon?: (reason: PopupAbandonReason) => void
}

/**
 * React wrapper around openOAuthPopup: `busy` from the click until the popup ends (its message
 * handler settled, closed, timed out), one popup at a time, and no listening after unmount (a popup
 * still open is then left for the person to close).
 */
export function useOAuthPopupWindow<T>({ schema, windowName }: { schema: z.ZodType<T>; windowName: string }) {
  const [busy, setBusy] = useState(false)
  const watchedRef = useRef<WatchedPopup | null>(null)

  useEffect(() => () => watchedRef.current?.stop(), [])

  const open = useCallback(
    (url: string, handlers: PopupFlowHandlers<T>): boolean => {
      watchedRef.current?.stop()
      watchedRef.current = null
      const watched = openOAuthPopup({
        url,
        windowName,
        schema,
        label: handlers.label,
        onMessage: async (message) => {
          watchedRef.current = null
          try {
            await handlers.onMessage(message)
          } finally {
            setBusy(false)
          }
        },
        onAbandon: (reason) => {
          watchedRef.current = null
          setBusy(false)
          handlers.onAbandon?.(reason)
        },
      })
      if (!watched) {
        setBusy(false)
        handlers.onBlocked()
        return false
      }
      watchedRef.current = watched
      setBusy(true)
      return true
    },
    [schema, windowName],
  )

  return { open, busy }
}
