import type { FastifyError, FastifyInstance } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'

/**
 * One central error handler (STYLE.md 9): every /_api error is `{ error, code? }`. Bad input is
 * always 4xx with an actionable message; a 5xx never leaks internals (they go to the log only).
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
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
  })
}
