import type { IncomingMessage, ServerResponse } from 'node:http'
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino'
import type { Config } from '#server/config.ts'

/**
 * SPEC 8 (last line): logs redact tokens, secrets, e-mail addresses and sensitive URL query values.
 * Three layers: `redact` paths for structured fields, a URL serializer for request lines, and a
 * logMethod hook that masks e-mail addresses inside free-text messages.
 */

// Bounded as addresses are (64 before the @, 253 after): unbounded runs made a long URL without an
// @ cost time quadratic in its length (a 1 MB query value blocked the event loop for minutes).
const EMAIL_PATTERN = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}/g
export const maskEmails = (text: string) => text.replace(EMAIL_PATTERN, '[email]')

/** Query parameters that carry one-time secrets or personal data in OAuth and API URLs. */
const SENSITIVE_QUERY_KEYS = new Set([
  'code',
  'state',
  'token',
  'temptoken',
  'access_token',
  'id_token',
  'refresh_token',
  'code_verifier',
  'code_challenge',
  'nonce',
  'client_secret',
  'session_state',
  'validationtoken',
  'email',
  'login_hint',
])

export function maskUrl(url: string): string {
  const q = url.indexOf('?')
  if (q === -1) return maskEmails(url)
  const path = url.slice(0, q)
  const params = new URLSearchParams(url.slice(q + 1))
  const masked = new URLSearchParams()
  for (const [key, value] of params) {
    masked.append(key, SENSITIVE_QUERY_KEYS.has(key.toLowerCase()) ? '[redacted]' : maskEmails(value))
  }
  return `${maskEmails(path)}?${masked.toString().replaceAll('%5Bredacted%5D', '[redacted]')}`
}

// `code` is not here: error codes (ENOTFOUND, 23505, …) must stay readable, and OAuth codes only
// travel in URLs (masked by maskUrl) and request bodies (never logged).
const SECRET_KEYS = [
  'token',
  'tempToken',
  'accessToken',
  'refreshToken',
  'idToken',
  'access_token',
  'refresh_token',
  'id_token',
  'codeVerifier',
  'code_verifier',
  'state',
  'nonce',
  'secret',
  'clientSecret',
  'client_secret',
  'password',
  'apiKey',
  'email',
  'cookie',
  'authorization',
]

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((k) => `*.${k}`),
  ...SECRET_KEYS.map((k) => `*.*.${k}`),
]

/**
 * Error serializer with an allowlist (issue 11 item 2): a failed query must never put its
 * parameters in the log, and database errors carry values in `params`, `detail`, `where`, the
 * Drizzle message ("params: …") and the stack. What stays: the type, a message cut before any value,
 * the query's shape (SQL with $n placeholders), the driver's error code and the schema names
 * (constraint, table, column) that say what failed, and the same for every `cause`.
 */
const SAFE_ERROR_FIELDS = ['code', 'errno', 'syscall', 'statusCode', 'severity', 'routine', 'constraint', 'table', 'column', 'schema', 'dataType'] as const
const NETWORK_FIELDS = ['address', 'port', 'hostname'] as const
const MAX_CAUSE_DEPTH = 4

type SerializedError = Record<string, unknown>

const isDatabaseError = (err: Record<string, unknown>) =>
  typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code) && ('severity' in err || 'routine' in err)

function safeMessage(err: Record<string, unknown>): string {
  const message = typeof err.message === 'string' ? err.message : ''
  // Drizzle: "Failed query: <sql>\nparams: <values>".
  const params = message.indexOf('\nparams:')
  if (params !== -1) return message.slice(0, params)
  // PostgreSQL puts the offending value after a colon ('invalid input syntax for type integer: "x"').
  if (isDatabaseError(err)) {
    const colon = message.indexOf(': ')
    return colon === -1 ? message : `${message.slice(0, colon)}: [value]`
  }
  return maskEmails(message)
}

function serializeOne(value: unknown, depth: number): SerializedError | string {
  if (typeof value !== 'object' || value === null) return typeof value === 'string' ? maskEmails(value) : String(value)
  const err = value as Record<string, unknown>
  const message = safeMessage(err)
  const out: SerializedError = { type: (err.constructor as { name?: string } | undefined)?.name ?? 'Error', message }
  if (typeof err.stack === 'string') {
    const raw = typeof err.message === 'string' ? err.message : ''
    const stack = raw ? err.stack.replace(raw, message) : err.stack
    out.stack = maskEmails(stack)
  }
  for (const key of SAFE_ERROR_FIELDS) {
    const field = err[key]
    if (typeof field === 'string' || typeof field === 'number') out[key] = field
  }
  if (!isDatabaseError(err)) {
    for (const key of NETWORK_FIELDS) {
      const field = err[key]
      if (typeof field === 'string' || typeof field === 'number') out[key] = field
    }
  }
  // The query's shape only (placeholders, never the values).
  if (typeof err.query === 'string' && Array.isArray(err.params)) out.query = err.query
  if (depth < MAX_CAUSE_DEPTH && err.cause !== undefined) out.cause = serializeOne(err.cause, depth + 1)
  if (depth < MAX_CAUSE_DEPTH && Array.isArray(err.errors)) out.errors = err.errors.slice(0, 5).map((e) => serializeOne(e, depth + 1))
  return out
}

export const serializeError = (err: unknown) => serializeOne(err, 0)

interface RequestLike {
  method?: string
  url?: string
  hostname?: string
  ip?: string
  socket?: { remoteAddress?: string }
  raw?: IncomingMessage
}

export function loggerOptions(config: Pick<Config, 'logLevel'>): LoggerOptions {
  return {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: RequestLike) => ({
        method: req.method,
        url: req.url ? maskUrl(req.url) : undefined,
        remoteAddress: req.ip ?? req.socket?.remoteAddress,
      }),
      res: (res: ServerResponse | { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: serializeError,
    },
    hooks: {
      logMethod(args, method) {
        const masked = args.map((a) => (typeof a === 'string' ? maskEmails(a) : a)) as Parameters<typeof method>
        method.apply(this, masked)
      },
    },
  }
}

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return destination ? pino(loggerOptions(config), destination) : pino(loggerOptions(config))
}
