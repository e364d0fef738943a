import type { z } from 'zod'
import { ApiErrorSchema } from './errors.ts'

/**
 * One contract per /_api endpoint (STYLE.md 6, issue 12): method, path, request schemas and a schema
 * for every response status. The server registers validation and response serialization from it
 * (src/server/lib/contract-route.ts: nothing undeclared leaks); the client calls through it
 * (src/client/lib/api-client.ts `callApi`) and gets the type inferred from its 200 schema.
 */
export interface ContractDefinition {
  method: 'GET' | 'POST'
  /** `/_api/...`; `:name` segments are path parameters declared in `params`. */
  path: `/_api/${string}`
  /** SPEC 7 "(secure)": the client also sends X-Requested-With. */
  secure?: boolean
  body?: z.ZodType
  query?: z.ZodType
  params?: z.ZodType
  responses: { 200: z.ZodType } & Partial<Record<number, z.ZodType>>
}

export function defineContract<const C extends ContractDefinition>(contract: C): C {
  return contract
}

/** The `{ error, code? }` body of the listed statuses (STYLE.md 9). */
export function errorResponses<const S extends readonly number[]>(...statuses: S): { [K in S[number]]: typeof ApiErrorSchema } {
  return Object.fromEntries(statuses.map((status) => [status, ApiErrorSchema])) as { [K in S[number]]: typeof ApiErrorSchema }
}

type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined
type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined

/** What a successful call answers. */
export type ContractResponse<C extends ContractDefinition> = z.output<C['responses'][200]>
/** What the client sends. */
export type ContractBody<C extends ContractDefinition> = InputOf<C['body']>
export type ContractQuery<C extends ContractDefinition> = InputOf<C['query']>
export type ContractParams<C extends ContractDefinition> = InputOf<C['params']>
/** What the server's handler receives after validation. */
export type ValidatedBody<C extends ContractDefinition> = OutputOf<C['body']>
export type ValidatedQuery<C extends ContractDefinition> = OutputOf<C['query']>
export type ValidatedParams<C extends ContractDefinition> = OutputOf<C['params']>
