import { useEffect } from 'react'
import { useLocation } from 'react-router'

/** A new page starts at the top, unless the URL targets an anchor (Learn More, legal contents). */
export function ScrollToTop() {
  const { pathname, hash } = useLocation()
  useEffect(() => {
    if (!hash) window.scrollTo({ top: 0, left: 0, behavior: 'instant' })
  }, [pathname, hash])
  return null
}
