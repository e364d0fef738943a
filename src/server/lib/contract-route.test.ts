import Fastify from 'fastify'
import { serializerCompiler } from 'fastify-type-provider-zod'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { registerErrorHandler } from '#server/plugins/error-handler.ts'
import { checkedValidatorCompiler } from '#server/plugins/validation.ts'
import { defineContract, errorResponses } from '#shared/api/contract.ts'
import { contractRoute } from './contract-route.ts'

const contract = defineContract({
  method: 'POST',
  path: '/_api/widgets/:id',
  params: z.object({ id: z.coerce.number().int() }),
  query: z.object({ verbose: z.enum(['yes', 'no']).optional() }),
  body: z.object({ name: z.string().min(1, 'Name is required') }),
  responses: { 200: z.object({ id: z.number(), name: z.string() }), ...errorResponses(400, 404) },
})

async function appWith(handler: Parameters<typeof contractRoute<typeof contract>>[3]) {
  const app = Fastify()
  app.setValidatorCompiler(checkedValidatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  registerErrorHandler(app)
  contractRoute(app, contract, {}, handler)
  await app.ready()
  return app
}

describe('contractRoute', () => {
  it('validates params, query and body from the contract and hands the handler parsed values', async () => {
    const app = await appWith(async (request) => ({ id: request.params.id, name: `${request.body.name}/${request.query.verbose ?? '-'}` }))
    const ok = await app.inject({ method: 'POST', url: '/_api/widgets/7?verbose=yes', payload: { name: 'w' } })
    expect(ok.statusCode).toBe(200)
    expect(ok.json()).toEqual({ id: 7, name: 'w/yes' })
    const bad = await app.inject({ method: 'POST', url: '/_api/widgets/7', payload: { name: '' } })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({ error: 'Name is required', code: 'validation_error' })
  })

  it('serializes the answer through the contract: an undeclared field never reaches the caller', async () => {
    const app = await appWith(async () => ({ id: 1, name: 'w', passwordHash: 'secret' }) as { id: number; name: string })
    const res = await app.inject({ method: 'POST', url: '/_api/widgets/1', payload: { name: 'w' } })
    expect(res.json()).toEqual({ id: 1, name: 'w' })
    expect(res.body).not.toContain('secret')
  })

  it('answers 500 rather than send a body that breaks the contract', async () => {
    const app = await appWith(async () => ({ id: 'not a number', name: 'w' }) as unknown as { id: number; name: string })
    const res = await app.inject({ method: 'POST', url: '/_api/widgets/1', payload: { name: 'w' } })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ error: 'Internal server error', code: 'internal_error' })
  })

  it('serializes declared error statuses through the error schema', async () => {
    const app = await appWith(async (_request, reply) => reply.code(404).send({ error: 'No such widget', code: 'not_found', internal: 'x' }))
    const res = await app.inject({ method: 'POST', url: '/_api/widgets/1', payload: { name: 'w' } })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ error: 'No such widget', code: 'not_found' })
  })
})
