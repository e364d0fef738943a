import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordAuditEvent } from '#server/audit/audit-log.ts'
import { decisions, domainListEntries, mailboxes, pushReceipts, senderRules, sessions, users } from '#server/db/schema.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { createTestApp, signIn, type TestApp } from '#server/test/harness.ts'

/**
 * Who may call what (issue 18; SPEC 6, whose server-side enforcement is ours to decide). Every
 * registered /_api route must have an entry here: a route added without one fails this test, so its
 * access is decided on purpose, not by accident.
 *
 * - public: anyone; no session guard refuses (sign-in, session read, app info, OAuth callbacks, which
 *   are proved by their state and browser-binding cookie rather than a session).
 * - user: 401 signed out; any signed-in user.
 * - admin: 401 signed out, 403 for a user (and nothing changes), admins only.
 * - webhook: providers' servers, proved by their own signatures: a session neither helps nor hinders.
 * - demo: demo mode only, from this machine only, whoever is signed in.
 */
type Access = 'public' | 'user' | 'admin' | 'webhook' | 'demo'

interface Caller {
  sid?: string
  email?: string
}

interface Expectation {
  access: Access
  /** The URL to call when the route pattern has parameters or needs a query. */
  url?: string
  /** A valid body, so the guard's decision, not validation, is what is measured. */
  body?: (caller: Caller) => unknown
}

const empty = () => ({})
const domain = () => ({ domain: 'matrix.example' })

const MATRIX: Record<string, Expectation> = {
  'GET /_api/app/info': { access: 'public' },
  'GET /_api/openapi.json': { access: 'public' },
  'GET /_api/auth/session': { access: 'public' },
  'POST /_api/auth/establish_session': { access: 'public', body: () => ({ tempToken: 'not-a-token' }) },
  'POST /_api/auth/logout': { access: 'public', body: empty },
  'GET /_api/auth/oauth_authorize': { access: 'public', url: '/_api/auth/oauth_authorize?provider=google' },
  'GET /_api/auth/oauth_callback/:provider': { access: 'public', url: '/_api/auth/oauth_callback/google?code=abc&state=unknown' },
  'GET /_api/gmail/callback': { access: 'public', url: '/_api/gmail/callback?code=abc&state=unknown' },
  'GET /_api/outlook/callback': { access: 'public', url: '/_api/outlook/callback?code=abc&state=unknown' },

  'POST /_api/team/waitlist': { access: 'user', body: (caller) => ({ name: 'Matrix', email: caller.email ?? 'visitor@example.com' }) },
  'GET /_api/gmail/authorize': { access: 'user' },
  'GET /_api/outlook/authorize': { access: 'user' },
  'GET /_api/gmail/test': { access: 'user' },
  'GET /_api/outlook/test': { access: 'user' },
  'POST /_api/gmail/disconnect': { access: 'user', body: () => ({ confirmDisconnection: true }) },
  'POST /_api/outlook/disconnect': { access: 'user', body: () => ({ confirmDisconnection: true }) },
  'GET /_api/settings': { access: 'user' },
  'POST /_api/settings': { access: 'user', body: () => ({ filteringEnabled: true }) },
  'POST /_api/gmail/poll': { access: 'user', body: empty },
  'GET /_api/billing/subscription': { access: 'user' },
  'POST /_api/billing/continue-free': { access: 'user', body: empty },
  'POST /_api/billing/create-checkout': { access: 'user', body: () => ({ planId: 'standard' }) },
  'POST /_api/billing/portal': { access: 'user', body: empty },
  'GET /_api/sessions': { access: 'user' },
  'POST /_api/sessions/revoke': { access: 'user', body: () => ({ sessionId: randomUUID() }) },
  'POST /_api/sessions/revoke-all': { access: 'user', body: empty },
  'POST /_api/onboarding/complete': { access: 'user', body: empty },
  'POST /_api/account/delete': { access: 'user', body: (caller) => ({ confirmationEmail: caller.email ?? 'nobody@example.com', confirmationPhrase: 'DELETE MY ACCOUNT' }) },
  'GET /_api/whitelist': { access: 'user' },
  'POST /_api/whitelist': { access: 'user', body: domain },
  'POST /_api/whitelist/domain': { access: 'user', body: domain },
  'GET /_api/blacklist': { access: 'user' },
  'POST /_api/blacklist': { access: 'user', body: domain },
  'POST /_api/blacklist/domain': { access: 'user', body: domain },
  'GET /_api/activity': { access: 'user' },
  'GET /_api/activity/stats': { access: 'user' },
  'POST /_api/activity/restore': { access: 'user', body: () => ({ decisionId: 999_999 }) },
  'POST /_api/activity/flag': { access: 'user', body: () => ({ decisionId: 999_999 }) },
  'GET /_api/heartbeat/status': { access: 'user' },
  'GET /_api/webhooks/status': { access: 'user' },
  'POST /_api/webhooks/setup': { access: 'user', body: () => ({ provider: 'all' }) },

  'GET /_api/health/providers': { access: 'admin' },
  'POST /_api/health/reset-circuit-breaker': { access: 'admin', body: () => ({ serviceName: 'gmail' }) },
  'GET /_api/cron/health': { access: 'admin' },
  'GET /_api/admin/mailbox-health': { access: 'admin' },
  'GET /_api/audit-logs': { access: 'admin', url: '/_api/audit-logs?page=1&limit=25' },
  'GET /_api/admin/waitlist': { access: 'admin' },
  'POST /_api/admin/redact-audit-tokens': { access: 'admin', body: empty },
  'POST /_api/admin/trigger-watchdog': { access: 'admin', body: empty },
  'POST /_api/admin/trigger-cleanup': { access: 'admin', body: empty },
  'POST /_api/admin/sessions/cleanup': { access: 'admin', body: () => ({ action: 'both' }) },
  'POST /_api/admin/migrate-webhooks': { access: 'admin', body: empty },
  'POST /_api/demo/provider-fault': { access: 'admin', body: () => ({ provider: 'outlook', status: 503, times: 1 }) },

  'POST /_api/webhooks/gmail': { access: 'webhook', body: () => ({ message: { data: 'e30=', messageId: 'matrix-1' }, subscription: 'projects/p/subscriptions/s' }) },
  'POST /_api/webhooks/outlook': { access: 'webhook', body: () => ({ value: [] }) },
  'POST /_api/webhooks/outlook/lifecycle': { access: 'webhook', body: () => ({ value: [] }) },
  'POST /_api/webhooks/stripe': { access: 'webhook', body: empty },

  'POST /_api/demo/deliver': { access: 'demo', body: () => ({ to: 'nobody@demo.example', raw: 'Subject: hi\r\n\r\nhello' }) },
}

const ADMIN = 'admin@example.com'
/** What the session guards answer (src/server/plugins/session.ts). */
const GUARD_CODES = new Set(['unauthenticated', 'forbidden'])
const codeOf = (res: LightMyRequestResponse): string | undefined => {
  try {
    return (res.json() as { code?: string }).code
  } catch {
    return undefined
  }
}

describe.each(testDatabaseKinds())('authorization of every /_api route (issue 18) on %s', (kind) => {
  let ctx: TestApp
  let registered: string[]
  let signIns = 0

  beforeAll(async () => {
    // Demo mode with the mail fakes registers every route there is (the demo routes only exist there);
    // the local Stripe lets billing answer rather than report itself unavailable.
    ctx = await createTestApp(kind, { env: { ADMIN_EMAILS: ADMIN }, mail: true, demo: true, stripe: true, breaker: { threshold: 1, coolDownMs: 60 * 60_000 } })
    registered = [...new Set(ctx.app.apiRoutes.map((route) => `${route.method} ${route.url}`))]
  }, 60_000)
  afterAll(async () => {
    await ctx?.close()
  })

  /** A fresh session per route: some routes end it (logout, account deletion). */
  async function freshUser(): Promise<Required<Caller>> {
    const email = `matrix-${++signIns}@example.com`
    return { sid: (await signIn(ctx, 'google', { email })).sid, email }
  }
  async function freshAdmin(): Promise<Required<Caller>> {
    const { sid, user } = await signIn(ctx, 'google', { email: ADMIN })
    expect(user.role).toBe('admin')
    return { sid, email: ADMIN }
  }

  function call(key: string, caller: Caller, remoteAddress?: string) {
    const [method, path] = key.split(' ') as ['GET' | 'POST', string]
    const expectation = MATRIX[key]!
    const body = method === 'POST' ? (expectation.body ?? empty)(caller) : undefined
    return ctx.app.inject({
      method,
      url: expectation.url ?? path,
      headers: { 'x-requested-with': 'XMLHttpRequest', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      cookies: caller.sid ? { sid: caller.sid } : {},
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      ...(remoteAddress ? { remoteAddress } : {}),
    })
  }

  /** Every public table's rows, hashed (sessions without last_accessed, which reads may touch). */
  async function snapshot(): Promise<Record<string, string>> {
    const tables = (await ctx.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like '__drizzle%' order by table_name`,
    )) as unknown as { rows: { table_name: string }[] }
    const state: Record<string, string> = {}
    for (const { table_name: table } of tables.rows) {
      const row = sql.raw(`(to_jsonb(t) - 'last_accessed')::text`)
      const result = (await ctx.db.execute(
        sql`select count(*)::int as n, md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) as h from ${sql.identifier(table)} t`,
      )) as unknown as { rows: { n: number; h: string }[] }
      state[table] = `${result.rows[0]!.n}:${result.rows[0]!.h}`
    }
    return state
  }

  /** A snapshot that two reads agree on, so work still settling from the last request is not counted. */
  async function settledSnapshot(): Promise<Record<string, string>> {
    let last = await snapshot()
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25))
      const next = await snapshot()
      if (JSON.stringify(next) === JSON.stringify(last)) return next
      last = next
    }
    return last
  }

  /** Things an admin route would change if it ran: an open breaker, a token in the audit log, expired sign-in material, old receipts. */
  async function seedChangeableState() {
    await ctx.services.breakers.failure('gmail')
    await recordAuditEvent(ctx.db, { eventType: 'LOGIN_FAILURE', eventCategory: 'AUTHENTICATION', severity: 'WARNING', action: 'matrix', success: false, metadata: { accessToken: 'ya29.matrix-secret' } })
    const [someone] = await ctx.db.insert(users).values({ displayName: 'Expired', email: `expired-${randomUUID()}@example.com` }).returning({ id: users.id })
    const long = new Date(Date.now() - 100 * 24 * 3600_000)
    await ctx.db.insert(sessions).values({
      id: randomUUID(),
      tokenHash: randomUUID(),
      userId: someone!.id,
      deviceType: 'desktop',
      browser: 'Chrome',
      os: 'Windows',
      location: 'Unknown',
      createdAt: long,
      lastAccessed: long,
      expiresAt: new Date(Date.now() - 24 * 3600_000),
    })
    await ctx.db.insert(pushReceipts).values({ source: 'gmail', dedupeKey: randomUUID(), receivedAt: long })
  }

  it('has an entry for every registered route', () => {
    expect(registered.length).toBeGreaterThan(40)
    expect(registered.filter((key) => !(key in MATRIX))).toEqual([])
  })

  it('lists entries whose route is not registered yet as pending', (context) => {
    const pending = Object.keys(MATRIX).filter((key) => !registered.includes(key))
    if (pending.length === 0) return
    console.info(`authorization matrix (${kind}): entries without a registered route, pending: ${pending.join(', ')}`)
    context.skip(`pending: ${pending.join(', ')}`)
  })

  it('answers each route as its access class says: signed out, as a user, and as an admin', async () => {
    const failures: string[] = []
    const check = (ok: boolean, key: string, who: string, res: LightMyRequestResponse, want: string) => {
      if (!ok) failures.push(`${key} as ${who}: ${res.statusCode} ${res.body.slice(0, 160)} (wanted ${want})`)
    }
    // Admin routes first: user routes start background work (Stripe webhooks re-read customers into
    // billing_accounts) that would blur the before/after comparison of the admin routes.
    const order = (key: string) => (MATRIX[key]!.access === 'admin' ? 0 : 1)
    for (const key of registered.filter((k) => k in MATRIX).sort((a, b) => order(a) - order(b))) {
      const { access } = MATRIX[key]!
      if (access === 'demo') continue
      const user = await freshUser()
      const admin = await freshAdmin()

      const unguarded = (who: string, res: LightMyRequestResponse) => check(!GUARD_CODES.has(codeOf(res) ?? '') && res.statusCode < 500, key, who, res, 'no guard refusal, no 5xx')
      const signedOut = await call(key, {})
      if (access === 'user' || access === 'admin') check(signedOut.statusCode === 401, key, 'signed out', signedOut, '401')
      if (access === 'public') unguarded('signed out', signedOut)

      if (access === 'admin') await seedChangeableState()
      const before = access === 'admin' ? await settledSnapshot() : undefined
      const asUser = await call(key, user)
      if (access === 'admin') {
        check(asUser.statusCode === 403 && codeOf(asUser) === 'forbidden', key, 'user', asUser, '403 forbidden')
        const after = await snapshot()
        const changed = Object.keys(after).filter((table) => after[table] !== before![table])
        if (changed.length > 0) failures.push(`${key} as user changed ${changed.join(', ')}`)
      } else if (access === 'webhook') {
        check(asUser.statusCode === signedOut.statusCode, key, 'user', asUser, `${signedOut.statusCode} as signed out`)
      } else if (access === 'public') {
        unguarded('user', asUser)
      } else {
        check(asUser.statusCode !== 401 && asUser.statusCode !== 403 && asUser.statusCode < 500, key, 'user', asUser, 'not 401/403/5xx')
      }

      const asAdmin = await call(key, admin)
      if (access === 'webhook') check(asAdmin.statusCode === signedOut.statusCode, key, 'admin', asAdmin, `${signedOut.statusCode} as signed out`)
      else if (access === 'public') unguarded('admin', asAdmin)
      else check(asAdmin.statusCode !== 401 && asAdmin.statusCode !== 403 && asAdmin.statusCode < 500, key, 'admin', asAdmin, 'not 401/403/5xx')
    }
    expect(failures).toEqual([])
  }, 180_000)

  it('demo delivery is taken from this machine only, whoever is signed in', async () => {
    const key = 'POST /_api/demo/deliver'
    if (!registered.includes(key)) return
    const admin = await freshAdmin()
    for (const caller of [{}, await freshUser(), admin]) {
      const remote = await call(key, caller, '203.0.113.50')
      expect(remote.statusCode).toBe(403)
      const local = await call(key, caller)
      // No such demo mailbox: refused by the handler, not by any guard.
      expect(local.statusCode).toBe(404)
    }
  })

  describe("another user's resources", () => {
    let victim: Required<Caller>
    let attacker: Required<Caller>
    let victimId: number
    beforeAll(async () => {
      victim = await freshUser()
      attacker = await freshUser()
      victimId = (await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, victim.email)))[0]!.id
    })
    const post = (url: string, sid: string, payload: object) => ctx.app.inject({ method: 'POST', url, headers: { 'x-requested-with': 'XMLHttpRequest' }, cookies: { sid }, payload })

    it("POST /_api/sessions/revoke with another user's session id answers 404 and that session lives on", async () => {
      const own = await ctx.app.inject({ method: 'GET', url: '/_api/sessions', cookies: { sid: victim.sid } })
      const victimSessionId = (own.json().sessions as Array<{ id: string; isCurrent: boolean }>).find((s) => s.isCurrent)!.id
      const res = await post('/_api/sessions/revoke', attacker.sid, { sessionId: victimSessionId })
      expect(res.statusCode).toBe(404)
      expect((await ctx.app.inject({ method: 'GET', url: '/_api/auth/session', cookies: { sid: victim.sid } })).json().user).toMatchObject({ email: victim.email })
      expect(await ctx.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, victimSessionId))).toHaveLength(1)
    })

    it("POST /_api/activity/restore and /flag with another user's decision answer 404 and change nothing", async () => {
      const [mailbox] = await ctx.db
        .insert(mailboxes)
        .values({ userId: victimId, provider: 'gmail', emailAddress: victim.email, status: 'connected' })
        .returning({ id: mailboxes.id })
      const [decision] = await ctx.db
        .insert(decisions)
        .values({
          userId: victimId,
          mailboxId: mailbox!.id,
          provider: 'gmail',
          providerMessageId: 'victim-1',
          receivedAt: new Date(),
          senderAddress: 'pitch@vendor.example',
          subject: 'Quick question',
          category: 'unwanted',
          confidence: 0.9,
          action: 'filed',
          state: 'filed',
          reasons: ['cold outreach'],
          decidedBy: 'classifier',
          appliedAt: new Date(),
        })
        .returning()
      for (const url of ['/_api/activity/restore', '/_api/activity/flag']) {
        const res = await post(url, attacker.sid, { decisionId: decision!.id })
        expect(res.statusCode, url).toBe(404)
      }
      expect((await ctx.db.select().from(decisions).where(eq(decisions.id, decision!.id)))[0]).toEqual(decision)
      expect(await ctx.db.select().from(senderRules).where(eq(senderRules.address, 'pitch@vendor.example'))).toEqual([])
      const listed = await ctx.app.inject({ method: 'GET', url: '/_api/activity', cookies: { sid: attacker.sid } })
      expect(listed.json().items).toEqual([])
    })

    it("POST /_api/whitelist/domain and /blacklist/domain cannot remove another user's entry", async () => {
      for (const kind of ['whitelist', 'blacklist'] as const) {
        expect((await post(`/_api/${kind}`, victim.sid, { domain: 'victim.example' })).statusCode).toBe(200)
        const res = await post(`/_api/${kind}/domain`, attacker.sid, { domain: 'victim.example' })
        expect(res.statusCode, kind).toBe(404)
        const kept = await ctx.db
          .select()
          .from(domainListEntries)
          .where(and(eq(domainListEntries.userId, victimId), eq(domainListEntries.kind, kind), eq(domainListEntries.domain, 'victim.example')))
        expect(kept, kind).toHaveLength(1)
      }
    })
  })
})
