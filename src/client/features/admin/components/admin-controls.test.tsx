import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { mockApi, type RecordedCall } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { AdminControls } from './admin-controls.tsx'

const stats = {
  staleUsersFound: 3,
  reconnectionsAttempted: 3,
  reconnectionsSucceeded: 2,
  reconnectionsFailed: 1,
  fallbacksTriggered: 1,
  systemicIssuesDetected: 0,
  details: [{ provider: 'gmail' }],
}

function renderControls(routes: Parameters<typeof mockApi>[0] = {}) {
  const onTestOnboarding = vi.fn()
  const onTestBillingPrompt = vi.fn()
  const api = mockApi(routes)
  return { ...api, onTestOnboarding, onTestBillingPrompt, ...renderPage(<AdminControls onTestOnboarding={onTestOnboarding} onTestBillingPrompt={onTestBillingPrompt} />) }
}

const control = (name: string) => screen.getByRole('group', { name })
const posts = (calls: RecordedCall[], path: string) => calls.filter((call) => call.method === 'POST' && call.path === path)

describe('Admin Controls (SPEC 2, SPEC 8 "Admin")', () => {
  it('Trigger Watchdog shows the stats', async () => {
    const { calls, user } = renderControls({ 'POST /_api/admin/trigger-watchdog': { body: { success: true, stats } } })
    expect(screen.getByRole('heading', { level: 3, name: 'Admin Controls' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Trigger Watchdog' }))
    const outcome = await within(control('Heartbeat watchdog')).findByRole('status')
    expect(outcome).toHaveTextContent('Watchdog run complete.')
    expect(outcome).toHaveTextContent('Stale users found3')
    expect(outcome).toHaveTextContent('Reconnections succeeded2')
    expect(outcome).toHaveTextContent('Reconnections failed1')
    expect(posts(calls, '/_api/admin/trigger-watchdog')[0]).toMatchObject({ body: {}, headers: { 'X-Requested-With': 'XMLHttpRequest' } })
  })

  it("a failed watchdog says 'Error triggering watchdog: {message}'", async () => {
    const { user } = renderControls({ 'POST /_api/admin/trigger-watchdog': { status: 500, body: { error: 'Queue unavailable' } } })
    await user.click(screen.getByRole('button', { name: 'Trigger Watchdog' }))
    expect(await within(control('Heartbeat watchdog')).findByRole('alert')).toHaveTextContent('Error triggering watchdog: Queue unavailable')
  })

  it('Run Cleanup asks first, sends nothing when cancelled, and after confirmation shows what it deleted', async () => {
    const { calls, user } = renderControls({ 'POST /_api/admin/trigger-cleanup': { body: { success: true, supportRecordsDeleted: 12, queueEntriesDeleted: 34 } } })
    await user.click(screen.getByRole('button', { name: 'Run Cleanup' }))
    let dialog = await screen.findByRole('dialog', { name: 'Run the database cleanup?' })
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(posts(calls, '/_api/admin/trigger-cleanup')).toHaveLength(0)

    await user.click(screen.getByRole('button', { name: 'Run Cleanup' }))
    dialog = await screen.findByRole('dialog', { name: 'Run the database cleanup?' })
    await user.click(within(dialog).getByRole('button', { name: 'Run Cleanup' }))
    expect(await within(control('Database cleanup')).findByRole('status')).toHaveTextContent(
      'Cleanup complete: 12 support records and 34 queue entries deleted.',
    )
    expect(posts(calls, '/_api/admin/trigger-cleanup')).toHaveLength(1)
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it("a failed cleanup says 'Cleanup failed: {error}'", async () => {
    const { user } = renderControls({ 'POST /_api/admin/trigger-cleanup': { status: 500, body: { error: 'Database is locked' } } })
    await user.click(screen.getByRole('button', { name: 'Run Cleanup' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Run Cleanup' }))
    expect(await within(control('Database cleanup')).findByRole('alert')).toHaveTextContent('Cleanup failed: Database is locked')
  })

  it.each([
    ['Backfill Sessions', 'backfill', 'Backfilled device details for 4 sessions.'],
    ['Clean Up Sessions', 'cleanup', 'Deleted 9 expired sessions.'],
    ['Full Maintenance', 'both', 'Backfilled 4 sessions and deleted 9.'],
  ])("%s sends action %s and shows the server's message", async (button, action, message) => {
    const { calls, user } = renderControls({ 'POST /_api/admin/sessions/cleanup': { body: { success: true, message, backfilled: 4, deleted: 9 } } })
    await user.click(screen.getByRole('button', { name: button }))
    expect(await within(control('Session maintenance')).findByRole('status')).toHaveTextContent(message)
    expect(posts(calls, '/_api/admin/sessions/cleanup')[0]?.body).toEqual({ action })
  })

  it.each([
    ['Backfill Sessions', 'Backfill failed'],
    ['Clean Up Sessions', 'Cleanup failed'],
    ['Full Maintenance', 'Full maintenance failed'],
  ])("a failed %s says '%s'", async (button, text) => {
    const { user } = renderControls({ 'POST /_api/admin/sessions/cleanup': { status: 500, body: { error: 'Session store offline' } } })
    await user.click(screen.getByRole('button', { name: button }))
    const alert = await within(control('Session maintenance')).findByRole('alert')
    expect(within(alert).getByText(text)).toBeInTheDocument()
    expect(alert).toHaveTextContent('Session store offline')
  })

  it('Test Onboarding Modal and Test Billing Prompt open the dialogs through the page, with no call', async () => {
    const { calls, user, onTestOnboarding, onTestBillingPrompt } = renderControls()
    await user.click(screen.getByRole('button', { name: 'Test Onboarding Modal' }))
    expect(onTestOnboarding).toHaveBeenCalledTimes(1)
    expect(onTestBillingPrompt).not.toHaveBeenCalled()
    await user.click(screen.getByRole('button', { name: 'Test Billing Prompt' }))
    expect(onTestBillingPrompt).toHaveBeenCalledTimes(1)
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0)
  })

  it("Redact Audit Tokens asks first, then shows the server's message", async () => {
    const { calls, user } = renderControls({ 'POST /_api/admin/redact-audit-tokens': { body: { message: 'Redacted tokens in 7 audit events.', rowsChanged: 7 } } })
    await user.click(screen.getByRole('button', { name: 'Redact Audit Tokens' }))
    const dialog = await screen.findByRole('dialog', { name: 'Redact tokens in audit events?' })
    expect(posts(calls, '/_api/admin/redact-audit-tokens')).toHaveLength(0)
    await user.click(within(dialog).getByRole('button', { name: 'Redact Audit Tokens' }))
    expect(await within(control('Token redaction')).findByRole('status')).toHaveTextContent('Redacted tokens in 7 audit events.')
    expect(posts(calls, '/_api/admin/redact-audit-tokens')[0]?.body).toEqual({})
  })

  it("a failed redaction says 'Redaction failed: {message}'", async () => {
    const { user } = renderControls({ 'POST /_api/admin/redact-audit-tokens': { status: 403, body: { error: 'Admin access required' } } })
    await user.click(screen.getByRole('button', { name: 'Redact Audit Tokens' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Redact Audit Tokens' }))
    expect(await within(control('Token redaction')).findByRole('alert')).toHaveTextContent('Redaction failed: Admin access required')
  })

  it("Migrate Gmail Webhooks asks first, then says 'Migration Complete: X/Y users successfully migrated' followed by the errors", async () => {
    const errors = ['User 12: token revoked', 'User 31: Pub/Sub topic not found']
    const { calls, user } = renderControls({ 'POST /_api/admin/migrate-webhooks': { body: { successfulMigrations: 8, totalUsers: 10, errors } } })
    await user.click(screen.getByRole('button', { name: 'Migrate Gmail Webhooks' }))
    const dialog = await screen.findByRole('dialog', { name: 'Migrate every Gmail webhook?' })
    expect(posts(calls, '/_api/admin/migrate-webhooks')).toHaveLength(0)
    await user.click(within(dialog).getByRole('button', { name: 'Migrate Gmail Webhooks' }))

    const migration = control('Gmail webhook migration')
    expect(await within(migration).findByText('Migration Complete: 8/10 users successfully migrated')).toBeInTheDocument()
    const list = within(migration).getByRole('list', { name: 'Migration errors' })
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(errors)
    expect(posts(calls, '/_api/admin/migrate-webhooks')[0]?.body).toEqual({})
  })

  it('a migration without errors lists none', async () => {
    const { user } = renderControls({ 'POST /_api/admin/migrate-webhooks': { body: { successfulMigrations: 3, totalUsers: 3, errors: [] } } })
    await user.click(screen.getByRole('button', { name: 'Migrate Gmail Webhooks' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Migrate Gmail Webhooks' }))
    expect(await screen.findByText('Migration Complete: 3/3 users successfully migrated')).toBeInTheDocument()
    expect(screen.queryByRole('list', { name: 'Migration errors' })).not.toBeInTheDocument()
  })

  it("a failed migration says 'Migration failed: {message}'", async () => {
    const { user } = renderControls({ 'POST /_api/admin/migrate-webhooks': { status: 502, body: { error: 'Gmail API unreachable' } } })
    await user.click(screen.getByRole('button', { name: 'Migrate Gmail Webhooks' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Migrate Gmail Webhooks' }))
    expect(await within(control('Gmail webhook migration')).findByRole('alert')).toHaveTextContent('Migration failed: Gmail API unreachable')
  })
})
