import { randomUUID } from 'node:crypto'
import { FakeHttpError, type FakeRequest } from '../http/fake-server.ts'

/**
 * Graph's error shape and the small part of OData the mail fake understands (providers.md B2):
 * `$select`, `$top`, `$skip`, `$filter` on receivedDateTime or displayName, `$orderby receivedDateTime`,
 * `$search="to:…"`, and the `Prefer` header (`IdType="ImmutableId"`, `odata.maxpagesize`).
 */

/** `{"error":{"code","message","innerError":{date,request-id,client-request-id}}}`, thrown as a FakeHttpError. */
export function graphError(status: number, code: string, message: string, headers: Record<string, string> = {}): FakeHttpError {
  return new FakeHttpError(status, graphErrorBody(code, message), headers, code)
}

export function graphErrorBody(code: string, message: string, innerCode?: string): unknown {
  return {
    error: {
      code,
      message,
      innerError: {
        ...(innerCode ? { code: innerCode } : {}),
        date: new Date().toISOString().slice(0, 19),
        'request-id': randomUUID(),
        'client-request-id': randomUUID(),
      },
    },
  }
}

/** The body of an injected fault, in Graph's shape. */
export function faultBody(status: number): unknown {
  const [code, message] =
    status === 429
      ? ['ApplicationThrottled', 'Application is over its MailboxConcurrency limit.']
      : status === 503
        ? ['ServiceNotAvailable', 'The service is temporarily unavailable. Please retry later.']
        : status === 504
          ? ['UnknownError', 'The request timed out.']
          : status === 401
            ? ['InvalidAuthenticationToken', 'Access token has expired or is not yet valid.']
            : status === 403
              ? ['ErrorAccessDenied', 'Access is denied. Check credentials and try again.']
              : status === 404
                ? ['ErrorItemNotFound', 'The specified object was not found in the store.']
                : status >= 500
                  ? ['ErrorInternalServerError', 'An internal server error occurred. The operation failed.']
                  : ['BadRequest', `Injected fault (${status}).`]
  return graphErrorBody(code, message)
}

export interface Preferences {
  immutableIds: boolean
  maxPageSize?: number
}

/** Parses `Prefer` (several headers arrive joined with ", "): `IdType="ImmutableId"`, `odata.maxpagesize=N`. */
export function preferences(request: FakeRequest): Preferences {
  const raw = request.headers.prefer
  const header = Array.isArray(raw) ? raw.join(', ') : (raw ?? '')
  const parts = header
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
  let immutableIds = false
  let maxPageSize: number | undefined
  for (const part of parts) {
    const [name, value = ''] = part.split('=').map((s) => s.trim())
    const unquoted = value.replace(/^"(.*)"$/, '$1')
    if (name?.toLowerCase() === 'idtype' && unquoted.toLowerCase() === 'immutableid') immutableIds = true
    if (name?.toLowerCase() === 'odata.maxpagesize') {
      const n = Number(unquoted)
      if (Number.isInteger(n) && n > 0) maxPageSize = n
    }
  }
  return { immutableIds, maxPageSize }
}

/** `$select=a,b` → ['a','b'] (undefined when absent). */
export function selectFields(url: URL): string[] | undefined {
  const value = url.searchParams.get('$select')
  if (value === null) return undefined
  const fields = value
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
  return fields.length > 0 ? fields : undefined
}

export function intParam(url: URL, name: string, fallback: number, max: number): number {
  const value = url.searchParams.get(name)
  if (value === null) return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw graphError(400, 'BadRequest', `Invalid value '${value}' for query option '${name}'.`)
  if (name === '$top' && (n < 1 || n > max)) throw graphError(400, 'ErrorInvalidParameter', `The value of '$top' must be between 1 and ${max}.`)
  return n
}

export interface DateFilter {
  op: 'ge' | 'gt' | 'le' | 'lt'
  at: number
}

/**
 * `receivedDateTime ge 2024-01-01T00:00:00Z` (optionally joined with `and`). Graph takes the value
 * unquoted; the fake also accepts it in single quotes.
 */
export function receivedDateFilter(expression: string | null): DateFilter[] {
  if (expression === null) return []
  const clauses = expression.split(/\s+and\s+/i)
  return clauses.map((clause) => {
    const match = /^\s*receivedDateTime\s+(ge|gt|le|lt)\s+'?([0-9T:.Z+-]+)'?\s*$/i.exec(clause)
    const at = match ? Date.parse(match[2] ?? '') : NaN
    if (!match || Number.isNaN(at)) {
      throw graphError(400, 'ErrorInvalidUrlQueryFilter', `The fake supports only receivedDateTime ge|gt|le|lt <date> in $filter, got: ${clause}`)
    }
    return { op: (match[1] ?? 'ge').toLowerCase() as DateFilter['op'], at }
  })
}

export function matchesDate(filters: DateFilter[], time: number): boolean {
  return filters.every((f) => (f.op === 'ge' ? time >= f.at : f.op === 'gt' ? time > f.at : f.op === 'le' ? time <= f.at : time < f.at))
}

/** `displayName eq 'Inbox Guard'` (a quote inside the name is doubled, as OData escapes it). */
export function displayNameFilter(expression: string | null): string | undefined {
  if (expression === null) return undefined
  const match = /^\s*displayName\s+eq\s+'((?:[^']|'')*)'\s*$/i.exec(expression)
  if (!match) throw graphError(400, 'ErrorInvalidUrlQueryFilter', `The fake supports only displayName eq '<name>' in $filter on folders, got: ${expression}`)
  return (match[1] ?? '').replace(/''/g, "'")
}

/** `$search="to:someone@example.com"` → the recipient term (the only KQL the fake understands). */
export function recipientSearch(url: URL): string | undefined {
  const value = url.searchParams.get('$search')
  if (value === null) return undefined
  const match = /^"?\s*to:\s*([^"\s]+)\s*"?$/i.exec(value.trim())
  if (!match) throw graphError(400, 'BadRequest', `The fake supports only $search="to:<address or domain>", got: ${value}`)
  return (match[1] ?? '').toLowerCase()
}

export function orderByReceived(url: URL): 'asc' | 'desc' | undefined {
  const value = url.searchParams.get('$orderby')
  if (value === null) return undefined
  const match = /^\s*receivedDateTime(?:\s+(asc|desc))?\s*$/i.exec(value)
  if (!match) throw graphError(400, 'BadRequest', `The fake supports only $orderby=receivedDateTime [asc|desc], got: ${value}`)
  return (match[1] ?? 'asc').toLowerCase() as 'asc' | 'desc'
}
