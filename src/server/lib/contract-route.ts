import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify'
import type { ContractDefinition, ContractResponse, ValidatedBody, ValidatedParams, ValidatedQuery } from '#shared/api/contract.ts'

export type ContractRequest<C extends ContractDefinition> = FastifyRequest<{
  Body: ValidatedBody<C>
  Querystring: ValidatedQuery<C>
  Params: ValidatedParams<C>
}>

/** Route options besides the schema: guards, per-route config (rate limits). */
export type ContractRouteOptions = Pick<RouteShorthandOptions, 'onRequest' | 'preValidation' | 'preHandler' | 'config' | 'bodyLimit'>

/**
 * Registers a handler for a shared contract (issue 12): method and path, body/query/params validation
 * and a response schema per status all come from the contract. Responses are serialized through their
 * schema, so a field the contract does not declare never reaches the client. The handler returns the
 * 200 body, or sends another declared status itself through `reply`.
 */
export function contractRoute<C extends ContractDefinition>(
  app: FastifyInstance,
  contract: C,
  options: ContractRouteOptions,
  handler: (request: ContractRequest<C>, reply: FastifyReply) => Promise<ContractResponse<C> | FastifyReply>,
): void {
  app.route({
    method: contract.method,
    url: contract.path,
    schema: {
      ...(contract.body ? { body: contract.body } : {}),
      ...(contract.query ? { querystring: contract.query } : {}),
      ...(contract.params ? { params: contract.params } : {}),
      response: contract.responses,
    },
    ...options,
    handler: handler as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  })
}
