import type { IncomingMessage, ServerResponse } from 'node:http'
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino'
import type { Config } from '#server/config.ts'

/**
 * SPEC 8 (last line): logs redact tokens, secrets, e-mail addresses and sensitive URL query values.
 * Three layers: `redact` paths for structured fields, a URL serializer for request lines, and a
 * logMethod hook that masks e-mail addresses inside free-text messages.
 */

const EMAIL_PATTERN = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g
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

const SECRET_KEYS = [
  'token',
  'tempToken',
  'accessToken',
  'refreshToken',
  'idToken',
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'codeVerifier',
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
      err: (err: Error) => {
        const s = pino.stdSerializers.err(err)
        return { ...s, message: maskEmails(s.message), stack: s.stack ? maskEmails(s.stack) : s.stack }
      },
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
