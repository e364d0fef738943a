import type { FastifyInstance } from 'fastify'
import { contractRoute } from '#server/lib/contract-route.ts'
import { loadOpenApiDocument } from '#server/lib/openapi.ts'
import { openApiContract, type OpenApiDocument } from '#shared/api/openapi.ts'

/** GET /_api/openapi.json (public, issue 19): built on the first request, then kept in memory. */
export function registerOpenApiRoutes(app: FastifyInstance) {
  let document: Promise<OpenApiDocument> | undefined
  contractRoute(app, openApiContract, {}, async () => {
    document ??= loadOpenApiDocument().catch((error: unknown) => {
      // A failed build is not cached: the next request tries again.
      document = undefined
      throw error
    })
    return document
  })
}
