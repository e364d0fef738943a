/**
 * The mail polling schedule (SPEC 4 "Polling", SPEC 9 "Timing"): every 60 s, never two polls less
 * than 30 s apart, and after each failure the interval doubles (120 s, 240 s) up to a 5-minute cap;
 * a success resets it.
 */
export const POLL_INTERVAL_MS = 60_000
export const POLL_MIN_GAP_MS = 30_000
export const POLL_MAX_INTERVAL_MS = 5 * 60_000

/** How long after a poll that queued mail the decision list is refreshed: the sync job needs a moment. */
export const ACTIVITY_REFRESH_DELAY_MS = 5_000

/** Where polling stands: when the last poll started and how many polls in a row have failed. */
export interface PollHistory {
  lastPollAt: number | null
  failures: number
}

/** The wait between polls after `failures` failures in a row: 60 s, doubled per failure, at most 5 min. */
export function pollInterval(failures: number): number {
  return Math.min(POLL_INTERVAL_MS * 2 ** failures, POLL_MAX_INTERVAL_MS)
}

/**
 * Milliseconds until the next poll. `restart` is true when polling (re)starts: the dashboard is
 * shown with a connected mailbox, a mailbox was just connected, or the tab became visible again.
 * A restart polls at once, or 30 s after the last poll if that was more recent, so returning to the
 * tab brings new mail promptly; a failure streak keeps its backoff even then.
 */
export function nextPollDelay(history: PollHistory, now: number, { restart }: { restart: boolean }): number {
  if (history.lastPollAt === null) return 0
  const wait = history.failures > 0 ? pollInterval(history.failures) : restart ? POLL_MIN_GAP_MS : POLL_INTERVAL_MS
  return Math.max(0, history.lastPollAt + Math.max(wait, POLL_MIN_GAP_MS) - now)
}
