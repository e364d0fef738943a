import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitlistEntries } from '#server/db/schema.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { createTestApp, signIn, type TestApp } from '#server/test/harness.ts'
import { WAITLIST_RATE_LIMIT } from './waitlist.routes.ts'

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

  // Issue 11 item 3: a NUL byte reached the database and answered 500.
  it.each([
    ['a NUL in the name', { name: 'a\u0000b', email: 'bob@example.com' }, 'name'],
    ['only a NUL as the name', { name: '\u0000', email: 'bob@example.com' }, 'name'],
    ['a lone surrogate in the name', { name: 'x\ud800', email: 'bob@example.com' }, 'name'],
    ['a NUL in the email', { name: 'Bob', email: 'bob\u0000@example.com' }, 'email'],
  ])('refuses %s with 400 and a message naming the field, storing nothing', async (_label, payload, field) => {
    const before = await ctx.db.select().from(waitlistEntries)
    const res = await join(payload)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      error: `The field "${field}" contains a character that cannot be stored (a NUL character or invalid Unicode). Remove it and try again.`,
      code: 'invalid_text',
    })
    expect(await ctx.db.select().from(waitlistEntries)).toEqual(before)
  })
})

describe('waitlist rate limit', () => {
  let ctx: TestApp
  beforeAll(async () => {
    ctx = await createTestApp('pglite', { waitlistRateLimit: WAITLIST_RATE_LIMIT })
  })
  afterAll(async () => {
    await ctx?.close()
  })

  // Issue 11 item 7: one user added 253 addresses in 5 seconds.
  it(`stops a user after ${WAITLIST_RATE_LIMIT.max} submissions a minute, without slowing anyone else`, async () => {
    const flooder = await signIn(ctx, 'google', { email: 'flood@example.com' })
    const other = await signIn(ctx, 'google', { email: 'calm@example.com' })
    const join = (sid: string, i: number) =>
      ctx.app.inject({
        method: 'POST',
        url: '/_api/team/waitlist',
        headers: { 'x-requested-with': 'XMLHttpRequest' },
        cookies: { sid },
        payload: { name: 'N', email: `address${i}@example.com` },
      })
    const statuses: number[] = []
    for (let i = 0; i < WAITLIST_RATE_LIMIT.max + 5; i++) statuses.push((await join(flooder.sid, i)).statusCode)
    expect(statuses.filter((s) => s === 200)).toHaveLength(WAITLIST_RATE_LIMIT.max)
    expect(statuses.slice(WAITLIST_RATE_LIMIT.max)).toEqual(Array(5).fill(429))
    const limited = await join(flooder.sid, 99)
    expect(limited.json()).toEqual({ error: 'Too many requests. Please wait a moment and try again.', code: 'rate_limited' })
    expect(await ctx.db.select().from(waitlistEntries)).toHaveLength(WAITLIST_RATE_LIMIT.max)
    expect((await join(other.sid, 1000)).statusCode).toBe(200)
  })
})
