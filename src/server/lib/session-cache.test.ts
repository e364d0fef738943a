import { describe, expect, it } from 'vitest'
import type { SessionUser } from '#shared/api/auth.ts'
import { decodeChange, encodeChange, SESSION_CACHE_TTL_MS, SessionCache } from './session-cache.ts'

const T0 = Date.UTC(2026, 0, 1)
const WEEK = 7 * 24 * 3600_000

const user = (id: number): SessionUser => ({ id, displayName: 'U', email: `u${id}@example.com`, role: 'user', hasCompletedOnboarding: false, createdAt: new Date(T0).toISOString() })
const row = (sessionId: string, userId: number, expiresAt = new Date(T0 + WEEK)) => ({ sessionId, user: user(userId), expiresAt })

/** A database read that counts how often it runs. */
function reader(result: ReturnType<typeof row> | null) {
  const calls = { count: 0 }
  const load = async () => {
    calls.count++
    return result === null ? null : { ...result, user: { ...result.user } }
  }
  return { calls, load }
}

describe('SessionCache', () => {
  it(`serves a session from memory for ${SESSION_CACHE_TTL_MS} ms, then reads the database again`, async () => {
    const cache = new SessionCache({ enabled: true })
    const { calls, load } = reader(row('s1', 1))
    await cache.resolve('h1', T0, load)
    expect(await cache.resolve('h1', T0 + SESSION_CACHE_TTL_MS - 1, load)).toMatchObject({ sessionId: 's1', user: { id: 1 } })
    expect(calls.count).toBe(1)
    await cache.resolve('h1', T0 + SESSION_CACHE_TTL_MS, load)
    expect(calls.count).toBe(2)
  })

  it('never serves a session past its own expiry', async () => {
    const cache = new SessionCache({ enabled: true })
    const { calls, load } = reader(row('s1', 1, new Date(T0 + 100)))
    await cache.resolve('h1', T0, load)
    await cache.resolve('h1', T0 + 99, load)
    expect(calls.count).toBe(1)
    await cache.resolve('h1', T0 + 100, load)
    expect(calls.count).toBe(2)
  })

  it('does not remember unknown tokens', async () => {
    const cache = new SessionCache({ enabled: true })
    const { calls, load } = reader(null)
    expect(await cache.resolve('h1', T0, load)).toBeNull()
    expect(await cache.resolve('h1', T0, load)).toBeNull()
    expect(calls.count).toBe(2)
  })

  it('forgets by session id, by user, or everything', async () => {
    const cache = new SessionCache({ enabled: true })
    await cache.resolve('a', T0, reader(row('sa', 1)).load)
    await cache.resolve('b', T0, reader(row('sb', 1)).load)
    await cache.resolve('c', T0, reader(row('sc', 2)).load)
    await cache.resolve('d', T0, reader(row('sd', 3)).load)
    cache.forget({ sessionIds: ['sc'] })
    expect(['a', 'b', 'c', 'd'].map((h) => cache.holds(h, T0))).toEqual([true, true, false, true])
    cache.forget({ userId: 1 })
    expect(['a', 'b', 'c', 'd'].map((h) => cache.holds(h, T0))).toEqual([false, false, false, true])
    cache.forget({ all: true })
    expect(cache.size).toBe(0)
  })

  it('does not keep a read that was under way when a change arrived (it may hold the old row)', async () => {
    const cache = new SessionCache({ enabled: true })
    let finish: () => void = () => {}
    const pending = cache.resolve('h1', T0, () => new Promise((resolve) => (finish = () => resolve(row('s1', 1)))))
    cache.forget({ sessionIds: ['s1'] })
    finish()
    // The request that began before the change is answered; nothing is kept for the next one.
    expect(await pending).toMatchObject({ sessionId: 's1' })
    expect(cache.holds('h1', T0)).toBe(false)
  })

  it('keeps nothing while disabled (its LISTEN connection is down), and starts empty when enabled', async () => {
    const cache = new SessionCache({ enabled: true })
    await cache.resolve('h1', T0, reader(row('s1', 1)).load)
    cache.setEnabled(false)
    expect(cache.size).toBe(0)
    const { calls, load } = reader(row('s1', 1))
    await cache.resolve('h1', T0, load)
    await cache.resolve('h1', T0, load)
    expect(calls.count).toBe(2)
    cache.setEnabled(true)
    await cache.resolve('h1', T0, load)
    await cache.resolve('h1', T0, load)
    expect(calls.count).toBe(3)
  })

  it('holds at most maxEntries, dropping the oldest first', async () => {
    const cache = new SessionCache({ enabled: true, maxEntries: 3 })
    for (const h of ['a', 'b', 'c', 'd']) await cache.resolve(h, T0, reader(row(`s${h}`, 1)).load)
    expect(cache.size).toBe(3)
    expect(['a', 'b', 'c', 'd'].map((h) => cache.holds(h, T0))).toEqual([false, true, true, true])
  })

  it('hands out a frozen user, so one request cannot change what the next one sees', async () => {
    const cache = new SessionCache({ enabled: true })
    const session = await cache.resolve('h1', T0, reader(row('s1', 1)).load)
    expect(Object.isFrozen(session!.user)).toBe(true)
  })
})

describe('session change notices', () => {
  it('round-trip through the NOTIFY payload', () => {
    for (const change of [{ sessionIds: ['a', 'b'] }, { userId: 42 }, { all: true as const }]) expect(decodeChange(encodeChange(change))).toEqual(change)
  })

  it('announce a list too long for one NOTIFY as "everything", and read anything unreadable the same way', () => {
    const many = Array.from({ length: 500 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`)
    expect(decodeChange(encodeChange({ sessionIds: many }))).toEqual({ all: true })
    for (const payload of [undefined, '', 'not json', '{"u":"1"}', '{"s":[1]}', '[]']) expect(decodeChange(payload)).toEqual({ all: true })
  })
})
