import type { FastifySchemaCompiler } from 'fastify'
import { validatorCompiler } from 'fastify-type-provider-zod'
import type { ZodType } from 'zod'
import { ClientError } from '#server/plugins/error-handler.ts'
import { findUnstorableText, makeStorable, toStorableText } from '#server/lib/storable-text.ts'

/** Schemas whose input is made storable instead of refused (see acceptingUnstorableText). */
const lenientSchemas = new WeakSet<object>()

/**
 * Marks a request schema whose caller cannot be shown a JSON error, such as a provider redirect into
 * the sign-in popup: unstorable characters there become U+FFFD and the route answers as it would
 * for any other wrong value (and its audit record can still be written).
 */
export function acceptingUnstorableText<T extends ZodType>(schema: T): T {
  lenientSchemas.add(schema)
  return schema
}

export class UnstorableTextError extends ClientError {
  constructor(path: string[]) {
    const field = path.length > 0 ? `The field "${toStorableText(path.join('.'))}"` : 'The request'
    super(400, 'invalid_text', `${field} contains a character that cannot be stored (a NUL character or invalid Unicode). Remove it and try again.`)
  }
}

/**
 * The one mechanism that keeps unstorable text out of the database (issue 11 item 3): every request
 * part a route declares a schema for (body, query, params) is checked before its zod schema runs,
 * so such input is a 400 with a clear message on every route, never a 500 from the database.
 */
export const checkedValidatorCompiler: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = validatorCompiler(route)
  const lenient = lenientSchemas.has(route.schema)
  return (data: unknown) => {
    if (lenient) return validate(makeStorable(data))
    const path = findUnstorableText(data)
    if (path) return { error: new UnstorableTextError(path) }
    return validate(data)
  }
}
