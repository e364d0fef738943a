import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'

/**
 * A new page starts at the top, unless the URL targets an anchor (Learn More, legal contents).
 * The page the visitor arrived on is left where it is: it may be prerendered and already scrolled
 * before the JavaScript runs (docs/decisions/020), and the browser restores it on reload.
 */
export function ScrollToTop() {
  const { pathname, hash } = useLocation()
  const arrival = useRef<{ pathname: string; hash: string } | null>({ pathname, hash })
  useEffect(() => {
    if (arrival.current?.pathname === pathname && arrival.current.hash === hash) return
    arrival.current = null
    if (!hash) window.scrollTo({ top: 0, left: 0, behavior: 'instant' })
  }, [pathname, hash])
  return null
}
