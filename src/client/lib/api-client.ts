/**
 * The one fetch wrapper of the client (STYLE.md 17, 22; SPEC 7 "The calls it makes").
 *
 * Every call sends a JSON content type and includes credentials (the session is a cookie).
 * Calls marked secure in SPEC 7 also send X-Requested-With, which the server's CSRF guard checks.
 * A non-OK answer throws an ApiError whose message is the server's `error` field, so retry rules
 * and UI texts can read `error.message` directly.
 */

export class ApiError extends Error {
  override readonly name = 'ApiError'
  /** HTTP status; 0 when the request never reached the server. */
  readonly status: number
  /** The server's `error` field, when it sent one. */
  readonly error: string | undefined
  /** The server's machine-readable `code`, when it sent one. */
  readonly code: string | undefined
  readonly details: Record<string, unknown> | undefined

  constructor(
    message: string,
    init: { status: number; error?: string; code?: string; details?: Record<string, unknown> },
  ) {
    super(message)
    this.status = init.status
    this.error = init.error
    this.code = init.code
    this.details = init.details
  }
}

export interface RequestOptions {
  /** Sends X-Requested-With (SPEC 7 "(secure)" calls). */
  secure?: boolean
  /** Message used when a non-OK answer has no `error` field (SPEC 8 per-call defaults). */
  fallbackError?: string
  signal?: AbortSignal
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text()
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

async function request<T>(method: 'GET' | 'POST', path: string, body: unknown, options: RequestOptions): Promise<T> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' }
  if (options.secure) headers['X-Requested-With'] = 'XMLHttpRequest'

  const response = await fetch(path, {
    method,
    headers,
    credentials: 'include',
    body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
    signal: options.signal,
  })
  const data = await readBody(response)

  if (!response.ok) {
    const error = isRecord(data) && typeof data.error === 'string' && data.error !== '' ? data.error : undefined
    const code = isRecord(data) && typeof data.code === 'string' ? data.code : undefined
    const details = isRecord(data) && isRecord(data.details) ? data.details : undefined
    const message = error ?? options.fallbackError ?? `HTTP error! status: ${response.status}`
    throw new ApiError(message, { status: response.status, error, code, details })
  }
  return data as T
}

export const apiClient = {
  get: <T>(path: string, options: RequestOptions = {}) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body: unknown = {}, options: RequestOptions = {}) => request<T>('POST', path, body, options),
}
