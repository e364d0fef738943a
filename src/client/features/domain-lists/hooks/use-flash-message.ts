import { useCallback, useEffect, useState } from 'react'

/** SPEC 8 "Domain lists": success messages vanish after 3 s, errors after 5 s. */
export const SUCCESS_MESSAGE_MS = 3_000
export const ERROR_MESSAGE_MS = 5_000

export interface FlashMessage {
  tone: 'success' | 'error'
  text: string
}

/**
 * One message at a time under a form; a new one replaces the old and starts its own clock (showing
 * the same text again starts it afresh).
 */
export function useFlashMessage() {
  const [flash, setFlash] = useState<FlashMessage | null>(null)

  useEffect(() => {
    if (!flash) return
    const timer = window.setTimeout(() => setFlash(null), flash.tone === 'success' ? SUCCESS_MESSAGE_MS : ERROR_MESSAGE_MS)
    return () => window.clearTimeout(timer)
  }, [flash])

  const show = useCallback((tone: FlashMessage['tone'], text: string) => setFlash({ tone, text }), [])
  const clear = useCallback(() => setFlash(null), [])
  return { flash, show, clear }
}
