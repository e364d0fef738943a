import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { createTestApp, signIn, type TestApp } from '#server/test/harness.ts'
import { DEFAULT_SETTINGS } from '#shared/api/settings.ts'

describe.each(testDatabaseKinds())('settings and polling (SPEC 3, 5, 7) on %s', (kind) => {
  let ctx: TestApp
  let sid: string
  let otherSid: string
  beforeAll(async () => {
    ctx = await createTestApp(kind)
    ;({ sid } = await signIn(ctx, 'google', { email: 'settings@example.com' }))
    ;({ sid: otherSid } = await signIn(ctx, 'google', { email: 'other.settings@example.com' }))
  })
  afterAll(async () => {
    await ctx?.close()
  })

  const get = (cookie = sid) => ctx.app.inject({ method: 'GET', url: '/_api/settings', cookies: cookie ? { sid: cookie } : {} })
  const post = (payload: unknown, cookie = sid) =>
    ctx.app.inject({ method: 'POST', url: '/_api/settings', headers: { 'x-requested-with': 'XMLHttpRequest' }, cookies: cookie ? { sid: cookie } : {}, payload: payload as object })

  it('answers the defaults before anything is changed, with performance metrics', async () => {
    const res = await get()
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ ...DEFAULT_SETTINGS, performanceMetrics: { webhookEventsToday: 0, pollingEventsToday: 0 } })
    expect(DEFAULT_SETTINGS).toMatchObject({ filteringEnabled: true, allowUnwanted: false, allowGenuine: true, confidenceThreshold: 0.7, strictnessLevel: 'balanced' })
  })

  it('changes any subset and keeps the rest; another user is not affected', async () => {
    const res = await post({ allowPromotional: false, confidenceThreshold: 0.85 })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ allowPromotional: false, confidenceThreshold: 0.85, allowInformational: true, strictnessLevel: 'balanced' })
    expect((await post({ strictnessLevel: 'strict' })).json()).toMatchObject({ allowPromotional: false, confidenceThreshold: 0.85, strictnessLevel: 'strict' })
    expect((await get()).json()).toMatchObject({ allowPromotional: false, confidenceThreshold: 0.85, strictnessLevel: 'strict' })
    expect((await get(otherSid)).json()).toMatchObject({ allowPromotional: true, confidenceThreshold: 0.7, strictnessLevel: 'balanced' })
  })

  it.each([
    [{ confidenceThreshold: 0.05 }, 'confidenceThreshold must be between 0.1 and 1'],
    [{ confidenceThreshold: 1.5 }, 'confidenceThreshold must be between 0.1 and 1'],
    [{ confidenceThreshold: '0.5' }, 'confidenceThreshold must be a number between 0.1 and 1'],
    [{ strictnessLevel: 'paranoid' }, 'strictnessLevel must be one of balanced, relaxed, strict'],
    [{ allowUnwanted: true }, 'Unwanted mail is always filtered: allowUnwanted cannot be changed'],
    [{ allowGenuine: false }, 'Genuine mail is always kept: allowGenuine cannot be changed'],
    [{ filteringEnabled: 'yes' }, 'filteringEnabled must be true or false'],
    [{ theme: 'dark' }, 'Unknown setting: theme'],
  ])('refuses %j with 400 "%s" and changes nothing', async (payload, error) => {
    const before = (await get()).json()
    const res = await post(payload)
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toBe(error)
    expect((await get()).json()).toEqual(before)
  })

  it('requires sign-in', async () => {
    expect((await get('')).statusCode).toBe(401)
    expect((await post({ filteringEnabled: false }, '')).statusCode).toBe(401)
  })

  it('POST /_api/gmail/poll without a connected mailbox says so and queues nothing', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/_api/gmail/poll', headers: { 'x-requested-with': 'XMLHttpRequest' }, cookies: { sid }, payload: {} })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ message: 'No mailbox is connected.', emailsQueued: 0 })
  })
})
