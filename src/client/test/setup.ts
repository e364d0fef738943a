import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { toast } from 'sonner'
import { afterEach, vi } from 'vitest'

// jsdom does not implement scrolling; pages call it on navigation.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo

// sonner and Radix measure with these observers, which jsdom lacks.
class NoopObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return []
  }
}
globalThis.ResizeObserver ??= NoopObserver as unknown as typeof ResizeObserver
globalThis.IntersectionObserver ??= NoopObserver as unknown as typeof IntersectionObserver

// sonner captures the pointer when a toast is pressed (swipe to dismiss); jsdom has no pointer capture.
Element.prototype.setPointerCapture ??= function () {}
Element.prototype.releasePointerCapture ??= function () {}
Element.prototype.hasPointerCapture ??= () => false

afterEach(() => {
  cleanup()
  // sonner keeps toasts in a module-level store and replays active ones to the next Toaster.
  toast.dismiss()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  vi.useRealTimers()
})
