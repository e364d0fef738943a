import { useEffect } from 'react'
import { useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { describeUrlError, URL_ERROR_PARAMS } from '../lib/url-errors.ts'
import { URL_ERROR_MESSAGES } from '../messages.ts'

/** SPEC 9 "Timing": URL-error toast 8 s. */
export const URL_ERROR_TOAST_MS = 8_000

/**
 * SPEC 8 "Dashboard URL errors": the dashboard reads error, error_description and message and shows
 * an 8 s toast whose Retry action clears those parameters from the URL.
 */
export function useUrlErrorToast() {
  const [searchParams, setSearchParams] = useSearchParams()
  const described = describeUrlError(searchParams)
  const title = described?.title
  const text = described?.text

  useEffect(() => {
    if (!title) return
    // A fixed id: showing it again (StrictMode, a re-render) updates this toast instead of stacking.
    toast.error(title, {
      id: 'dashboard-url-error',
      description: text,
      duration: URL_ERROR_TOAST_MS,
      action: {
        label: URL_ERROR_MESSAGES.retry,
        onClick: () =>
          setSearchParams(
            (current) => {
              const next = new URLSearchParams(current)
              for (const name of URL_ERROR_PARAMS) next.delete(name)
              return next
            },
            { replace: true },
          ),
      },
    })
  }, [title, text, setSearchParams])
}
