import { invalidParam } from './errors.ts'

/**
 * Stripe v1 request parameters: `application/x-www-form-urlencoded` with bracket notation, as stripe-node
 * writes them (`line_items[0][price]=price_x`, `metadata[plan]=pro`, `expand[]=customer`, `expand[0]=x`).
 * Numeric segments make arrays, as in Stripe's own parser. GET and DELETE carry them in the query string.
 */

export type FormValue = string | FormValue[] | { [key: string]: FormValue }
export type FormParams = { [key: string]: FormValue }

function segmentsOf(key: string): string[] | null {
  const head = /^([^[\]]+)/.exec(key)
  if (!head) return null
  const segments = [head[1]!]
  let rest = key.slice(head[1]!.length)
  while (rest.length > 0) {
    const m = /^\[([^[\]]*)\]/.exec(rest)
    if (!m) return null
    segments.push(m[1]!)
    rest = rest.slice(m[0].length)
  }
  return segments
}

export function parseForm(pairs: Iterable<[string, string]>): FormParams {
  const root: FormParams = {}
  for (const [key, value] of pairs) {
    const segments = segmentsOf(key)
    if (!segments) throw invalidParam(key, `Invalid parameter name: ${key}`, 'parameter_unknown')
    let node: FormParams | FormValue[] = root
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!
      const last = i === segments.length - 1
      const nextIsIndex = !last && /^\d*$/.test(segments[i + 1]!)
      if (Array.isArray(node)) {
        const index = segment === '' ? node.length : Number(segment)
        if (!Number.isInteger(index)) throw invalidParam(key, `Invalid array index in ${key}`)
        if (last) node[index] = value
        else {
          node[index] ??= nextIsIndex ? [] : {}
          node = node[index] as FormParams | FormValue[]
        }
      } else {
        if (last) node[segment] = value
        else {
          const existing: FormValue | undefined = node[segment]
          if (existing === undefined || typeof existing === 'string') node[segment] = nextIsIndex ? [] : {}
          node = node[segment] as FormParams | FormValue[]
        }
      }
    }
  }
  return root
}

/** The request's parameters: the query string plus, for form bodies, the body. */
export function requestParams(query: URLSearchParams, body: string): FormParams {
  return parseForm([...query.entries(), ...new URLSearchParams(body).entries()])
}

/** A canonical string of the parameters, to tell whether an Idempotency-Key is reused with other ones. */
export function fingerprint(query: URLSearchParams, body: string): string {
  return [...query.entries(), ...new URLSearchParams(body).entries()]
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join('&')
}

export const str = (params: FormParams, name: string): string | undefined => {
  const value = params[name]
  if (value === undefined) return undefined
  if (typeof value !== 'string') throw invalidParam(name, `Invalid string: ${name} must be a string`)
  return value
}

export function bool(params: FormParams, name: string): boolean | undefined {
  const value = str(params, name)
  if (value === undefined) return undefined
  if (value === 'true') return true
  if (value === 'false') return false
  throw invalidParam(name, `Invalid boolean: ${value}`, 'parameter_invalid_boolean')
}

export function int(params: FormParams, name: string): number | undefined {
  const value = str(params, name)
  if (value === undefined) return undefined
  if (!/^-?\d+$/.test(value)) throw invalidParam(name, `Invalid integer: ${value}`, 'parameter_invalid_integer')
  return Number(value)
}

/** `metadata[key]=value`; an empty string deletes the key when updating, as in Stripe. */
export function metadataOf(params: FormParams, name = 'metadata'): Record<string, string> | undefined {
  const value = params[name]
  if (value === undefined) return undefined
  if (value === '') return {}
  if (typeof value !== 'object' || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string')) {
    throw invalidParam(name, 'Invalid hash', 'parameter_invalid_hash')
  }
  const entries = Object.entries(value as Record<string, string>)
  if (entries.length > 50) throw invalidParam(name, 'Metadata can have at most 50 keys.')
  for (const [k, v] of entries) {
    if (k.length > 40) throw invalidParam(`${name}[${k}]`, 'Metadata keys can be at most 40 characters long.')
    if (v.length > 500) throw invalidParam(`${name}[${k}]`, 'Metadata values can be at most 500 characters long.')
  }
  return Object.fromEntries(entries)
}

/** `expand[]=a&expand[]=b` or `expand[0]=a`. */
export function expandOf(params: FormParams): string[] {
  const value = params.expand
  if (value === undefined) return []
  const list = Array.isArray(value) ? value : typeof value === 'object' ? Object.values(value) : [value]
  if (list.some((v) => typeof v !== 'string')) throw invalidParam('expand', 'Invalid array', 'parameter_invalid_array')
  return list as string[]
}

/** Unknown top-level parameters answer 400 parameter_unknown, as Stripe does. */
export function allowOnly(params: FormParams, allowed: readonly string[]) {
  for (const key of Object.keys(params)) {
    if (key !== 'expand' && !allowed.includes(key)) throw invalidParam(key, `Received unknown parameter: ${key}`, 'parameter_unknown')
  }
}
