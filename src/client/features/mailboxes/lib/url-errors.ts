import { URL_ERROR_MESSAGES, type UrlErrorText } from '../messages.ts'

/** The query parameters the dashboard reads (SPEC 2 "/dashboard", SPEC 8 "Dashboard URL errors"). */
export const URL_ERROR_PARAMS = ['error', 'error_description', 'message'] as const

/**
 * SPEC 8 "Dashboard URL errors": `message` wins (a credential or token failure gets the fixed
 * text, anything else is shown as it is); otherwise the error code picks the title and text; an
 * unknown code shows error_description or the generic text. No parameters: nothing to show.
 */
export function describeUrlError(params: URLSearchParams): UrlErrorText | null {
  const message = params.get('message')
  if (message) {
    return {
      title: URL_ERROR_MESSAGES.connectionFailedTitle,
      text: /credential|token/i.test(message) ? URL_ERROR_MESSAGES.credentialFailure : message,
    }
  }
  const code = params.get('error')
  if (!code) return null
  const known = Object.hasOwn(URL_ERROR_MESSAGES.byCode, code)
    ? URL_ERROR_MESSAGES.byCode[code as keyof typeof URL_ERROR_MESSAGES.byCode]
    : undefined
  if (known) return known
  return {
    title: URL_ERROR_MESSAGES.otherTitle,
    text: params.get('error_description') || URL_ERROR_MESSAGES.otherFallback(code),
  }
}

/** Whether the URL carries any of the error parameters. */
export const hasUrlError = (params: URLSearchParams) => URL_ERROR_PARAMS.some((name) => params.has(name))
