import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ApiRouteInfo } from '#server/app.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { createTestApp, signIn, type TestApp } from '#server/test/harness.ts'

/**
 * A malformed-input sweep over every registered /_api route (issue 11: bad input gets a 4xx with a
 * clear message, never a 5xx). Requests are generated from each route's own request schemas: every
 * declared field gets NUL, broken Unicode, wrong types, huge and nested values; bodies come as
 * non-JSON, wrong content types, prototype-polluting keys; paths come percent-encoded; callers are
 * signed out, hold a bogus cookie, or are signed in. The deterministic slice of `npm run fuzz`.
 */

interface Probe {
  label: string
  method: string
  url: string
  headers?: Record<string, string>
  payload?: string
  cookie?: string
}

const NASTY_VALUES: Array<[string, unknown]> = [
  ['NUL', 'a\u0000b'],
  ['only NUL', '\u0000'],
  ['lone high surrogate', 'x\ud800y'],
  ['lone low surrogate', '\udc00'],
  ['number', 12345],
  ['negative', -1],
  ['float', 1.5e308],
  ['boolean', true],
  ['null', null],
  ['array', ['a', 'b']],
  ['object', { nested: 'value' }],
  ['empty', ''],
  ['spaces', '   '],
  ['long', 'x'.repeat(20_000)],
  ['deep', JSON.parse('['.repeat(500) + ']'.repeat(500)) as unknown],
  ['html', '<script>alert(1)</script>'],
  ['sql', "' OR 1=1 --"],
  ['unicode', 'Zoë 🙂 \u202e'],
]

const QUERY_VALUES: Array<[string, string]> = [
  ['%00', '%00'],
  ['broken percent', '%E0%A4%A'],
  ['lone surrogate bytes', '%ED%A0%80'],
  ['long', 'y'.repeat(5_000)],
  ['empty', ''],
]

/** Field names a request schema declares (zod objects), so every field gets every nasty value. */
function fieldsOf(schema: unknown): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape as Record<string, unknown>) : []
}

function validParams(url: string): string {
  return url.replace(':provider', 'google')
}

function probesFor(route: ApiRouteInfo): Probe[] {
  const url = validParams(route.url)
  const probes: Probe[] = []
  const json = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' }
  const bodyFields = fieldsOf(route.schema.body)
  const queryFields = fieldsOf(route.schema.querystring)

  if (route.method === 'POST') {
    for (const [label, payload] of [
      ['no body', undefined],
      ['JSON null', 'null'],
      ['JSON array', '[]'],
      ['JSON string', '"text"'],
      ['JSON number', '42'],
      ['truncated JSON', '{"a":'],
      ['BOM', '\ufeff{}'],
      ['__proto__', '{"__proto__":{"role":"admin"}}'],
      ['constructor.prototype', '{"constructor":{"prototype":{"role":"admin"}}}'],
      ['NUL key', '{"a\\u0000":1}'],
      ['lone surrogate key', '{"\\ud800":1}'],
      ['body over the limit', JSON.stringify({ blob: 'z'.repeat(70 * 1024) })],
    ] as Array<[string, string | undefined]>) {
      probes.push({ label: `body: ${label}`, method: 'POST', url, headers: json, payload })
    }
    for (const [label, contentType] of [
      ['text/plain', 'text/plain'],
      ['xml', 'application/xml'],
      ['form', 'application/x-www-form-urlencoded'],
      ['multipart', 'multipart/form-data; boundary=x'],
      ['json with charset', 'application/json; charset=utf-16'],
    ]) {
      probes.push({ label: `content type: ${label}`, method: 'POST', url, headers: { 'content-type': contentType!, 'x-requested-with': 'XMLHttpRequest' }, payload: 'a=1' })
    }
    for (const field of bodyFields.length > 0 ? bodyFields : ['unexpected']) {
      for (const [label, value] of NASTY_VALUES) {
        probes.push({ label: `body.${field}: ${label}`, method: 'POST', url, headers: json, payload: JSON.stringify({ [field]: value }) })
        // The other fields valid-looking, so the nasty one is what validation meets.
        const others = Object.fromEntries(bodyFields.filter((f) => f !== field).map((f) => [f, f === 'email' ? 'ok@example.com' : 'ok']))
        probes.push({ label: `body.${field}: ${label} among valid fields`, method: 'POST', url, headers: json, payload: JSON.stringify({ ...others, [field]: value }) })
      }
    }
  }

  const fields = queryFields.length > 0 ? queryFields : ['unexpected']
  for (const field of fields) {
    for (const [label, value] of QUERY_VALUES) {
      probes.push({ label: `query ${field}: ${label}`, method: route.method, url: `${url}?${field}=${value}`, headers: { 'x-requested-with': 'XMLHttpRequest' } })
    }
    probes.push({ label: `query ${field}: repeated`, method: route.method, url: `${url}?${field}=a&${field}=b`, headers: { 'x-requested-with': 'XMLHttpRequest' } })
  }
  probes.push({ label: 'query: all fields NUL', method: route.method, url: `${url}?${fields.map((f) => `${f}=%00`).join('&')}`, headers: { 'x-requested-with': 'XMLHttpRequest' } })

  if (route.url.includes(':provider')) {
    for (const bad of ['%00', '%ED%A0%80', 'GOOGLE', 'x'.repeat(300), '..%2F..%2F']) {
      probes.push({ label: `param provider ${bad.slice(0, 12)}`, method: route.method, url: route.url.replace(':provider', bad), headers: { 'x-requested-with': 'XMLHttpRequest' } })
    }
  }
  // The router decodes percent-escapes; guards must hold on the encoded spelling too.
  probes.push({ label: 'encoded path', method: route.method, url: url.replace('/_api/', '/%5Fapi/'), headers: { ...json, origin: 'https://evil.example' }, payload: route.method === 'POST' ? '{}' : undefined })
  probes.push({ label: 'double slash', method: route.method, url: url.replace('/_api/', '/_api//'), headers: json, payload: route.method === 'POST' ? '{}' : undefined })
  return probes
}

describe.each(testDatabaseKinds())('malformed input on every /_api route on %s', (kind) => {
  let ctx: TestApp
  beforeAll(async () => {
    ctx = await createTestApp(kind)
  })
  afterAll(async () => {
    await ctx?.close()
  })

  it('answers every malformed request with a 4xx or a normal answer, never a 5xx, and 4xx JSON carries an error message', async () => {
    const routes = ctx.app.apiRoutes
    expect(routes.length).toBeGreaterThanOrEqual(6)
    const failures: string[] = []
    let sent = 0
    for (const route of routes) {
      // Signed out, a bogus cookie, and signed in (a fresh session per route: logout ends it).
      const { sid } = await signIn(ctx, 'google', { email: 'sweeper@example.com' })
      for (const cookie of [undefined, 'not-a-session', 'x%00y', sid]) {
        for (const probe of probesFor(route)) {
          const res = await ctx.app.inject({
            method: probe.method as 'GET' | 'POST',
            url: probe.url,
            headers: { ...probe.headers, ...(cookie ? { cookie: `sid=${cookie}` } : {}) },
            ...(probe.payload !== undefined ? { payload: probe.payload } : {}),
          })
          sent++
          const where = `${route.method} ${route.url} [${probe.label}] cookie=${cookie === sid ? 'user' : String(cookie)}`
          if (res.statusCode >= 500) failures.push(`${where} → ${res.statusCode} ${res.body.slice(0, 200)}`)
          else if (res.statusCode >= 400 && String(res.headers['content-type']).includes('application/json')) {
            const body = res.json() as { error?: unknown }
            if (typeof body.error !== 'string' || body.error === '') failures.push(`${where} → ${res.statusCode} without an error message`)
          }
        }
      }
    }
    expect(failures).toEqual([])
    expect(sent).toBeGreaterThan(1000)
  }, 120_000)
})
