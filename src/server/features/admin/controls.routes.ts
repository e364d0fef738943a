import type { FastifyInstance, FastifyRequest } from 'fastify'
import { auditRequest } from '#server/audit/audit-request.ts'
import { contractRoute } from '#server/lib/contract-route.ts'
import { requireAdmin } from '#server/plugins/session.ts'
import { migrateWebhooksContract, sessionMaintenanceContract, triggerCleanupContract, triggerWatchdogContract } from '#shared/api/admin.ts'
import { createAdminControls, type AdminControlsDeps } from './controls.service.ts'

/**
 * The admin panel's maintenance controls (SPEC 7 "Admin"; issue 18). Admins only; every run is
 * audited as a SYSTEM SETTINGS_CHANGED event with who, from where, and what it changed. A control that
 * fails is audited as failed and answers 500 (the error handler hides the details).
 */
export function registerAdminControlRoutes(app: FastifyInstance, deps: Omit<AdminControlsDeps, 'log'>) {
  const { db } = deps
  const controls = createAdminControls({ ...deps, log: app.log })

  /** Runs one control and audits its outcome; `summary` picks what the audit metadata records. */
  async function audited<T>(request: FastifyRequest, action: string, run: () => Promise<T>, summary: (result: T) => Record<string, unknown>): Promise<T> {
    try {
      const result = await run()
      await auditRequest(db, request, { eventType: 'SETTINGS_CHANGED', eventCategory: 'SYSTEM', action, metadata: summary(result) })
      return result
    } catch (error) {
      await auditRequest(db, request, {
        eventType: 'SETTINGS_CHANGED',
        eventCategory: 'SYSTEM',
        action,
        severity: 'ERROR',
        success: false,
        metadata: { error: (error instanceof Error ? error.message : String(error)).slice(0, 300) },
      })
      throw error
    }
  }

  contractRoute(app, triggerWatchdogContract, { preValidation: requireAdmin }, async (request) => {
    const stats = await audited(request, 'ADMIN_WATCHDOG_TRIGGERED', controls.triggerWatchdog, ({ details, ...counts }) => ({ ...counts, mailboxesChecked: details.length }))
    return { success: true, stats }
  })

  contractRoute(app, triggerCleanupContract, { preValidation: requireAdmin }, async (request) => {
    const { supportRecordsDeleted, queueEntriesDeleted } = await audited(request, 'ADMIN_CLEANUP_TRIGGERED', () => controls.cleanup(), ({ supportRecordsDeleted, queueEntriesDeleted, support }) => ({
      supportRecordsDeleted,
      queueEntriesDeleted,
      ...support,
    }))
    return { success: true, supportRecordsDeleted, queueEntriesDeleted }
  })

  contractRoute(app, sessionMaintenanceContract, { preValidation: requireAdmin }, async (request) => {
    const { action } = request.body
    const result = await audited(request, 'ADMIN_SESSION_MAINTENANCE', () => controls.maintainSessions(action), ({ backfilled, deleted }) => ({
      maintenance: action,
      ...(backfilled !== undefined ? { backfilled } : {}),
      ...(deleted !== undefined ? { deleted } : {}),
    }))
    return { success: true, ...result }
  })

  contractRoute(app, migrateWebhooksContract, { preValidation: requireAdmin }, async (request) =>
    audited(request, 'ADMIN_WEBHOOKS_MIGRATED', () => controls.migrateWebhooks(), ({ successfulMigrations, totalUsers, errors }) => ({
      successfulMigrations,
      totalUsers,
      failed: errors.length,
      errors: errors.slice(0, 20),
    })),
  )
}
