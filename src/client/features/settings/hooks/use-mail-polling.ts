import { useEffect, useEffectEvent, useRef } from 'react'
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { usePageVisible } from '#client/lib/use-page-visible.ts'
import { usePollMail } from '../api/poll-mail.ts'
import { settingsQueryOptions } from '../api/get-settings.ts'
import { ACTIVITY_REFRESH_DELAY_MS, nextPollDelay, type PollHistory } from '../lib/poll-schedule.ts'

// One history per query client (per page load in the app, per test in tests), so leaving the
// dashboard and coming back keeps the 30 s gap and the backoff instead of polling again at once.
const histories = new WeakMap<QueryClient, PollHistory>()

function historyOf(queryClient: QueryClient): PollHistory {
  let history = histories.get(queryClient)
  if (!history) {
    history = { lastPollAt: null, failures: 0 }
    histories.set(queryClient, history)
  }
  return history
}

export interface MailPollingOptions {
  /** A mailbox is connected (the dashboard reads the mailbox status checks). Nothing is polled otherwise. */
  connected: boolean
  /** Called ACTIVITY_REFRESH_DELAY_MS after a poll that queued mail, so new decisions appear. */
  onMailQueued?: (emailsQueued: number) => void
}

/**
 * SPEC 4 "Polling": while a mailbox is connected, POST /_api/gmail/poll every 60 s, at least 30 s
 * apart, doubling the interval after each failure up to 5 minutes and resetting after a success
 * (lib/poll-schedule.ts). Paused while the tab is hidden: push notifications keep working without
 * the page, and a hidden tab has nobody to show new mail to; becoming visible again polls at once
 * (30 s after the last poll at the earliest).
 */
export function useMailPolling({ connected, onMailQueued }: MailPollingOptions) {
  const queryClient = useQueryClient()
  const visible = usePageVisible()
  const { mutateAsync: poll } = usePollMail()
  const active = connected && visible
  // The delayed refreshes outlive a pause (the tab hidden meanwhile): cleared only on unmount.
  const refreshTimers = useRef(new Set<number>())
  const unmounted = useRef(false)

  const mailQueued = useEffectEvent((emailsQueued: number) => {
    onMailQueued?.(emailsQueued)
    // The performance metrics count polling events.
    void queryClient.invalidateQueries({ queryKey: settingsQueryOptions().queryKey })
  })

  useEffect(() => {
    if (!active) return
    const history = historyOf(queryClient)
    let stopped = false
    let timer: number | undefined
    const refreshes = refreshTimers.current

    const schedule = (restart: boolean) => {
      timer = window.setTimeout(run, nextPollDelay(history, Date.now(), { restart }))
    }

    async function run() {
      history.lastPollAt = Date.now()
      try {
        const { emailsQueued } = await poll()
        history.failures = 0
        if (emailsQueued > 0 && !unmounted.current) {
          const refresh = window.setTimeout(() => {
            refreshes.delete(refresh)
            mailQueued(emailsQueued)
          }, ACTIVITY_REFRESH_DELAY_MS)
          refreshes.add(refresh)
        }
      } catch {
        history.failures += 1
      }
      if (!stopped) schedule(false)
    }

    schedule(true)
    return () => {
      stopped = true
      window.clearTimeout(timer)
    }
  }, [active, poll, queryClient])

  useEffect(() => {
    const refreshes = refreshTimers.current
    unmounted.current = false
    return () => {
      unmounted.current = true
      for (const refresh of refreshes) window.clearTimeout(refresh)
      refreshes.clear()
    }
  }, [])
}
