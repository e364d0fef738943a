import { count, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { withAuditMaintenance } from '#server/audit/audit-maintenance.ts'
import { auditEvents, jobRuns, mailboxes, providerHealth, users, waitlistEntries } from '#server/db/schema.ts'
import { testDatabaseKinds } from '#server/test/databases.ts'
import { createTestApp, signIn, type TestApp } from '#server/test/harness.ts'
import { cronGraceMs, cronOverallOf, cronStatusOf } from './ops.service.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const ADMIN = 'admin@example.com'
const XHR = { 'x-requested-with': 'XMLHttpRequest' }

describe.each(testDatabaseKinds())('admin health, audit log and redaction (issue 18) on %s', (kind) => {
  let ctx: TestApp
  let adminSid: string
  let adminId: number
  let userSid: string

  beforeAll(async () => {
    ctx = await createTestApp(kind, { env: { ADMIN_EMAILS: ADMIN }, breaker: { threshold: 3, coolDownMs: 10 * MINUTE } })
    const admin = await signIn(ctx, 'google', { email: ADMIN })
    adminSid = admin.sid
    adminId = admin.user.id
    expect(admin.user.role).toBe('admin')
    userSid = (await signIn(ctx, 'google', { email: 'someone@example.com' })).sid
  }, 60_000)
  afterAll(async () => {
    await ctx?.close()
  })

  const get = (url: string, sid = adminSid) => ctx.app.inject({ method: 'GET', url, cookies: { sid } })
  const post = (url: string, payload: object, sid = adminSid) => ctx.app.inject({ method: 'POST', url, headers: XHR, cookies: { sid }, payload })
  /** Clears the audit log through the purge path, the one way rows may go. */
  const clearAuditLog = () => withAuditMaintenance(ctx.db, 'purge', (tx) => tx.delete(auditEvents))
  const auditCount = async () => Number((await ctx.db.select({ n: count() }).from(auditEvents))[0]!.n)

  describe('access', () => {
    it.each([
      ['GET', '/_api/health/providers'],
      ['POST', '/_api/health/reset-circuit-breaker'],
      ['GET', '/_api/cron/health'],
      ['GET', '/_api/admin/mailbox-health'],
      ['GET', '/_api/audit-logs'],
      ['GET', '/_api/admin/waitlist'],
      ['POST', '/_api/admin/redact-audit-tokens'],
    ] as const)('%s %s answers 401 signed out and 403 to a user who is not an admin', async (method, url) => {
      const payload = url.endsWith('reset-circuit-breaker') ? { serviceName: 'gmail' } : {}
      const signedOut = await ctx.app.inject({ method, url, headers: XHR, ...(method === 'POST' ? { payload } : {}) })
      expect(signedOut.statusCode).toBe(401)
      expect(signedOut.json()).toEqual({ error: 'Authentication required', code: 'unauthenticated' })
      const user = await ctx.app.inject({ method, url, headers: XHR, cookies: { sid: userSid }, ...(method === 'POST' ? { payload } : {}) })
      expect(user.statusCode).toBe(403)
      expect(user.json()).toEqual({ error: 'Admin access required', code: 'forbidden' })
    })
  })

  describe('provider health and circuit breakers', () => {
    beforeEach(async () => {
      await ctx.db.delete(providerHealth)
    })

    it('GET /_api/health/providers lists every service, healthy with no failures before any breaker has a row, with stable distinct ids', async () => {
      const first = await get('/_api/health/providers')
      expect(first.statusCode).toBe(200)
      const { providers } = first.json() as { providers: Array<{ id: number; serviceName: string }> }
      expect(providers).toEqual(
        ['gmail', 'outlook', 'openai_classification'].map((serviceName) => ({
          id: expect.any(Number),
          serviceName,
          isHealthy: true,
          failureCount: 0,
          lastFailureAt: null,
          circuitOpenUntil: null,
          updatedAt: expect.any(String),
        })),
      )
      expect(new Set(providers.map((p) => p.id)).size).toBe(3)
      expect(providers.every((p) => p.id > 0)).toBe(true)
      const again = (await get('/_api/health/providers')).json() as { providers: Array<{ id: number }> }
      expect(again.providers.map((p) => p.id)).toEqual(providers.map((p) => p.id))
    })

    it('shows a breaker the failures opened; POST /_api/health/reset-circuit-breaker closes it, answers "Circuit breaker for gmail reset." and is audited', async () => {
      const { breakers } = ctx.services
      for (let i = 0; i < 3; i++) await breakers.failure('gmail')
      await breakers.failure('outlook')
      expect((await breakers.state('gmail')).open).toBe(true)
      const open = (await get('/_api/health/providers')).json().providers as Array<Record<string, unknown>>
      const gmail = open.find((p) => p.serviceName === 'gmail')!
      expect(gmail).toMatchObject({ isHealthy: false, failureCount: 3, lastFailureAt: expect.any(String) })
      expect(new Date(gmail.circuitOpenUntil as string).getTime()).toBeGreaterThan(Date.now())

      const reset = await post('/_api/health/reset-circuit-breaker', { serviceName: 'gmail' })
      expect(reset.statusCode).toBe(200)
      expect(reset.json()).toEqual({
        success: true,
        message: 'Circuit breaker for gmail reset.',
        provider: expect.objectContaining({ id: gmail.id, serviceName: 'gmail', isHealthy: true, failureCount: 0, circuitOpenUntil: null }),
      })
      expect((await breakers.state('gmail')).open).toBe(false)
      // Only the breaker named: outlook keeps its failure.
      const after = (await get('/_api/health/providers')).json().providers as Array<Record<string, unknown>>
      expect(after.find((p) => p.serviceName === 'outlook')).toMatchObject({ failureCount: 1 })
      const [event] = await ctx.db.select().from(auditEvents).where(eq(auditEvents.action, 'CIRCUIT_BREAKER_RESET'))
      expect(event).toMatchObject({ eventCategory: 'SYSTEM', userId: adminId, resourceId: 'gmail', success: true, metadata: { serviceName: 'gmail', wasOpen: true } })
    })

    it('POST /_api/health/reset-circuit-breaker refuses another service name with the contract message', async () => {
      const res = await post('/_api/health/reset-circuit-breaker', { serviceName: 'stripe' })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'serviceName must be gmail, outlook or openai_classification', code: 'validation_error' })
    })

    it('a user cannot reset a breaker: it stays open', async () => {
      for (let i = 0; i < 3; i++) await ctx.services.breakers.failure('outlook')
      expect((await post('/_api/health/reset-circuit-breaker', { serviceName: 'outlook' }, userSid)).statusCode).toBe(403)
      expect((await ctx.services.breakers.state('outlook')).open).toBe(true)
    })
  })

  describe('cron health', () => {
    beforeEach(async () => {
      await ctx.db.delete(jobRuns)
    })
    const ago = (ms: number) => new Date(Date.now() - ms)
    const run = (jobName: string, startedAt: Date, status: 'success' | 'failed' = 'success') => ({ jobName, startedAt, finishedAt: startedAt, status, result: {} })

    it('GET /_api/cron/health lists every scheduled job as OK, Stale or Not Run by its last run, and is degraded when any is not OK', async () => {
      await ctx.db.insert(jobRuns).values([
        run('session-cleanup', ago(5 * HOUR)),
        run('session-cleanup', ago(10 * MINUTE)),
        // Hourly: Stale after 60 × 1.5 + 2 = 92 minutes.
        run('push-renewal', ago(93 * MINUTE)),
        // Every 5 minutes: OK up to 9.5 minutes, whatever the outcome (shown apart).
        run('mailbox-sweep', ago(9 * MINUTE), 'failed'),
        run('data-retention', ago(30 * HOUR)),
        run('not-a-scheduled-job', ago(MINUTE)),
      ])
      const res = await get('/_api/cron/health')
      expect(res.statusCode).toBe(200)
      const body = res.json() as { jobs: Array<Record<string, unknown>>; overall: string }
      expect(body.jobs.map((j) => [j.jobName, j.status, j.lastRunSucceeded])).toEqual([
        ['session-cleanup', 'OK', true],
        ['push-renewal', 'Stale', true],
        ['mailbox-sweep', 'OK', false],
        ['heartbeat-watchdog', 'Not Run', null],
        ['data-retention', 'OK', true],
      ])
      expect(body.jobs[0]).toEqual({ jobName: 'session-cleanup', lastRunAt: expect.any(String), status: 'OK', schedule: '0 * * * *', intervalMinutes: 60, lastRunSucceeded: true })
      expect(Date.now() - new Date(body.jobs[0]!.lastRunAt as string).getTime()).toBeLessThan(11 * MINUTE)
      expect(body.jobs[3]!.lastRunAt).toBeNull()
      expect(body.overall).toBe('degraded')
    })

    it('is healthy when every job ran within its interval', async () => {
      await ctx.db.insert(jobRuns).values(['session-cleanup', 'push-renewal', 'mailbox-sweep', 'heartbeat-watchdog', 'data-retention'].map((name) => run(name, ago(MINUTE))))
      const body = (await get('/_api/cron/health')).json() as { jobs: Array<{ status: string }>; overall: string }
      expect(body.jobs.map((j) => j.status)).toEqual(['OK', 'OK', 'OK', 'OK', 'OK'])
      expect(body.overall).toBe('healthy')
    })

    it('is degraded when only a job that never ran is missing, and answers unknown for no jobs at all', async () => {
      await ctx.db.insert(jobRuns).values(['session-cleanup', 'push-renewal', 'mailbox-sweep', 'data-retention'].map((name) => run(name, ago(MINUTE))))
      expect((await get('/_api/cron/health')).json().overall).toBe('degraded')
      expect(cronOverallOf([])).toBe('unknown')
    })

    it('turns Stale exactly after interval + 50 % + 2 minutes', () => {
      const now = new Date('2030-01-01T12:00:00Z')
      expect(cronGraceMs(5)).toBe(9.5 * MINUTE)
      expect(cronStatusOf(new Date(now.getTime() - 9.5 * MINUTE), 5, now)).toBe('OK')
      expect(cronStatusOf(new Date(now.getTime() - 9.5 * MINUTE - 1), 5, now)).toBe('Stale')
      expect(cronStatusOf(null, 5, now)).toBe('Not Run')
    })
  })

  describe('mailbox health', () => {
    it('GET /_api/admin/mailbox-health counts mailboxes by webhook health and heartbeat as the dashboard reads them, and lists those needing attention without addresses', async () => {
      // No breaker open (an open one would be every mailbox's heartbeat).
      await ctx.db.delete(providerHealth)
      const now = Date.now()
      const at = (ms: number) => new Date(now + ms)
      const connected = { status: 'connected' as const, refreshToken: 'enc:refresh', lastSyncAt: at(-MINUTE), connectedAt: at(-24 * HOUR) }
      // Outlook push is always available; Gmail push is not configured in this app (no Pub/Sub topic).
      const seeds = [
        { tag: 'active', provider: 'outlook' as const, ...connected, pushExpiresAt: at(72 * HOUR) },
        { tag: 'expiring', provider: 'outlook' as const, ...connected, pushExpiresAt: at(2 * HOUR) },
        { tag: 'expired', provider: 'outlook' as const, ...connected, pushExpiresAt: at(-HOUR) },
        { tag: 'push-error', provider: 'outlook' as const, ...connected, pushError: 'Graph said no' },
        { tag: 'action', provider: 'gmail' as const, status: 'action_required' as const, updatedAt: at(-3 * HOUR) },
        { tag: 'revoked', provider: 'outlook' as const, status: 'revoked' as const, updatedAt: at(-24 * HOUR) },
        { tag: 'gone', provider: 'gmail' as const, status: 'disconnected' as const },
        { tag: 'stale', provider: 'gmail' as const, ...connected, lastSyncAt: at(-2 * HOUR) },
        { tag: 'finding', provider: 'gmail' as const, ...connected, heartbeatStatus: 'reconnection_failed_token', heartbeatAt: at(-10 * MINUTE) },
      ]
      const ids: Record<string, { userId: number; mailboxId: number }> = {}
      for (const { tag, ...values } of seeds) {
        const [user] = await ctx.db.insert(users).values({ displayName: tag, email: `${tag}@mail.example` }).returning({ id: users.id })
        const [mailbox] = await ctx.db
          .insert(mailboxes)
          .values({ userId: user!.id, emailAddress: `${tag}@mail.example`, ...values })
          .returning({ id: mailboxes.id })
        ids[tag] = { userId: user!.id, mailboxId: mailbox!.id }
      }

      const res = await get('/_api/admin/mailbox-health')
      expect(res.statusCode).toBe(200)
      expect(res.body).not.toContain('@')
      const body = res.json()
      expect(body.totalMailboxes).toBe(9)
      expect(body.webhooks).toEqual({ active: 1, expiring_soon: 1, expired: 1, error: 3, inactive: 2, not_configured: 1 })
      expect(body.heartbeats).toEqual({ healthy: 2, polling_fallback_triggered: 2, token_validation_failed: 2, unknown_provider: 1, stale: 1, reconnection_failed_token: 1 })
      const entry = (tag: string, provider: string, status: string, since: Date | null) => ({ ...ids[tag], provider, status, since: since?.toISOString() ?? null })
      // Oldest first; of unknown age last.
      expect(body.needsAttention).toEqual([
        entry('revoked', 'outlook', 'revoked', at(-24 * HOUR)),
        entry('action', 'gmail', 'action_required', at(-3 * HOUR)),
        entry('stale', 'gmail', 'stale', at(-2 * HOUR)),
        entry('expired', 'outlook', 'expired', at(-HOUR)),
        entry('finding', 'gmail', 'reconnection_failed_token', at(-10 * MINUTE)),
        entry('push-error', 'outlook', 'error', null),
      ])
      // The same rules as the person's own dashboard.
      const own = await ctx.services.health.heartbeat(ids.finding!.userId)
      expect(own.heartbeatStatus).toBe('reconnection_failed_token')
    })
  })

  describe('audit log', () => {
    const T0 = Date.parse('2031-05-01T10:00:00.000Z')
    const iso = (offsetSeconds: number) => new Date(T0 + offsetSeconds * 1000).toISOString()
    const seed = [
      { action: 'e1', userId: 101, eventType: 'LOGIN_SUCCESS', eventCategory: 'AUTHENTICATION', severity: 'INFO', success: true, at: 0 },
      { action: 'e2', userId: 101, eventType: 'LOGIN_FAILURE', eventCategory: 'AUTHENTICATION', severity: 'WARNING', success: false, at: 1 },
      { action: 'e3', userId: 102, eventType: 'SETTINGS_CHANGED', eventCategory: 'USER_MANAGEMENT', severity: 'INFO', success: true, at: 2 },
      { action: 'e4', userId: null, eventType: 'SETTINGS_CHANGED', eventCategory: 'SYSTEM', severity: 'ERROR', success: false, at: 3 },
      { action: 'e5', userId: 102, eventType: 'USER_DELETED', eventCategory: 'USER_MANAGEMENT', severity: 'CRITICAL', success: true, at: 4 },
    ]
    beforeAll(async () => {
      await clearAuditLog()
      for (const { at, ...event } of seed) {
        // 400 µs past the second: the database keeps microseconds, the client names milliseconds.
        await ctx.db.insert(auditEvents).values({ ...event, ipAddress: '203.0.113.9', metadata: { n: at }, timestamp: sql`${iso(at)}::timestamptz + interval '400 microseconds'` })
      }
    })
    const actions = async (query: string) => {
      const res = await get(`/_api/audit-logs${query}`)
      expect(res.statusCode, res.body).toBe(200)
      return (res.json().logs as Array<{ action: string }>).map((l) => l.action)
    }

    it('GET /_api/audit-logs lists entries newest first with every SPEC 3 field, page 1 of 50 by default, and reading is not audited', async () => {
      const before = await auditCount()
      const res = await get('/_api/audit-logs')
      expect(res.statusCode).toBe(200)
      const body = res.json()
      expect(body.logs.map((l: { action: string }) => l.action)).toEqual(['e5', 'e4', 'e3', 'e2', 'e1'])
      expect(body.pagination).toEqual({ page: 1, limit: 50, totalPages: 1, totalRecords: 5 })
      expect(body.logs[1]).toEqual({
        id: expect.any(Number),
        timestamp: iso(3),
        eventType: 'SETTINGS_CHANGED',
        eventCategory: 'SYSTEM',
        severity: 'ERROR',
        userId: null,
        action: 'e4',
        success: false,
        ipAddress: '203.0.113.9',
        sessionId: null,
        resourceType: null,
        resourceId: null,
        authenticationMethod: null,
        errorCode: null,
        userAgent: null,
        metadata: { n: 3 },
      })
      expect(await auditCount()).toBe(before)
    })

    it.each([
      ['?userId=101', ['e2', 'e1']],
      ['?eventType=SETTINGS_CHANGED', ['e4', 'e3']],
      ['?eventCategory=SYSTEM', ['e4']],
      ['?severity=CRITICAL', ['e5']],
      ['?success=false', ['e4', 'e2']],
      ['?success=true', ['e5', 'e3', 'e1']],
      // Both bounds inclusive, to the millisecond the client names.
      [`?startDate=${iso(1)}&endDate=${iso(3)}`, ['e4', 'e3', 'e2']],
      [`?startDate=${encodeURIComponent('2031-05-01T12:00:03+02:00')}`, ['e5', 'e4']],
      [`?endDate=${iso(0)}`, ['e1']],
      ['?userId=102&severity=INFO', ['e3']],
      ['?userId=999', []],
    ])('GET /_api/audit-logs%s filters to %j', async (query, expected) => {
      expect(await actions(query)).toEqual(expected)
    })

    it('pages with true totals, and a page past the end is empty with the same totals', async () => {
      const page = async (n: number) => (await get(`/_api/audit-logs?limit=2&page=${n}`)).json()
      expect(await page(1)).toMatchObject({ logs: [{ action: 'e5' }, { action: 'e4' }], pagination: { page: 1, limit: 2, totalPages: 3, totalRecords: 5 } })
      expect((await page(2)).logs.map((l: { action: string }) => l.action)).toEqual(['e3', 'e2'])
      expect(await page(3)).toMatchObject({ logs: [{ action: 'e1' }], pagination: { page: 3, totalPages: 3, totalRecords: 5 } })
      expect(await page(4)).toEqual({ logs: [], pagination: { page: 4, limit: 2, totalPages: 3, totalRecords: 5 } })
      expect((await get('/_api/audit-logs?limit=100&userId=999')).json().pagination).toEqual({ page: 1, limit: 100, totalPages: 1, totalRecords: 0 })
    })

    it.each([
      ['page=0', 'page must be an integer of at least 1'],
      ['page=1.5', 'page must be an integer of at least 1'],
      ['limit=0', 'limit must be an integer from 1 to 100'],
      ['limit=101', 'limit must be an integer from 1 to 100'],
      ['userId=-3', 'userId must be a positive integer'],
      ['userId=abc', 'userId must be a positive integer'],
      ['eventType=LOGGED_IN', 'eventType must be one of LOGIN_SUCCESS, LOGIN_FAILURE, USER_CREATED, USER_UPDATED, USER_DELETED, DATA_FETCHED, SETTINGS_CHANGED'],
      ['eventCategory=OTHER', 'eventCategory must be one of AUTHENTICATION, USER_MANAGEMENT, DATA_ACCESS, SYSTEM'],
      ['severity=LOW', 'severity must be one of INFO, WARNING, ERROR, CRITICAL'],
      ['success=yes', 'success must be true or false'],
      ['startDate=2031-05-01', 'startDate must be an ISO date-time'],
      ['endDate=yesterday', 'endDate must be an ISO date-time'],
    ])('GET /_api/audit-logs?%s answers 400 "%s"', async (query, message) => {
      const res = await get(`/_api/audit-logs?${query}`)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: message, code: 'validation_error' })
    })
  })

  describe('Team waitlist', () => {
    it('GET /_api/admin/waitlist lists the entries newest first', async () => {
      await ctx.db.insert(waitlistEntries).values([
        { name: 'Old', email: 'old@team.example', createdAt: new Date('2031-01-01T00:00:00Z') },
        { name: 'New', email: 'new@team.example', createdAt: new Date('2031-03-01T00:00:00Z') },
        { name: 'Mid', email: 'mid@team.example', createdAt: new Date('2031-02-01T00:00:00Z') },
      ])
      const res = await get('/_api/admin/waitlist')
      expect(res.statusCode).toBe(200)
      expect(res.json().entries).toEqual([
        { id: expect.any(Number), name: 'New', email: 'new@team.example', userId: null, createdAt: '2031-03-01T00:00:00.000Z' },
        { id: expect.any(Number), name: 'Mid', email: 'mid@team.example', userId: null, createdAt: '2031-02-01T00:00:00.000Z' },
        { id: expect.any(Number), name: 'Old', email: 'old@team.example', userId: null, createdAt: '2031-01-01T00:00:00.000Z' },
      ])
    })
  })

  describe('audit token redaction', () => {
    const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ'
    const SEEDS: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
      ['jwt', { reason: `id token ${JWT} rejected` }, { reason: 'id token [REDACTED] rejected' }],
      ['bearer', { header: 'Authorization: Bearer abc.DEF-123_456~xyz' }, { header: 'Authorization: Bearer [REDACTED]' }],
      ['google', { note: 'got ya29.a0AfH6SMBx-token_value and 1//0gLmR7p4yZ-refresh_tok' }, { note: 'got [REDACTED] and [REDACTED]' }],
      ['stripe', { keys: ['sk_live_51HxYzAbCdEf', 'rk_test_9aBcDeFgHi', 'whsec_Zx9Yw8Vu7T'] }, { keys: ['[REDACTED]', '[REDACTED]', '[REDACTED]'] }],
      ['hex', { digest: `sha ${'0123456789abcdef'.repeat(4)} end` }, { digest: 'sha [REDACTED] end' }],
      ['base64url', { blob: 'Zm9vYmFyYmF6cXV4-_Zm9vYmFyYmF6cXV4Zm9v1' }, { blob: '[REDACTED]' }],
      [
        'secret keys',
        { accessToken: 'plain', client_secret: 'x', password: 'hunter2', code: '4/abc', authCode: 'zz', Authorization: 'Basic dXNlcjpwYXNz', nested: { refresh_token: ['a', 'b'] }, hasRefreshToken: true, tokenCount: 3 },
        { accessToken: '[REDACTED]', client_secret: '[REDACTED]', password: '[REDACTED]', code: '[REDACTED]', authCode: '[REDACTED]', Authorization: '[REDACTED]', nested: { refresh_token: ['[REDACTED]', '[REDACTED]'] }, hasRefreshToken: true, tokenCount: 3 },
      ],
    ]
    // Nothing token-shaped: a UUID, an error code, snake_case words, short ids, a sk_ word that is no key.
    const CLEAN: Record<string, unknown> = {
      sessionId: '3f2b8c1e-9d4a-4e7b-8c2d-1a2b3c4d5e6f',
      errorCode: 'invalid_grant',
      statusCode: 401,
      reason: 'reconnection_failed_systemic_after_the_watchdog_ran',
      provider: 'gmail',
      planId: 'standard',
      fields: ['allowPromotional', 'confidenceThreshold'],
      note: 'task_sk_list 1/2 done',
    }

    beforeEach(async () => {
      await clearAuditLog()
      for (const [action, metadata] of [...SEEDS.map(([name, before]) => [name, before] as const), ['clean', CLEAN] as const]) {
        await ctx.db.insert(auditEvents).values({ eventType: 'LOGIN_FAILURE', eventCategory: 'AUTHENTICATION', severity: 'WARNING', userId: 5, action, success: false, errorCode: 'bad_token', metadata })
      }
    })
    const metadataOf = async (action: string) => (await ctx.db.select().from(auditEvents).where(eq(auditEvents.action, action)))[0]

    it('POST /_api/admin/redact-audit-tokens scrubs every token shape and secret-named value, counts the rows it changed, and leaves everything else', async () => {
      const before = await metadataOf('jwt')
      const res = await post('/_api/admin/redact-audit-tokens', {})
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ message: `Redacted tokens in ${SEEDS.length} audit log entries.`, rowsChanged: SEEDS.length })
      for (const [action, , after] of SEEDS) expect((await metadataOf(action))?.metadata, action).toEqual(after)
      expect((await metadataOf('clean'))?.metadata).toEqual(CLEAN)
      // Only metadata changes.
      const { metadata: _before, ...rest } = before!
      expect(await metadataOf('jwt')).toMatchObject(rest)
      const [event] = await ctx.db.select().from(auditEvents).where(eq(auditEvents.action, 'AUDIT_TOKENS_REDACTED'))
      expect(event).toMatchObject({ eventCategory: 'SYSTEM', userId: adminId, success: true, metadata: { rowsChanged: SEEDS.length } })
    })

    it('a second run changes nothing and says so', async () => {
      expect((await post('/_api/admin/redact-audit-tokens', {})).json().rowsChanged).toBe(SEEDS.length)
      const second = await post('/_api/admin/redact-audit-tokens', {})
      expect(second.json()).toEqual({ message: 'Redacted tokens in 0 audit log entries.', rowsChanged: 0 })
      const events = await ctx.db.select({ metadata: auditEvents.metadata }).from(auditEvents).where(eq(auditEvents.action, 'AUDIT_TOKENS_REDACTED'))
      expect(events.map((e) => e.metadata)).toEqual([{ rowsChanged: SEEDS.length }, { rowsChanged: 0 }])
    })

    it('a user cannot redact: nothing changes and nothing is recorded', async () => {
      const before = await ctx.db.select().from(auditEvents)
      expect((await post('/_api/admin/redact-audit-tokens', {}, userSid)).statusCode).toBe(403)
      expect(await ctx.db.select().from(auditEvents)).toEqual(before)
      expect(await ctx.db.select().from(auditEvents).where(eq(auditEvents.action, 'AUDIT_TOKENS_REDACTED'))).toEqual([])
    })
  })
})
