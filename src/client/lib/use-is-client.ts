import { useSyncExternalStore } from 'react'

const subscribeNever = () => () => {}

/**
 * False while rendering on the server and while hydrating a prerendered page, true afterwards and in
 * pages rendered on the client from the start. What depends on the URL's query or on the browser
 * waits for it, so hydration meets the markup the server sent (docs/decisions/020).
 */
export function useIsClient(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  )
}
