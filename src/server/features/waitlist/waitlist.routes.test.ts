import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitlistEntries } from '#server/db/schema.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { createTestApp, signIn, type TestApp } from '#server/test/harness.ts'

describe.each(testDatabaseKinds())('POST /_api/team/waitlist on %s', (kind) => {
  let ctx: TestApp
  let sid: string
  let userId: number
  beforeAll(async () => {
    ctx = await createTestApp(kind)
    ;({ sid, user: { id: userId } } = await signIn(ctx, 'google', { email: 'team@example.com', name: 'Team Lead' }))
  })
  afterAll(async () => {
    await ctx?.close()
  })

  const join = (payload: unknown, cookies: Record<string, string> = { sid }) =>
    ctx.app.inject({ method: 'POST', url: '/_api/team/waitlist', headers: { 'x-requested-with': 'XMLHttpRequest' }, cookies, payload: payload as object })

  it('stores the entry for a signed-in user and answers {success:true}', async () => {
    const res = await join({ name: 'Team Lead', email: 'team@example.com' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ success: true })
    const rows = await ctx.db.select().from(waitlistEntries)
    expect(rows).toEqual([expect.objectContaining({ name: 'Team Lead', email: 'team@example.com', userId })])
  })

  it('a repeat for the same email (any case) succeeds without a second entry', async () => {
    const res = await join({ name: 'Someone Else', email: 'TEAM@example.com' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ success: true })
    expect(await ctx.db.select().from(waitlistEntries)).toHaveLength(1)
  })

  it('rejects an empty name with "Name is required"', async () => {
    const res = await join({ name: '   ', email: 'a@example.com' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'Name is required', code: 'validation_error' })
  })

  it('rejects a missing name with "Name is required"', async () => {
    const res = await join({ email: 'a@example.com' })
    expect(res.json().error).toBe('Name is required')
  })

  it.each(['not-an-email', '', 'a@b'])('rejects email %j with "Please enter a valid email address"', async (email) => {
    const res = await join({ name: 'A', email })
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toBe('Please enter a valid email address')
  })

  it('rejects a missing email with "Please enter a valid email address"', async () => {
    const res = await join({ name: 'A' })
    expect(res.json().error).toBe('Please enter a valid email address')
  })

  it.each([{ name: 'A', email: 'anon@example.com' }, { name: '', email: 'x' }])(
    'requires sign-in before looking at the fields (%j)',
    async (payload) => {
      const res = await join(payload, {})
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ error: 'Authentication required', code: 'unauthenticated' })
    },
  )
})
