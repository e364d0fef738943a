import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createLogger, maskEmails, maskUrl } from './logging.ts'

function capture() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString())
      done()
    },
  })
  return { logger: createLogger({ logLevel: 'info' }, stream), text: () => lines.join('') }
}

describe('log redaction (SPEC 8)', () => {
  it('masks OAuth codes, states and tokens in URLs but keeps harmless parameters', () => {
    expect(maskUrl('/_api/auth/oauth_callback/google?code=4/abc&state=xyz&scope=openid')).toBe(
      '/_api/auth/oauth_callback/google?code=[redacted]&state=[redacted]&scope=openid',
    )
    expect(maskUrl('/x?tempToken=t&TOKEN=u&access_token=v&page=2')).toBe('/x?tempToken=[redacted]&TOKEN=[redacted]&access_token=[redacted]&page=2')
    expect(maskUrl('/plain/path')).toBe('/plain/path')
  })

  it('masks e-mail addresses in URLs and free text', () => {
    expect(maskUrl('/users/ada@example.com?login_hint=ada@example.com')).toBe('/users/[email]?login_hint=[redacted]')
    expect(maskEmails('failed for Ada.L+x@mail.example.co.uk today')).toBe('failed for [email] today')
    // A megabyte without an address (a fuzzed query value) is returned as it is, in linear time.
    const long = 'x'.repeat(1_000_000)
    expect(maskEmails(long)).toBe(long)
    expect(maskEmails(`${long}a@b.example`)).toMatch(/x\[email\]$/)
  })

  it('redacts secret fields and headers in structured log entries', () => {
    const { logger, text } = capture()
    logger.info(
      {
        tempToken: 'tt-secret-1',
        user: { email: 'nested@example.com', accessToken: 'at-secret-2' },
        req: { headers: { authorization: 'Bearer at-secret-3', cookie: 'sid=sid-secret-4' } },
        clientSecret: 'cs-secret-5',
      },
      'signing in ada@example.com',
    )
    const out = text()
    for (const secret of ['tt-secret-1', 'nested@example.com', 'at-secret-2', 'at-secret-3', 'sid-secret-4', 'cs-secret-5', 'ada@example.com']) {
      expect(out).not.toContain(secret)
    }
    expect(out).toContain('[redacted]')
    expect(out).toContain('signing in [email]')
  })

  it('masks e-mail addresses in logged errors', () => {
    const { logger, text } = capture()
    logger.error({ err: new Error('duplicate key for ada@example.com') }, 'failed')
    expect(text()).not.toContain('ada@example.com')
  })

  // Issue 11 item 2: query parameters reached the log through err.params, err.message and err.stack.
  it('logs a failed query by its shape and driver code, never its parameters or the values in the driver message', () => {
    const { logger, text } = capture()
    const driverError = Object.assign(new Error('invalid input syntax for type integer: "ada-secret-value"'), {
      code: '22P02',
      severity: 'ERROR',
      routine: 'pg_strtoint32_safe',
      detail: 'Key (lower(email))=(ada@example.com) already exists.',
      where: 'SQL function "x" statement 1 with "ada-secret-value"',
    })
    const query = 'insert into "waitlist_entries" ("name", "email") values ($1, $2)'
    const failed = Object.assign(new Error(`Failed query: ${query}\nparams: Ada Lovelace,ada@example.com,state-abc123`), {
      query,
      params: ['Ada Lovelace', 'ada@example.com', 'state-abc123'],
      cause: driverError,
    })
    logger.error({ err: failed }, 'unhandled error')
    const out = text()
    for (const value of ['Ada Lovelace', 'ada@example.com', 'state-abc123', 'ada-secret-value', 'params']) expect(out).not.toContain(value)
    const entry = JSON.parse(out) as { err: Record<string, unknown> & { cause: Record<string, unknown> } }
    expect(entry.err).toMatchObject({ type: 'Error', message: `Failed query: ${query}`, query })
    expect(entry.err.cause).toMatchObject({ code: '22P02', severity: 'ERROR', message: 'invalid input syntax for type integer: [value]' })
    expect(String(entry.err.stack)).toContain('Failed query: insert into')
  })

  it('keeps error codes readable (ENOTFOUND, EADDRINUSE are not secrets)', () => {
    const { logger, text } = capture()
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND db.internal'), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: 'db.internal' })
    logger.error({ err: new Error('connect failed', { cause: notFound }) }, 'failed')
    logger.error({ err: Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE', port: 3000 }) }, 'failed')
    const [first, second] = text().trim().split('\n').map((line) => JSON.parse(line) as { err: Record<string, unknown> })
    expect(first!.err.cause).toMatchObject({ code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: 'db.internal' })
    expect(second!.err).toMatchObject({ code: 'EADDRINUSE', port: 3000 })
    expect(text()).not.toContain('[redacted]')
  })
})
