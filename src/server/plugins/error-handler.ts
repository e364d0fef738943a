import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'

/** A client error with its own status and code; the handler answers `{ error: message, code }`. */
export class ClientError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

export class InvalidJsonError extends ClientError {
  constructor() {
    super(400, 'invalid_json', 'Request body is not valid JSON')
  }
}

export class ForbiddenJsonKeyError extends ClientError {
  constructor() {
    super(400, 'forbidden_json_key', 'Request body must not contain "__proto__" or "constructor.prototype" keys')
  }
}

/**
 * One central error handler (STYLE.md 9): every /_api error is `{ error, code? }`. Bad input is
 * always 4xx with an actionable message; a 5xx never leaks internals (they go to the log only).
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler(handleApiError)
}

export function handleApiError(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(err)) {
    const first = err.validation[0]
    return reply.code(400).send({ error: first?.message ?? 'Invalid request', code: 'validation_error' })
  }
  if (err.statusCode === 429) {
    return reply.code(429).send({ error: 'Too many requests. Please wait a moment and try again.', code: 'rate_limited' })
  }
  if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) {
    return reply.code(400).send({ error: 'Request body is not valid JSON', code: 'invalid_json' })
  }
  const status = err.statusCode ?? 500
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (unsupported media type, body too large, bad URL, ...).
    return reply.code(status).send({ error: err.message, code: err.code?.toLowerCase() ?? 'bad_request' })
  }
  request.log.error({ err }, 'unhandled error')
  return reply.code(500).send({ error: 'Internal server error', code: 'internal_error' })
}
