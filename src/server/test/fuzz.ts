import type { LightMyRequestResponse } from 'fastify'
import type { ZodType } from 'zod'
import { rng } from '#classifier/model.ts'
import { sharedContracts } from '#server/lib/openapi.ts'
import { createSession } from '#server/lib/sessions.ts'
import type { ContractDefinition } from '#shared/api/contract.ts'
import { ApiErrorSchema } from '#shared/api/errors.ts'
import type { TestDatabaseKind } from './databases.ts'
import { createTestApp, signIn, type TestApp } from './harness.ts'

/**
 * Contract-driven fuzzing of every /_api route (issue 19): malformed requests built from each route's
 * shared contract are sent signed out, as a user and as an admin, and every answer is held to the
 * contract. Used by `npm run fuzz` (scripts/fuzz.ts, many requests) and fuzz.test.ts (a fixed slice).
 */

// ---------------------------------------------------------------------------------------------------
// Seeded randomness

export class Rng {
  private readonly next: () => number
  constructor(seed: number) {
    // mulberry32: the same seed gives the same requests on every machine.
    this.next = rng(seed)
  }
  float(): number {
    return this.next()
  }
  int(max: number): number {
    return Math.floor(this.next() * max)
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!
  }
  hex(length: number): string {
    let out = ''
    for (let i = 0; i < length; i++) out += '0123456789abcdef'[this.int(16)]
    return out
  }
}

/** A stable 32-bit hash (FNV-1a), to derive one seed per route and role from the run's seed. */
export function hashSeed(...parts: (string | number)[]): number {
  let h = 0x811c9dc5
  for (const ch of parts.join('|')) {
    h ^= ch.charCodeAt(0)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

// ---------------------------------------------------------------------------------------------------
// Targets: what the fuzzer knows about a route

export interface FuzzTarget {
  /** `GET /_api/...`, as registered. */
  key: string
  method: 'GET' | 'POST'
  path: string
  body?: ZodType
  query?: ZodType
  params?: ZodType
  /** The contract's response schemas; undefined for routes without a JSON contract (checked for 5xx, hangs and crashes only). */
  responses?: Partial<Record<number, ZodType>>
}


/** Every `defineContract` in src/shared/api, by `METHOD path` (nested groups such as domainListContracts included). */
export function collectContracts(): Map<string, ContractDefinition> {
  return new Map(sharedContracts().map((contract) => [`${contract.method} ${contract.path}`, contract]))
}

const isZod = (value: unknown): value is ZodType => typeof value === 'object' && value !== null && '_zod' in value

/** One target per registered /_api route: from its contract when it has one, else from the route's own request schemas. */
export function fuzzTargets(apiRoutes: readonly { method: string; url: string; schema: { body?: unknown; querystring?: unknown; params?: unknown } }[]): FuzzTarget[] {
  const contracts = collectContracts()
  const seen = new Set<string>()
  const targets: FuzzTarget[] = []
  for (const route of apiRoutes) {
    const key = `${route.method} ${route.url}`
    if (seen.has(key) || (route.method !== 'GET' && route.method !== 'POST')) continue
    seen.add(key)
    const contract = contracts.get(key)
    if (contract) {
      targets.push({ key, method: contract.method, path: contract.path, body: contract.body, query: contract.query, params: contract.params, responses: contract.responses })
    } else {
      const { body, querystring, params } = route.schema
      targets.push({
        key,
        method: route.method,
        path: route.url,
        body: isZod(body) ? body : undefined,
        query: isZod(querystring) ? querystring : undefined,
        params: isZod(params) ? params : undefined,
      })
    }
  }
  return targets
}

// ---------------------------------------------------------------------------------------------------
// Valid-shaped values from a zod 4 schema (best effort: formats and enums, not every refinement)

interface ZodDef {
  type: string
  shape?: Record<string, ZodType>
  innerType?: ZodType
  element?: ZodType
  options?: ZodType[]
  entries?: Record<string, string | number>
  values?: unknown[]
  in?: ZodType
  keyType?: ZodType
  valueType?: ZodType
  format?: string
  coerce?: boolean
}

const defOf = (schema: ZodType): ZodDef => (schema as unknown as { _zod: { def: ZodDef } })._zod.def

const DOMAINS = ['fuzz.example', 'example.com', 'a.bc', 'mail.fuzz.example']
const WORDS = ['fuzz', 'standard', 'all', 'google', 'gmail', 'outlook', 'true', 'x', 'DELETE MY ACCOUNT']

export function sampleValid(schema: ZodType | undefined, rng: Rng, depth = 0): unknown {
  if (!schema || depth > 8) return undefined
  const def = defOf(schema)
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const optional = ['optional', 'default'].includes(defOf(field).type)
        if (optional && rng.chance(0.4)) continue
        const value = sampleValid(field, rng, depth + 1)
        if (value !== undefined) out[key] = value
      }
      return out
    }
    case 'string':
      if (def.format === 'email') return `fuzz-${rng.hex(4)}@example.com`
      if (def.format === 'datetime') return new Date(Date.UTC(2025, rng.int(12), 1 + rng.int(28))).toISOString()
      if (def.format === 'uuid' || def.format === 'guid') return `${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-8${rng.hex(3)}-${rng.hex(12)}`
      return rng.chance(0.5) ? rng.pick(DOMAINS) : rng.pick(WORDS)
    case 'number':
    case 'int':
      return rng.pick([1, 2, 25, 50, 100, 999_999])
    case 'bigint':
      return 1
    case 'boolean':
      return rng.chance(0.5)
    case 'null':
      return null
    case 'enum':
      return rng.pick(Object.values(def.entries ?? { a: 'a' }))
    case 'literal':
      return rng.pick(def.values ?? [null])
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return sampleValid(def.innerType, rng, depth + 1)
    case 'nullable':
      return rng.chance(0.15) ? null : sampleValid(def.innerType, rng, depth + 1)
    case 'pipe':
      return sampleValid(def.in, rng, depth + 1)
    case 'union':
      return sampleValid(rng.pick(def.options ?? []), rng, depth + 1)
    case 'array': {
      const n = rng.int(3)
      return Array.from({ length: n }, () => sampleValid(def.element, rng, depth + 1))
    }
    case 'record': {
      const key = sampleValid(def.keyType, rng, depth + 1)
      return rng.chance(0.5) ? {} : { [typeof key === 'string' ? key : 'k']: sampleValid(def.valueType, rng, depth + 1) }
    }
    default:
      return {}
  }
}

// ---------------------------------------------------------------------------------------------------
// Malformed values

const MB = 1024 * 1024
const HUGE = 'x'.repeat(MB)
/** Values of every JSON type, for a field that should hold another. */
const WRONG_TYPES: unknown[] = [0, 1, -1, 1.5, 'str', '', true, false, null, [], [1, 'a'], {}, { a: 1 }]
/** Boundary and huge values; RAW_… markers become number literals JSON.stringify cannot write. */
const BOUNDARY: unknown[] = [
  '',
  ' ',
  HUGE,
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e308',
  '0x10',
  ' 1 ',
  '1.0',
  '9007199254740993',
  Number.MAX_SAFE_INTEGER + 1,
  -(Number.MAX_SAFE_INTEGER + 1),
  1e308,
  -1e308,
  2 ** 31,
  -(2 ** 31) - 1,
  -1,
  0,
  0.5,
  'RAW_-0',
  'RAW_1e309',
  'RAW_-1e309',
  'RAW_123456789012345678901234567890',
]
const NASTY_STRINGS = ['\u0000', '\ud800', '\udfff', 'a\u0000b', '\ud800\u0000', '\uffff', '\u202e', "'; drop table users; --", '../../etc/passwd', '<script>', '%00', '\r\nSet-Cookie: x=1']

function deepNest(levels: number, leaf: unknown, asArray: boolean): unknown {
  let value: unknown = leaf
  for (let i = 0; i < levels; i++) value = asArray ? [value] : { a: value }
  return value
}

/** Inserts a NUL or lone surrogate into every string value (and sometimes every key). */
function poisonStrings(value: unknown, rng: Rng, poison: string, keysToo: boolean): unknown {
  const spoil = (text: string) => {
    const at = rng.int(text.length + 1)
    return text.slice(0, at) + poison + text.slice(at)
  }
  if (typeof value === 'string') return spoil(value)
  if (Array.isArray(value)) return value.map((item) => poisonStrings(item, rng, poison, keysToo))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [keysToo ? spoil(key) : key, poisonStrings(item, rng, poison, keysToo)]))
  }
  return value
}

/** Paths of the fields in a sampled value (objects only), for single-field mutations. */
function fieldPaths(value: unknown, prefix: string[] = [], depth = 0): string[][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depth > 3) return []
  const paths: string[][] = []
  for (const [key, item] of Object.entries(value)) {
    paths.push([...prefix, key], ...fieldPaths(item, [...prefix, key], depth + 1))
  }
  return paths
}

/** The fields the schema declares at the top level (present in the sample or not). */
function declaredKeys(schema: ZodType | undefined): string[] {
  if (!schema) return []
  const def = defOf(schema)
  if (def.type === 'object') return Object.keys(def.shape ?? {})
  if (def.type === 'pipe' && def.in) return declaredKeys(def.in)
  return []
}

function setPath(root: Record<string, unknown>, path: string[], value: unknown, remove = false) {
  let node: Record<string, unknown> = root
  for (const key of path.slice(0, -1)) {
    const next = node[key]
    if (typeof next !== 'object' || next === null) return
    node = next as Record<string, unknown>
  }
  const last = path[path.length - 1]!
  if (remove) delete node[last]
  else node[last] = value
}

/** JSON text, turning RAW_ markers into literals (-0, 1e309) JSON.stringify would not write. */
function toJson(value: unknown): string {
  return JSON.stringify(value).replace(/"RAW_([-0-9e]+)"/g, '$1')
}

// ---------------------------------------------------------------------------------------------------
// Requests

export type SessionKind = 'own' | 'none' | 'random' | 'foreign' | 'garbage'

export interface FuzzRequest {
  /** What was done to the request, for the report. */
  mutations: string[]
  method: string
  url: string
  headers: Record<string, string>
  payload?: string | Buffer
  session: SessionKind
  /** The URL no longer names the route (odd path): answered by whatever route or page it names. */
  oddPath: boolean
}

/** Percent-encodes query and path text, keeping NUL and lone surrogates (which encodeURIComponent refuses) as raw bytes. */
export function encodeLoose(text: string): string {
  let out = ''
  for (const ch of text) {
    const code = ch.codePointAt(0)!
    if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`
    } else {
      out += encodeURIComponent(ch)
    }
  }
  return out
}

/**
 * URL values are cut to 8 KiB (Node's HTTP server takes 16 KiB of headers, URL included): a 1 MB value
 * belongs in a body. The `query huge` mutation still sends a rare 100 kB URL. Kept this short because
 * the request log's e-mail masking is quadratic in the URL's length (see the fuzz report).
 */
const urlSized = (text: string) => text.slice(0, 8_192)

const queryText = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value))

function buildQuery(pairs: [string, string][]): string {
  return pairs.map(([key, value]) => `${encodeLoose(key)}=${encodeLoose(value)}`).join('&')
}

const REQUEST_MUTATIONS = ['wrong-type', 'missing', 'extra', 'boundary', 'nesting', 'poison', 'whole-body', 'content-type', 'session', 'path', 'query', 'no-xrw'] as const
type Mutation = (typeof REQUEST_MUTATIONS)[number]

/**
 * One request for the target: a valid-shaped request (from the schemas) with zero to three
 * mutations applied. About one in ten requests is left valid-shaped, so handlers run too.
 */
export function generateRequest(target: FuzzTarget, rng: Rng): FuzzRequest {
  const mutations: string[] = []
  const isPost = target.method === 'POST'
  let body: unknown = isPost ? (sampleValid(target.body, rng) ?? {}) : undefined
  let rawBody: string | Buffer | undefined
  let contentType: string | undefined = isPost ? 'application/json' : undefined
  const queryValue = sampleValid(target.query, rng)
  let query: [string, string][] =
    typeof queryValue === 'object' && queryValue !== null ? Object.entries(queryValue).map(([k, v]) => [k, queryText(v)] as [string, string]) : []
  const paramsValue = (sampleValid(target.params, rng) ?? {}) as Record<string, unknown>
  let session: SessionKind = 'own'
  let xrw = isPost && rng.chance(0.9)
  let oddPath = false
  const headers: Record<string, string> = {}
  const paramNames = [...target.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!)
  const params: Record<string, string> = Object.fromEntries(paramNames.map((name) => [name, queryText(paramsValue[name] ?? 'fuzz')]))
  let path: string | undefined

  const count = rng.chance(0.1) ? 0 : 1 + rng.int(3)
  const applicable = REQUEST_MUTATIONS.filter((m) => {
    if (['wrong-type', 'missing', 'extra', 'boundary', 'nesting', 'poison'].includes(m)) return isPost || target.query !== undefined || paramNames.length > 0 || m === 'extra'
    if (m === 'whole-body' || m === 'content-type' || m === 'no-xrw') return isPost || m === 'content-type'
    return true
  })

  /** Where a field mutation lands: the body for POSTs, else the query (or a path parameter). */
  const fieldTarget = (): 'body' | 'query' | 'params' => {
    if (paramNames.length > 0 && rng.chance(0.3)) return 'params'
    if (isPost && (typeof body === 'object' && body !== null && !Array.isArray(body)) && (target.query === undefined || rng.chance(0.8))) return 'body'
    return 'query'
  }
  const bodyObject = () => (typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined)
  const pickField = (value: unknown, schema: ZodType | undefined): string[] => {
    const paths = fieldPaths(value)
    const declared = declaredKeys(schema).map((key) => [key])
    const all = [...paths, ...declared]
    return all.length > 0 ? rng.pick(all) : ['field']
  }
  const setQuery = (key: string, value: unknown, remove = false) => {
    query = query.filter(([k]) => k !== key)
    if (!remove) query.push([key, queryText(value)])
  }
  const mutateField = (name: string, value: () => unknown, remove = false) => {
    const where = fieldTarget()
    if (where === 'body' && bodyObject()) {
      const fieldPath = pickField(body, target.body)
      setPath(bodyObject()!, fieldPath, remove ? undefined : value(), remove)
      mutations.push(`${name} body.${fieldPath.join('.')}`)
    } else if (where === 'params') {
      const param = rng.pick(paramNames)
      params[param] = remove ? '' : urlSized(queryText(value()))
      mutations.push(`${name} :${param}`)
    } else {
      const key = pickField(Object.fromEntries(query), target.query)[0]!
      setQuery(key, remove ? undefined : urlSized(queryText(value())), remove)
      mutations.push(`${name} ?${key}`)
    }
  }

  for (let i = 0; i < count; i++) {
    const mutation: Mutation = rng.pick(applicable)
    switch (mutation) {
      case 'wrong-type':
        mutateField('wrong type', () => rng.pick(WRONG_TYPES))
        break
      case 'missing':
        mutateField('missing', () => undefined, true)
        break
      case 'extra': {
        const key = rng.pick(['__fuzz', 'isAdmin', 'role', 'userId', 'id', '', 'constructor', 'a'.repeat(1000), '\u0000', '__proto__'])
        const value = rng.pick(WRONG_TYPES)
        if (isPost && bodyObject() && rng.chance(0.7)) {
          if (key === '__proto__') rawBody = toJson(body).replace(/^\{/, `{"__proto__":{"isAdmin":true},`).replace(/,}$/, '}')
          else bodyObject()![key] = value
          mutations.push(`extra body.${JSON.stringify(key.slice(0, 20))}`)
        } else {
          query.push([key, queryText(value)])
          mutations.push(`extra ?${JSON.stringify(key.slice(0, 20))}`)
        }
        break
      }
      case 'boundary':
        mutateField('boundary', () => rng.pick(BOUNDARY))
        break
      case 'nesting':
        mutateField('nested 1000 deep', () => deepNest(1000, 'x', rng.chance(0.5)))
        break
      case 'poison': {
        const poison = rng.pick(NASTY_STRINGS)
        const keysToo = rng.chance(0.3)
        if (isPost) body = poisonStrings(body, rng, poison, keysToo)
        query = query.map(([k, v]) => [keysToo ? k + poison : k, v + poison])
        for (const name of paramNames) params[name] = params[name] + poison
        mutations.push(`poison every string with ${JSON.stringify(poison)}${keysToo ? ' (keys too)' : ''}`)
        break
      }
      case 'whole-body': {
        const choice = rng.pick<unknown>([[], 'str', 123, null, true, [body], deepNest(1000, 1, false), deepNest(1000, 1, true), 'RAW_-0'])
        body = choice
        mutations.push(`whole body ${toJson(choice).slice(0, 40)}`)
        break
      }
      case 'content-type': {
        const kind = rng.pick(['text/plain', 'form', 'invalid-json', 'empty-json', 'none', 'multipart', 'charset', 'get-body', 'bad-utf8'] as const)
        mutations.push(`content-type ${kind}`)
        if (kind === 'text/plain') contentType = 'text/plain'
        else if (kind === 'form') {
          contentType = 'application/x-www-form-urlencoded'
          rawBody = 'a=1&b=%00&domain=fuzz.example'
        } else if (kind === 'invalid-json') rawBody = rng.pick(['{"a":', '{a:1}', "{'a':1}", '[1,]', '\u0000', '{"a":1}}', 'nul', '"\\ud800"x'])
        else if (kind === 'empty-json') {
          contentType = 'application/json'
          rawBody = ''
        } else if (kind === 'none') contentType = undefined
        else if (kind === 'multipart') contentType = 'multipart/form-data; boundary=fuzz'
        else if (kind === 'charset') contentType = rng.pick(['application/json; charset=utf-16', 'application/json; charset=latin1', 'APPLICATION/JSON', 'application/json;;', 'application/jsonx'])
        else if (kind === 'bad-utf8') rawBody = Buffer.concat([Buffer.from('{"domain":"'), Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80, 0xc0]), Buffer.from('"}')])
        else if (kind === 'get-body') {
          contentType = 'application/json'
          rawBody = rng.pick(['{"a":', '{"page":"x"}', toJson(deepNest(1000, 1, false))])
        }
        break
      }
      case 'session':
        session = rng.pick(['none', 'random', 'foreign', 'garbage'] as const)
        mutations.push(`session ${session}`)
        break
      case 'path': {
        const base = target.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => encodeLoose(params[name] ?? ''))
        const variant = rng.pick(['dotdot', 'double-slash', 'trailing', 'nul', 'encoded', 'upper', 'param'] as const)
        mutations.push(`path ${variant}`)
        oddPath = variant !== 'param'
        if (variant === 'dotdot') path = base.replace('/_api/', '/_api/%2e%2e/_api/')
        else if (variant === 'double-slash') path = base.replace('/_api/', rng.pick(['//_api/', '/_api//']))
        else if (variant === 'trailing') path = `${base}/`
        else if (variant === 'nul') path = `${base}%00`
        else if (variant === 'encoded') path = base.replace('/_api/', '/%5Fapi/').replace(/\/([a-z])/, (_m, c: string) => `/%${c.charCodeAt(0).toString(16)}`)
        else if (variant === 'upper') path = base.toUpperCase()
        else if (paramNames.length > 0) params[rng.pick(paramNames)] = rng.pick(['..', '%2e%2e', '', 'a'.repeat(5000), '\u0000', '\ud800', '%ff'])
        else path = `${base}%ff`
        break
      }
      case 'query': {
        const keys = [...query.map(([k]) => k), ...declaredKeys(target.query), 'q']
        const key = rng.pick(keys)
        const variant = rng.pick(['repeat', 'array', 'huge', 'empty', 'nested-key', 'proto'] as const)
        mutations.push(`query ${variant} ${key}`)
        if (variant === 'repeat') query.push([key, rng.pick(['1', 'x', '', '-1'])], [key, rng.pick(['2', 'y'])])
        else if (variant === 'array') query.push([`${key}[]`, '1'], [`${key}[]`, '2'], [`${key}[0]`, 'x'])
        // inject takes URLs longer than Node's 16 KiB limit: a rare 100 kB one stands for what a
        // server with a larger limit would pass on.
        else if (variant === 'huge') setQuery(key, 'x'.repeat(rng.chance(0.03) ? 100_000 : rng.pick([4096, 8192])))
        else if (variant === 'empty') setQuery(key, '')
        else if (variant === 'nested-key') query.push([`${key}${'[a]'.repeat(1000)}`, '1'])
        else query.push(['__proto__[isAdmin]', 'true'], ['constructor[prototype][x]', '1'])
        break
      }
      case 'no-xrw':
        xrw = false
        mutations.push('no x-requested-with')
        break
    }
  }

  const pathname = path ?? target.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => encodeLoose(params[name] ?? ''))
  const search = query.length > 0 ? `?${buildQuery(query)}` : ''
  if (xrw) headers['x-requested-with'] = 'XMLHttpRequest'
  if (contentType) headers['content-type'] = contentType
  if (mutations.length === 0) mutations.push('valid-shaped')
  const payload = rawBody ?? (isPost ? (contentType === 'application/x-www-form-urlencoded' ? '' : toJson(body)) : undefined)
  return { mutations, method: target.method, url: `${pathname}${search}`, headers, payload, session, oddPath }
}

// ---------------------------------------------------------------------------------------------------
// Judging answers

export type Role = 'signed-out' | 'user' | 'admin'
export const ROLES: readonly Role[] = ['signed-out', 'user', 'admin']

export interface FuzzFailure {
  route: string
  role: Role
  request: FuzzRequest
  status: number | 'timeout' | 'threw'
  reason: string
  body: string
}

/** Why the answer breaks the rules, or null when it is acceptable. */
export function judge(target: FuzzTarget, request: FuzzRequest, res: LightMyRequestResponse): string | null {
  const status = res.statusCode
  if (status >= 500) return 'server error'
  // A route without a JSON contract (popups, provider receivers) is only held to "no 5xx".
  if (!target.responses) return null
  const isJson = /^application\/json/.test(String(res.headers['content-type'] ?? ''))
  // An odd path may name no /_api route at all: then the SPA's Not Found page (HTML) is the answer.
  if (request.oddPath && status === 404 && !isJson) return null
  const declared = target.responses[status]
  if (!declared && status >= 400 && status < 500) {
    if (!isJson) return `${status} is not JSON`
    return ApiErrorSchema.safeParse(safeJson(res.body)).success ? null : `${status} is not { error: string }`
  }
  if (!declared) return `status ${status} is not declared by the contract`
  if (!isJson) return `${status} is not JSON`
  const parsed = declared.safeParse(safeJson(res.body))
  if (parsed.success) return null
  const issue = parsed.error.issues[0]
  return `${status} body does not match the contract: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? ''}`
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return Symbol('not json')
  }
}

// ---------------------------------------------------------------------------------------------------
// Running

export const FUZZ_ADMIN = 'fuzz-admin@example.com'
export const REQUEST_TIMEOUT_MS = 5_000

export interface FuzzApp {
  ctx: TestApp
  targets: FuzzTarget[]
  /** APP_URL's host, sent as the Host header. */
  host: string
  /** A live session cookie value for the role (a fresh one each time: routes may end sessions). */
  sid(who: 'user' | 'admin' | 'other'): Promise<string>
  close(): Promise<void>
}

/** An app with every route registered (demo mode, mail fakes, local Stripe), as the authorization matrix builds it. */
export async function startFuzzApp(kind: TestDatabaseKind): Promise<FuzzApp> {
  const ctx = await createTestApp(kind, {
    env: { ADMIN_EMAILS: FUZZ_ADMIN },
    mail: true,
    demo: true,
    stripe: true,
    // Each role sends hundreds of requests per route; the limits themselves are tested elsewhere.
    authRateLimit: { max: 100_000, timeWindow: 60_000 },
    waitlistRateLimit: { max: 100_000, timeWindow: 60_000 },
  })
  let signIns = 0
  const accounts: Record<'user' | 'admin' | 'other', { email: string; id?: number }> = {
    user: { email: 'fuzz-user@example.com' },
    admin: { email: FUZZ_ADMIN },
    other: { email: 'fuzz-other@example.com' },
  }
  const signInAs = async (who: 'user' | 'admin' | 'other') => {
    const account = accounts[who]
    const { user, sid } = await signIn(ctx, 'google', { email: account.email })
    account.id = user.id
    signIns++
    return sid
  }
  for (const who of ['user', 'admin', 'other'] as const) await signInAs(who)
  return {
    ctx,
    targets: fuzzTargets(ctx.app.apiRoutes),
    host: new URL(ctx.config.appUrl).host,
    async sid(who) {
      try {
        return (await createSession(ctx.db, { userId: accounts[who].id!, ipAddress: null, userAgent: undefined })).token
      } catch {
        // The account was deleted by a request (POST /_api/account/delete): sign in again, a new account.
        if (who !== 'admin') accounts[who].email = `fuzz-${who}-${signIns}@example.com`
        return signInAs(who)
      }
    },
    close: () => ctx.close(),
  }
}

export interface RouteResult {
  route: string
  role: Role
  requests: number
  statuses: Record<number, number>
  failures: FuzzFailure[]
}

/** Sends `count` generated requests to one route as one role. */
export async function fuzzRoute(app: FuzzApp, target: FuzzTarget, role: Role, count: number, seed: number): Promise<RouteResult> {
  const rng = new Rng(hashSeed(seed, target.key, role))
  const result: RouteResult = { route: target.key, role, requests: 0, statuses: {}, failures: [] }
  for (let i = 0; i < count; i++) {
    const request = generateRequest(target, rng)
    let cookie: string | undefined
    if (request.session === 'own' && role !== 'signed-out') cookie = `sid=${await app.sid(role)}`
    else if (request.session === 'foreign') cookie = `sid=${await app.sid('other')}`
    else if (request.session === 'random') cookie = `sid=${rng.hex(64)}`
    else if (request.session === 'garbage') cookie = rng.pick(['sid=', 'sid=%00', 'sid=%ff%fe', `sid=${'a'.repeat(8000)}`, 'sid=a; sid=b', 'sid', '=;;=', 'sid="unterminated'])
    // The app's own host, as a browser sends it (another loopback name would be redirected to it).
    const headers = { host: app.host, ...request.headers, ...(cookie ? { cookie } : {}) }
    result.requests++
    const fail = (status: FuzzFailure['status'], reason: string, body: string) =>
      result.failures.push({ route: target.key, role, request, status, reason, body: body.slice(0, 300) })
    let timer: NodeJS.Timeout | undefined
    try {
      const res = await Promise.race([
        app.ctx.app.inject({ method: request.method as 'GET' | 'POST', url: request.url, headers, ...(request.payload !== undefined ? { payload: request.payload } : {}) }),
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), REQUEST_TIMEOUT_MS)
        }),
      ])
      if (res === 'timeout') {
        fail('timeout', `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`, '')
        continue
      }
      result.statuses[res.statusCode] = (result.statuses[res.statusCode] ?? 0) + 1
      const reason = judge(target, request, res)
      if (reason) fail(res.statusCode, reason, res.body)
    } catch (error) {
      fail('threw', 'inject threw', error instanceof Error ? `${error.name}: ${error.message}` : String(error))
    } finally {
      clearTimeout(timer)
    }
  }
  return result
}

export interface FuzzRun {
  kind: TestDatabaseKind
  results: RouteResult[]
  failures: FuzzFailure[]
  /** Errors thrown outside any request (unhandled rejections, uncaught exceptions) while the run was going. */
  crashes: string[]
  /** Routes held only to "no 5xx, no hang, no crash": no JSON contract to check bodies against. */
  withoutContract: string[]
}

/** Fuzzes every registered /_api route on a fresh app and database of the given kind. */
export async function runFuzz(options: { kind: TestDatabaseKind; perRoute: number; seed: number; onRoute?: (result: RouteResult) => void }): Promise<FuzzRun> {
  const crashes: string[] = []
  const onCrash = (error: unknown) => crashes.push(error instanceof Error ? (error.stack ?? error.message) : String(error))
  process.on('unhandledRejection', onCrash)
  process.on('uncaughtException', onCrash)
  const app = await startFuzzApp(options.kind)
  try {
    const results: RouteResult[] = []
    for (const target of app.targets) {
      for (const role of ROLES) {
        const result = await fuzzRoute(app, target, role, options.perRoute, options.seed)
        results.push(result)
        options.onRoute?.(result)
      }
    }
    return {
      kind: options.kind,
      results,
      failures: results.flatMap((r) => r.failures),
      crashes,
      withoutContract: app.targets.filter((t) => !t.responses).map((t) => t.key),
    }
  } finally {
    await app.close()
    process.off('unhandledRejection', onCrash)
    process.off('uncaughtException', onCrash)
  }
}

/** One line per failure: route, role, what was sent, what came back. */
export function describeFailure(failure: FuzzFailure): string {
  const { request } = failure
  const payload = request.payload === undefined ? '' : ` payload=${JSON.stringify(String(request.payload).slice(0, 160))}${String(request.payload).length > 160 ? `… (${String(request.payload).length} chars)` : ''}`
  const headers = Object.entries(request.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')
  return [
    `${failure.route} as ${failure.role}: ${failure.status} — ${failure.reason}`,
    `    mutations: ${request.mutations.join('; ')}; session ${request.session}`,
    `    ${request.method} ${request.url.slice(0, 200)}${request.url.length > 200 ? '…' : ''} [${headers}]${payload}`,
    `    body: ${failure.body.replace(/\s+/g, ' ').slice(0, 300)}`,
  ].join('\n')
}
