import type { z } from 'zod'
import type { ContractBody, ContractDefinition, ContractParams, ContractQuery, ContractResponse } from '#shared/api/contract.ts'

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
  /** The whole parsed error body, for fields a contract declares beside `error` (a disconnect's `warning`). */
  readonly body: unknown

  constructor(
    message: string,
    init: { status: number; error?: string; code?: string; details?: Record<string, unknown>; body?: unknown },
  ) {
    super(message)
    this.status = init.status
    this.error = init.error
    this.code = init.code
    this.details = init.details
    this.body = init.body
  }
}

export interface RequestOptions {
  /** Message used when a non-OK answer has no `error` field (SPEC 8 per-call defaults). */
  fallbackError?: string
  signal?: AbortSignal
}

interface RequestInit extends RequestOptions {
  /** Sends X-Requested-With (SPEC 7 "(secure)" calls). */
  secure?: boolean
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

async function request<T>(method: 'GET' | 'POST', path: string, body: unknown, options: RequestInit): Promise<T> {
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
    throw new ApiError(message, { status: response.status, error, code, details, body: data })
  }
  return data as T
}

/**
 * `/_api/x/:id` with `{ id: 'a b' }` → `/_api/x/a%20b`. Kept here rather than imported from the
 * contract module: that module loads zod (its error schema), and this client is in the app chunk that
 * every page loads, which must not (docs/decisions/020-prerendered-public-pages.md).
 */
function fillPath(path: string, params?: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = params?.[name]
    if (value === undefined) throw new Error(`${path}: missing path parameter ${name}`)
    return encodeURIComponent(String(value))
  })
}

/** What a call sends: the contract's body, query and path parameters, each where it declares one. */
export type CallInput<C extends ContractDefinition> = (C['body'] extends z.ZodType ? { body: ContractBody<C> } : { body?: undefined }) &
  (C['query'] extends z.ZodType ? { query: ContractQuery<C> } : { query?: undefined }) &
  (C['params'] extends z.ZodType ? { params: ContractParams<C> } : { params?: undefined })

/**
 * Calls an endpoint through its shared contract (issue 12): method, path and the secure header come
 * from the contract; the answer is typed from its 200 schema (an empty OK body reads as undefined).
 * A non-OK answer throws ApiError.
 */
export function callApi<C extends ContractDefinition>(contract: C, input?: CallInput<C>, options: RequestOptions = {}): Promise<ContractResponse<C>> {
  let path = fillPath(contract.path, input?.params as Record<string, string> | undefined)
  const query = input?.query as Record<string, unknown> | undefined
  if (query) {
    const search = new URLSearchParams()
    for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') search.set(key, String(value))
    const text = search.toString()
    if (text) path = `${path}?${text}`
  }
  const body = contract.method === 'GET' ? undefined : (input?.body ?? {})
  return request<ContractResponse<C>>(contract.method, path, body, { ...options, secure: contract.secure })
}
