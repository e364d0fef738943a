// `npm run openapi`: prints the OpenAPI 3.1 document of the /_api contracts (what GET /_api/openapi.json serves).
import { loadOpenApiDocument } from '#server/lib/openapi.ts'

process.stdout.write(`${JSON.stringify(await loadOpenApiDocument(), null, 2)}\n`)
