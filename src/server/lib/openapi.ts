import { readFileSync } from 'node:fs'
import { STATUS_CODES } from 'node:http'
import { z } from 'zod'
import { CONTRACT_MODULES } from '#server/lib/contract-modules.ts'
import type { ContractDefinition } from '#shared/api/contract.ts'
import type { OpenApiDocument } from '#shared/api/openapi.ts'

const PACKAGE_JSON = new URL('../../../package.json', import.meta.url)

type JsonSchema = Record<string, unknown>

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && (Object.getPrototypeOf(value) === Object.prototype || Array.isArray(value))

/** Method, `/_api/` path and responses: what defineContract requires (a popup route's query-only descriptor is not one). */
export function isContract(value: unknown): value is ContractDefinition {
  if (!isPlainObject(value)) return false
  const { method, path, responses } = value
  return typeof method === 'string' && typeof path === 'string' && path.startsWith('/_api/') && isPlainObject(responses)
}

/** The contracts among a module's exports, also inside plain objects that group them (domain-lists.ts). */
export function contractsIn(value: unknown, found = new Set<ContractDefinition>(), depth = 0): Set<ContractDefinition> {
  if (isContract(value)) found.add(value)
  else if (isPlainObject(value) && depth < 4) for (const inner of Object.values(value)) contractsIn(inner, found, depth + 1)
  return found
}

/** Every contract exported by a module of src/shared/api (STYLE.md 6), each once. */
export function sharedContracts(modules: Iterable<Readonly<Record<string, unknown>>> = Object.values(CONTRACT_MODULES)): ContractDefinition[] {
  const found = new Set<ContractDefinition>()
  // A module namespace has a null prototype: walk its exports, not the namespace itself.
  for (const exports of modules) for (const value of Object.values(exports)) contractsIn(value, found)
  return [...found]
}

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect); what zod cannot express (transform outputs) becomes `{}`. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema
  return rest
}

/** One OpenAPI parameter per property of a query or params object schema. */
function parameters(contract: ContractDefinition, where: 'query' | 'path'): JsonSchema[] {
  const schema = where === 'query' ? contract.query : contract.params
  if (!schema) return []
  const json = jsonSchema(schema, 'input')
  const properties = json.properties as Record<string, JsonSchema> | undefined
  if (json.type !== 'object' || !properties) throw new Error(`${contract.method} ${contract.path}: its ${where} schema must be an object`)
  const required = new Set((json.required as string[] | undefined) ?? [])
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
  }))
}

function operation(contract: ContractDefinition): Record<string, unknown> {
  const params = [...parameters(contract, 'path'), ...parameters(contract, 'query')]
  const responses = Object.fromEntries(
    Object.entries(contract.responses as Record<string, z.ZodType>).map(([status, schema]) => [
      status,
      { description: STATUS_CODES[Number(status)] ?? `Status ${status}`, content: { 'application/json': { schema: jsonSchema(schema, 'output') } } },
    ]),
  )
  return {
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(contract.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(contract.body, 'input') } } } } : {}),
    responses,
  }
}

/** `/_api/x/:id` → `/_api/x/{id}` (OpenAPI path templating). */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')

/**
 * The OpenAPI 3.1 document of the given contracts (issue 19): request bodies and parameters as the
 * client sends them (zod input), responses as the server answers them (zod output), every declared
 * status included.
 */
export function buildOpenApiDocument(contracts: readonly ContractDefinition[], { version = '1' }: { version?: string } = {}): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const contract of [...contracts].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
    const item = (paths[openApiPath(contract.path)] ??= {})
    const method = contract.method.toLowerCase()
    if (item[method]) throw new Error(`Two contracts declare ${contract.method} ${contract.path}`)
    item[method] = operation(contract)
  }
  return { openapi: '3.1.0', info: { title: 'Inbox Guard API', version }, paths }
}

/** The document of every shared contract, versioned as the package. */
export async function loadOpenApiDocument(): Promise<OpenApiDocument> {
  const { version } = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version?: string }
  return buildOpenApiDocument(sharedContracts(), { version: version ?? '1' })
}
