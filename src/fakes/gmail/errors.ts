import { FakeHttpError } from '../http/fake-server.ts'

/**
 * Gmail's error shape (providers.md A4): `{error:{code, message, errors:[{message, domain, reason}], status}}`.
 * Every error the fake answers, injected faults included, uses it, so the adapter's parsing of reasons
 * (rateLimitExceeded, userRateLimitExceeded, backendError, insufficientPermissions, notFound) is exercised.
 */

export interface GmailErrorBody {
  error: {
    code: number
    message: string
    errors: Array<{ message: string; domain: string; reason: string; location?: string; locationType?: string }>
    status: string
  }
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
}

export function gmailErrorBody(
  code: number,
  reason: string,
  message: string,
  options: { domain?: string; status?: string; location?: string } = {},
): GmailErrorBody {
  const detail = {
    message,
    domain: options.domain ?? 'global',
    reason,
    ...(options.location ? { location: options.location, locationType: 'header' } : {}),
  }
  return { error: { code, message, errors: [detail], status: options.status ?? STATUS_NAMES[code] ?? 'UNKNOWN' } }
}

export function gmailError(
  code: number,
  reason: string,
  message: string,
  options: { domain?: string; status?: string; headers?: Record<string, string> } = {},
): FakeHttpError {
  return new FakeHttpError(code, gmailErrorBody(code, reason, message, options), options.headers ?? {}, reason)
}

export const notFound = () => gmailError(404, 'notFound', 'Requested entity was not found.')
export const invalidArgument = (message: string) => gmailError(400, 'invalidArgument', message)

export const unauthenticated = () =>
  new FakeHttpError(
    401,
    {
      error: {
        code: 401,
        message:
          'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
        errors: [{ message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' }],
        status: 'UNAUTHENTICATED',
      },
    },
    { 'WWW-Authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
    'authError',
  )

export const insufficientPermissions = () =>
  new FakeHttpError(
    403,
    gmailErrorBody(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.'),
    { 'WWW-Authenticate': 'Bearer realm="https://accounts.google.com/", error="insufficient_scope"' },
    'insufficientPermissions',
  )

/** Body of an injected fault without an explicit body: what Gmail answers for that status (A4). */
export function gmailFaultBody(status: number): GmailErrorBody {
  switch (status) {
    case 400:
      return gmailErrorBody(400, 'failedPrecondition', 'Mail service not enabled', { status: 'FAILED_PRECONDITION' })
    case 401:
      return unauthenticated().body as GmailErrorBody
    case 403:
      return gmailErrorBody(403, 'userRateLimitExceeded', 'User-rate limit exceeded.', { domain: 'usageLimits' })
    case 404:
      return gmailErrorBody(404, 'notFound', 'Requested entity was not found.')
    case 429:
      return gmailErrorBody(429, 'rateLimitExceeded', 'Resource has been exhausted (e.g. check quota).', { domain: 'usageLimits' })
    case 503:
      return gmailErrorBody(503, 'backendError', 'The service is currently unavailable.')
    default:
      return status >= 500
        ? gmailErrorBody(status, 'backendError', 'Backend Error', { status: 'INTERNAL' })
        : gmailErrorBody(status, 'badRequest', `Injected fault (${status}).`)
  }
}
