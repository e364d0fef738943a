import { useEffect, useState } from 'react'

/** The current time, updated every `intervalMs`, so a relative time ("5 seconds ago") stays true while shown. */
export function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs)
    return () => window.clearInterval(timer)
  }, [intervalMs])
  return now
}
