import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { createTestApp, signIn, type TestApp } from '#server/test/harness.ts'

describe.each(testDatabaseKinds())('whitelist and blacklist (SPEC 5, 7, 8) on %s', (kind) => {
  let ctx: TestApp
  let sid: string
  let otherSid: string
  beforeAll(async () => {
    ctx = await createTestApp(kind)
    ;({ sid } = await signIn(ctx, 'google', { email: 'lists@example.com' }))
    ;({ sid: otherSid } = await signIn(ctx, 'google', { email: 'other.lists@example.com' }))
  })
  afterAll(async () => {
    await ctx?.close()
  })

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown, cookie: string | null = sid) =>
    ctx.app.inject({ method, url, headers: { 'x-requested-with': 'XMLHttpRequest' }, cookies: cookie ? { sid: cookie } : {}, ...(payload ? { payload: payload as object } : {}) })

  describe.each(['whitelist', 'blacklist'] as const)('%s', (list) => {
    it('adds a domain lowercased and trimmed, lists it, and removes it', async () => {
      const added = await call('POST', `/_api/${list}`, { domain: '  Partner-Co.Example ' })
      expect(added.statusCode).toBe(200)
      expect(added.json()).toEqual({ id: expect.any(Number), domain: 'partner-co.example' })
      expect((await call('GET', `/_api/${list}`)).json()).toEqual([added.json()])
      expect((await call('GET', `/_api/${list}`, undefined, otherSid)).json()).toEqual([])
      const removed = await call('POST', `/_api/${list}/domain`, { domain: 'PARTNER-CO.example' })
      expect(removed.json()).toEqual({ success: true, domain: 'partner-co.example' })
      expect((await call('GET', `/_api/${list}`)).json()).toEqual([])
    })

    it(`answers 409 "…already ${list === 'whitelist' ? 'whitelisted' : 'blacklisted'}" for a duplicate in any case`, async () => {
      expect((await call('POST', `/_api/${list}`, { domain: 'dup.example' })).statusCode).toBe(200)
      const again = await call('POST', `/_api/${list}`, { domain: 'DUP.example' })
      expect(again.statusCode).toBe(409)
      expect(again.json()).toEqual({ error: `dup.example is already ${list === 'whitelist' ? 'whitelisted' : 'blacklisted'}.`, code: 'duplicate' })
      expect((await call('GET', `/_api/${list}`)).json()).toHaveLength(1)
    })

    it.each([
      ['ab', 'Domain must be at least 3 characters long.'],
      ['', 'Domain must be at least 3 characters long.'],
      ['no-dot', 'Invalid domain format.'],
      ['bad_char.example', 'Invalid domain format.'],
      ['example.c', 'Invalid domain format.'],
      ['example.123', 'Invalid domain format.'],
    ])('refuses to add %j with "%s"', async (domain, error) => {
      const res = await call('POST', `/_api/${list}`, { domain })
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toBe(error)
    })

    it('refuses an empty domain to remove with "Domain cannot be empty." and a missing one with 404', async () => {
      expect((await call('POST', `/_api/${list}/domain`, { domain: ' ' })).json().error).toBe('Domain cannot be empty.')
      const missing = await call('POST', `/_api/${list}/domain`, { domain: 'never-added.example' })
      expect(missing.statusCode).toBe(404)
      expect(missing.json().error).toBe(`never-added.example is not in your ${list}.`)
    })

    it('requires sign-in', async () => {
      expect((await call('GET', `/_api/${list}`, undefined, null)).statusCode).toBe(401)
      expect((await call('POST', `/_api/${list}`, { domain: 'x.example' }, null)).statusCode).toBe(401)
    })
  })
})
