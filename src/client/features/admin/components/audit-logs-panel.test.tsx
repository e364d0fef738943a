import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { AuditLogEntry } from '#shared/api/admin.ts'
import { mockApi, type RecordedCall } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { AuditLogsPanel } from './audit-logs-panel.tsx'

const entry = (id: number, over: Partial<AuditLogEntry> = {}): AuditLogEntry => ({
  id,
  timestamp: new Date(Date.UTC(2025, 8, 30, 12, 0, 0) - id * 60_000).toISOString(),
  eventType: 'LOGIN_SUCCESS',
  eventCategory: 'AUTHENTICATION',
  severity: 'INFO',
  userId: 7,
  action: 'login',
  success: true,
  ipAddress: '203.0.113.9',
  sessionId: `sess-${id}`,
  resourceType: 'user',
  resourceId: '7',
  authenticationMethod: 'google_oauth',
  errorCode: null,
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
  metadata: { provider: 'google', attempt: id },
  ...over,
})

const failedLogin = entry(1, { eventType: 'LOGIN_FAILURE', severity: 'WARNING', userId: null, success: false, errorCode: 'invalid_grant', ipAddress: null, metadata: { reason: 'token expired', attempts: 3 } })
const deleted = entry(2, { eventType: 'USER_DELETED', eventCategory: 'USER_MANAGEMENT', severity: 'CRITICAL', action: 'delete_account' })
const fetched = entry(3, { eventType: 'DATA_FETCHED', eventCategory: 'DATA_ACCESS', severity: 'ERROR', action: 'read_settings' })

const answer = (logs: AuditLogEntry[], pagination: { page?: number; limit?: number; totalPages?: number; totalRecords?: number } = {}) => ({
  body: { logs, pagination: { page: 1, limit: 50, totalPages: 1, totalRecords: logs.length, ...pagination } },
})

/** A server with `totalPages` pages of three events each, answering the page it is asked for. */
function serveAuditLogs(totalPages = 3) {
  const api: ReturnType<typeof mockApi> = mockApi({
    'GET /_api/audit-logs': () => {
      // fetch-mock records the call before it asks for the reply.
      const query = api.calls.at(-1)?.query ?? {}
      const page = Number(query.page ?? 1)
      return answer([entry(page * 10 + 1), entry(page * 10 + 2), entry(page * 10 + 3)], { page, limit: Number(query.limit ?? 50), totalPages, totalRecords: totalPages * 3 })
    },
  })
  return api
}

const logCalls = (calls: RecordedCall[]) => calls.filter((call) => call.path === '/_api/audit-logs')
const lastQuery = (calls: RecordedCall[]) => logCalls(calls).at(-1)?.query
const table = () => screen.getByRole('table', { name: 'Security audit events, newest first' })
const dataRows = () => within(table()).getAllByRole('row').filter((row) => row.hasAttribute('data-audit-id'))
const button = (name: string) => screen.getByRole('button', { name })
/** The audit parameters in the URL (an answer already cached for 60 s is not asked for again, so the URL says what is shown). */
const urlFilters = () => Object.fromEntries(new URLSearchParams(screen.getByTestId('location-search').textContent ?? ''))

describe('Security Audit Logs: the table (SPEC 2, SPEC 3 "Audit log entry", SPEC 9)', () => {
  it('states that audit events are immutable and shows ten placeholder rows while loading', async () => {
    mockApi({ 'GET /_api/audit-logs': () => new Promise(() => {}) })
    renderPage(<AuditLogsPanel />)
    expect(screen.getByRole('heading', { level: 3, name: 'Security Audit Logs' })).toBeInTheDocument()
    expect(screen.getByText('Audit events are immutable.')).toBeInTheDocument()
    const loading = screen.getByRole('status', { name: 'Loading audit logs' })
    expect(within(loading).getAllByTestId('audit-log-skeleton')).toHaveLength(10)
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })

  it('has exactly the SPEC 2 columns, shows N/A for an empty user id, severity and status in words', async () => {
    const { calls } = mockApi({ 'GET /_api/audit-logs': answer([failedLogin, deleted, fetched]) })
    renderPage(<AuditLogsPanel />)
    await screen.findByRole('table')
    expect(within(table()).getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Timestamp',
      'Event',
      'Category',
      'Severity',
      'User ID',
      'Action',
      'Status',
      'IP Address',
      'Details',
    ])
    const [first, second] = dataRows()
    const cells = within(first!).getAllByRole('cell')
    expect(cells.map((cell) => cell.textContent).slice(1, 8)).toEqual(['LOGIN_FAILURE', 'AUTHENTICATION', 'WARNING', 'N/A', 'login', 'Failure', 'N/A'])
    expect(cells[0]!.querySelector('time')).toHaveAttribute('dateTime', failedLogin.timestamp)
    expect(within(second!).getAllByRole('cell')[4]).toHaveTextContent('7')
    expect(within(second!).getByText('Success')).toBeInTheDocument()
    expect(screen.queryByRole('status', { name: 'Loading audit logs' })).not.toBeInTheDocument()
    expect(lastQuery(calls)).toEqual({ page: '1', limit: '50' })
  })

  it('shows CRITICAL and ERROR as destructive, WARNING as warning and others as secondary badges', async () => {
    mockApi({ 'GET /_api/audit-logs': answer([failedLogin, deleted, fetched, entry(4)]) })
    renderPage(<AuditLogsPanel />)
    await screen.findByRole('table')
    const badge = (text: string) => within(table()).getByText(text, { selector: 'span' })
    expect(badge('CRITICAL').className).toContain('bg-danger-50')
    expect(badge('ERROR').className).toContain('bg-danger-50')
    expect(badge('WARNING').className).toContain('bg-warning-50')
    expect(badge('INFO').className).toContain('bg-canvas')
  })

  it('a click on a row expands its details with the formatted JSON metadata; only one row is expanded at a time', async () => {
    const { user } = renderPage(<AuditLogsPanel />)
    mockApi({ 'GET /_api/audit-logs': answer([failedLogin, deleted, fetched]) })
    await screen.findByRole('table')
    const [first, second] = dataRows()

    await user.click(within(first!).getByText('LOGIN_FAILURE'))
    let details = document.querySelector('[data-audit-details="1"]') as HTMLElement
    expect(details).not.toBeNull()
    expect(within(details).getByText(JSON.stringify(failedLogin.metadata, null, 2), { normalizer: (text) => text })).toBeInTheDocument()
    expect(details).toHaveTextContent('Session IDsess-1')
    expect(details).toHaveTextContent('Resourceuser 7')
    expect(details).toHaveTextContent('Authentication methodgoogle_oauth')
    expect(details).toHaveTextContent('Error codeinvalid_grant')
    expect(details).toHaveTextContent('User agentMozilla/5.0 (X11; Linux x86_64) Firefox/128.0')
    expect(within(first!).getByRole('button', { name: 'Hide details of event 1' })).toHaveAttribute('aria-expanded', 'true')

    await user.click(within(second!).getByText('USER_DELETED'))
    expect(document.querySelector('[data-audit-details="1"]')).toBeNull()
    details = document.querySelector('[data-audit-details="2"]') as HTMLElement
    expect(details).toHaveTextContent('"provider": "google"')
    expect(document.querySelectorAll('[data-audit-details]')).toHaveLength(1)

    await user.click(within(second!).getByText('USER_DELETED'))
    expect(document.querySelectorAll('[data-audit-details]')).toHaveLength(0)
  })

  it('rows work from the keyboard: Enter on the Details button expands and collapses', async () => {
    mockApi({ 'GET /_api/audit-logs': answer([failedLogin, deleted]) })
    const { user } = renderPage(<AuditLogsPanel />)
    await screen.findByRole('table')
    const show = button('Show details of event 2')
    expect(show).toHaveAttribute('aria-expanded', 'false')
    show.focus()
    await user.keyboard('{Enter}')
    expect(document.querySelector('[data-audit-details="2"]')).not.toBeNull()
    expect(button('Hide details of event 2')).toHaveAttribute('aria-controls', 'audit-log-details-2')
    await user.keyboard('{Enter}')
    expect(document.querySelector('[data-audit-details="2"]')).toBeNull()
  })

  it("says 'No audit logs found' and 'Try adjusting your filters or check back later.' when there are none", async () => {
    mockApi({ 'GET /_api/audit-logs': answer([], { totalPages: 0, totalRecords: 0 }) })
    renderPage(<AuditLogsPanel />)
    expect(await screen.findByText('No audit logs found')).toBeInTheDocument()
    expect(screen.getByText('Try adjusting your filters or check back later.')).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })

  it("says 'Failed to load audit logs' with the server's message", async () => {
    mockApi({ 'GET /_api/audit-logs': { status: 400, body: { error: 'startDate must be an ISO date-time' } } })
    renderPage(<AuditLogsPanel />)
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Failed to load audit logs')
    expect(alert).toHaveTextContent('startDate must be an ISO date-time')
  })

  it("falls back to 'Failed to fetch audit logs' when the answer has no error field", async () => {
    mockApi({ 'GET /_api/audit-logs': { status: 403 } })
    renderPage(<AuditLogsPanel />)
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Failed to load audit logs')
    expect(alert).toHaveTextContent('Failed to fetch audit logs')
  })

  it("says 'An unknown error occurred.' when the failure has no message", async () => {
    mockApi({
      'GET /_api/audit-logs': () => {
        throw new Error('')
      },
    })
    renderPage(<AuditLogsPanel />)
    const alert = await screen.findByRole('alert', {}, { timeout: 5_000 })
    expect(alert).toHaveTextContent('Failed to load audit logs')
    expect(alert).toHaveTextContent('An unknown error occurred.')
  })
})

describe('Security Audit Logs: pagination (SPEC 4 "Audit log filters")', () => {
  it('first and previous are disabled on page 1, next and last on the last page; Page X of Y and the total', async () => {
    const { calls, user } = { ...serveAuditLogs(3), ...renderPage(<AuditLogsPanel />) }
    await screen.findByRole('table')
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument()
    expect(screen.getByText('Total records: 9')).toBeInTheDocument()
    expect(button('First page')).toBeDisabled()
    expect(button('Previous page')).toBeDisabled()
    expect(button('Next page')).toBeEnabled()
    expect(button('Last page')).toBeEnabled()

    await user.click(button('Next page'))
    await waitFor(() => expect(screen.getByText('Page 2 of 3')).toBeInTheDocument())
    expect(lastQuery(calls)).toMatchObject({ page: '2' })
    for (const name of ['First page', 'Previous page', 'Next page', 'Last page']) expect(button(name)).toBeEnabled()

    await user.click(button('Last page'))
    await waitFor(() => expect(screen.getByText('Page 3 of 3')).toBeInTheDocument())
    expect(lastQuery(calls)).toMatchObject({ page: '3' })
    expect(button('Next page')).toBeDisabled()
    expect(button('Last page')).toBeDisabled()
    expect(button('First page')).toBeEnabled()
    await waitFor(() => expect(dataRows()[0]).toHaveAttribute('data-audit-id', '31'))

    // Pages already seen come from the 60 s cache.
    await user.click(button('Previous page'))
    await waitFor(() => expect(screen.getByText('Page 2 of 3')).toBeInTheDocument())
    expect(urlFilters()).toEqual({ auditPage: '2' })
    await waitFor(() => expect(dataRows()[0]).toHaveAttribute('data-audit-id', '21'))
    await user.click(button('First page'))
    await waitFor(() => expect(screen.getByText('Page 1 of 3')).toBeInTheDocument())
    expect(urlFilters()).toEqual({})
    expect(dataRows()[0]).toHaveAttribute('data-audit-id', '11')
    expect(button('First page')).toBeDisabled()
    expect(button('Previous page')).toBeDisabled()
  })

  it('with a single page every button is disabled', async () => {
    serveAuditLogs(1)
    renderPage(<AuditLogsPanel />)
    await screen.findByRole('table')
    expect(screen.getByText('Page 1 of 1')).toBeInTheDocument()
    for (const name of ['First page', 'Previous page', 'Next page', 'Last page']) expect(button(name)).toBeDisabled()
  })
})

describe('Security Audit Logs: filters (SPEC 4 "Audit log filters", SPEC 5)', () => {
  async function onPageTwo() {
    const api = serveAuditLogs(3)
    const rendered = renderPage(<AuditLogsPanel />, { path: '/dashboard' })
    await screen.findByRole('table')
    await rendered.user.click(button('Next page'))
    await waitFor(() => expect(screen.getByText('Page 2 of 3')).toBeInTheDocument())
    return { ...api, ...rendered }
  }

  it.each([
    ['Event type', 'USER_DELETED', { eventType: 'USER_DELETED' }],
    ['Category', 'DATA_ACCESS', { eventCategory: 'DATA_ACCESS' }],
    ['Severity', 'CRITICAL', { severity: 'CRITICAL' }],
    ['Status', 'Failure', { success: 'false' }],
    ['Status', 'Success', { success: 'true' }],
  ])('choosing %s %s sends it and goes back to page 1', async (label, option, sent) => {
    const { calls, user } = await onPageTwo()
    await user.selectOptions(screen.getByLabelText(label), option)
    await waitFor(() => expect(lastQuery(calls)).toEqual({ page: '1', limit: '50', ...sent }))
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument()
    expect(urlFilters()).not.toHaveProperty('auditPage')
  })

  it('the page size offers 25, 50 and 100 (50 by default); changing it goes back to page 1', async () => {
    const { calls, user } = await onPageTwo()
    const size = screen.getByLabelText('Page size')
    expect(size).toHaveValue('50')
    expect(within(size).getAllByRole('option').map((option) => option.textContent)).toEqual(['25', '50', '100'])
    await user.selectOptions(size, '100')
    await waitFor(() => expect(lastQuery(calls)).toEqual({ page: '1', limit: '100' }))
  })

  it('start and end dates are sent as ISO timestamps covering whole days, and go back to page 1', async () => {
    const { calls } = await onPageTwo()
    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '2025-09-01' } })
    await waitFor(() => expect(lastQuery(calls)).toEqual({ page: '1', limit: '50', startDate: new Date('2025-09-01T00:00:00.000').toISOString() }))
    fireEvent.change(screen.getByLabelText('End date'), { target: { value: '2025-09-30' } })
    await waitFor(() =>
      expect(lastQuery(calls)).toEqual({
        page: '1',
        limit: '50',
        startDate: new Date('2025-09-01T00:00:00.000').toISOString(),
        endDate: new Date('2025-09-30T23:59:59.999').toISOString(),
      }),
    )
    expect(lastQuery(calls)?.startDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  })

  it('the User ID is parsed to an integer and sent only 500 ms after typing stops, going back to page 1', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const api = serveAuditLogs(3)
    const { user } = renderPage(<AuditLogsPanel />, { userOptions: { advanceTimers: vi.advanceTimersByTime } })
    await screen.findByRole('table')
    await user.click(button('Next page'))
    await waitFor(() => expect(lastQuery(api.calls)).toMatchObject({ page: '2' }))
    const before = logCalls(api.calls).length

    const userId = screen.getByLabelText('User ID')
    fireEvent.change(userId, { target: { value: '4' } })
    act(() => {
      vi.advanceTimersByTime(300)
    })
    fireEvent.change(userId, { target: { value: '42' } })
    act(() => {
      vi.advanceTimersByTime(499)
    })
    expect(logCalls(api.calls)).toHaveLength(before)
    act(() => {
      vi.advanceTimersByTime(1)
    })
    await waitFor(() => expect(lastQuery(api.calls)).toEqual({ page: '1', limit: '50', userId: '42' }))
    // Only the last value was sent: the "4" typed first never reached the server.
    expect(logCalls(api.calls).filter((call) => call.query.userId === '4')).toHaveLength(0)

    expect(urlFilters()).toEqual({ auditUserId: '42' })

    // Emptied, the filter goes away (that page is still cached, so the URL tells).
    fireEvent.change(userId, { target: { value: '' } })
    act(() => {
      vi.advanceTimersByTime(499)
    })
    expect(urlFilters()).toEqual({ auditUserId: '42' })
    act(() => {
      vi.advanceTimersByTime(1)
    })
    await waitFor(() => expect(urlFilters()).toEqual({}))
  })

  it('Clear Filters resets every filter and the page to 1', async () => {
    const { calls, user } = await onPageTwo()
    await user.selectOptions(screen.getByLabelText('Severity'), 'ERROR')
    await user.selectOptions(screen.getByLabelText('Event type'), 'LOGIN_FAILURE')
    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '2025-09-01' } })
    await user.type(screen.getByLabelText('User ID'), '9')
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ userId: '9', severity: 'ERROR', eventType: 'LOGIN_FAILURE' }), { timeout: 2_000 })
    await user.click(button('Next page'))
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ page: '2', userId: '9' }))

    expect(urlFilters()).toMatchObject({ auditPage: '2', auditUserId: '9' })

    const before = logCalls(calls).length
    await user.click(button('Clear Filters'))
    await waitFor(() => expect(urlFilters()).toEqual({}))
    // Page 1 without filters was fetched first thing and is still cached: no new call, its rows shown.
    expect(logCalls(calls)).toHaveLength(before)
    await waitFor(() => expect(dataRows()[0]).toHaveAttribute('data-audit-id', '11'))
    expect(screen.getByLabelText('Severity')).toHaveValue('')
    expect(screen.getByLabelText('Event type')).toHaveValue('')
    expect(screen.getByLabelText('Start date')).toHaveValue('')
    expect(screen.getByLabelText('User ID')).toHaveValue(null)
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument()
  })

  it('Clear Filters keeps the page size (SPEC 4 names it apart from the filters)', async () => {
    const { calls, user } = await onPageTwo()
    await user.selectOptions(screen.getByLabelText('Page size'), '25')
    await user.selectOptions(screen.getByLabelText('Category'), 'SYSTEM')
    await waitFor(() => expect(lastQuery(calls)).toEqual({ page: '1', limit: '25', eventCategory: 'SYSTEM' }))
    await user.click(button('Clear Filters'))
    await waitFor(() => expect(urlFilters()).toEqual({ auditLimit: '25' }))
    expect(screen.getByLabelText('Page size')).toHaveValue('25')
    expect(screen.getByLabelText('Category')).toHaveValue('')
  })

  it('the filters live in the URL: a link with them asks for that page and those filters', async () => {
    const { calls } = serveAuditLogs(3)
    renderPage(<AuditLogsPanel />, { path: '/dashboard?auditPage=2&auditLimit=25&auditSeverity=WARNING&auditStatus=failure&auditUserId=12&auditEvent=bogus' })
    await screen.findByRole('table')
    expect(lastQuery(calls)).toEqual({ page: '2', limit: '25', severity: 'WARNING', success: 'false', userId: '12' })
    expect(screen.getByLabelText('Severity')).toHaveValue('WARNING')
    expect(screen.getByLabelText('User ID')).toHaveValue(12)
    expect(screen.getByLabelText('Event type')).toHaveValue('')
  })
})
