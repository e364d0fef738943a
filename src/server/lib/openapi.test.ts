import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONTRACT_MODULES } from '#server/lib/contract-modules.ts'
import { contractsIn, openApiPath } from '#server/lib/openapi.ts'
import { createTestApp, type TestApp } from '#server/test/harness.ts'
import type { OpenApiDocument } from '#shared/api/openapi.ts'

/**
 * Registered /_api routes that have no contract, so the document leaves them out on purpose. Each is
 * called by a browser navigation or another company's server, not by our client as JSON.
 */
const CONTRACTLESS = new Set([
  // Sign-in popup (auth.routes.ts): redirects to the provider and answers with popup pages, not JSON.
  'GET /_api/auth/oauth_authorize',
  'GET /_api/auth/oauth_callback/{provider}',
  // Mailbox connection popup (mailboxes.routes.ts): the same, per mail provider.
  'GET /_api/gmail/authorize',
  'GET /_api/gmail/callback',
  'GET /_api/outlook/authorize',
  'GET /_api/outlook/callback',
  // Push receivers (webhooks.routes.ts): Pub/Sub and Graph call them, proved by their own tokens.
  'POST /_api/webhooks/gmail',
  'POST /_api/webhooks/outlook',
  'POST /_api/webhooks/outlook/lifecycle',
  // Stripe's webhook (billing.routes.ts): reads the raw body, whose exact bytes Stripe signs.
  'POST /_api/webhooks/stripe',
])

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

interface Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean }>
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }
  responses: Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }>
}

describe('GET /_api/openapi.json (issue 19)', () => {
  let ctx: TestApp
  let registered: string[]
  let document: OpenApiDocument
  let contentType: string | undefined
  let status: number

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => HTTP_METHODS.has(method))
        .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, path, operation: operation as Operation })),
    )

  beforeAll(async () => {
    // Demo mode with the mail fakes and the local Stripe registers every route there is (as the
    // authorization matrix does).
    ctx = await createTestApp('pglite', { mail: true, demo: true, stripe: true })
    registered = [...new Set(ctx.app.apiRoutes.map((route) => `${route.method} ${openApiPath(route.url)}`))].sort()
    const res = await ctx.app.inject({ method: 'GET', url: '/_api/openapi.json' })
    status = res.statusCode
    contentType = res.headers['content-type'] as string | undefined
    document = res.json()
  }, 60_000)
  afterAll(async () => {
    await ctx?.close()
  })

  it('answers 200 with an OpenAPI 3.1.0 JSON document, signed out', () => {
    expect(status).toBe(200)
    expect(contentType).toMatch(/^application\/json/)
    expect(document.openapi).toBe('3.1.0')
    expect(document.info).toMatchObject({ title: 'Inbox Guard API', version: expect.any(String) })
  })

  it('documents exactly the registered /_api routes that have a contract', () => {
    const documented = operations()
      .map(({ key }) => key)
      .sort()
    expect(registered.length).toBeGreaterThan(40)
    expect(documented).toEqual(registered.filter((key) => !CONTRACTLESS.has(key)))
    expect(documented).toContain('GET /_api/openapi.json')
  })

  it('lists only contract-less routes that are registered and left out of the document', () => {
    expect([...CONTRACTLESS].filter((key) => !registered.includes(key))).toEqual([])
    expect(operations().filter(({ key }) => CONTRACTLESS.has(key))).toEqual([])
  })

  it('gives every operation a 200 or 302 response with a description, and a parameter for each path segment', () => {
    for (const { key, path, operation } of operations()) {
      expect(Object.keys(operation.responses), key).toEqual(expect.arrayContaining([expect.stringMatching(/^(200|302)$/)]))
      for (const response of Object.values(operation.responses)) expect(response.description, key).toEqual(expect.any(String))
      const segments = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1])
      const pathParams = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name)
      expect(pathParams.sort(), key).toEqual(segments.sort())
    }
  })

  it('describes POST /_api/whitelist: a body requiring domain, and the 409 error shape', () => {
    const operation = document.paths['/_api/whitelist']!.post as Operation
    expect(operation.requestBody!.content['application/json']!.schema).toMatchObject({ type: 'object', required: ['domain'] })
    expect(operation.responses['409']!.content!['application/json']!.schema).toMatchObject({ type: 'object', required: expect.arrayContaining(['error']) })
  })

  it('describes the query parameters of GET /_api/audit-logs', () => {
    const operation = document.paths['/_api/audit-logs']!.get as Operation
    expect(operation.parameters!.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(expect.arrayContaining(['page', 'limit']))
  })
})

describe('the list of contract modules', () => {
  it('names every file of src/shared/api that declares a contract', async () => {
    const dir = fileURLToPath(new URL('../../shared/api/', import.meta.url))
    const declaring: string[] = []
    for (const name of readdirSync(dir).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))) {
      const exports = (await import(new URL(name, `file://${dir}`).href)) as Record<string, unknown>
      if (Object.values(exports).some((value) => contractsIn(value).size > 0)) declaring.push(name)
    }
    expect(declaring.length).toBeGreaterThan(10)
    expect(Object.keys(CONTRACT_MODULES).sort()).toEqual(declaring.sort())
  })
})
