import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { Database } from '#server/db/client.ts'
import { pushReceipts } from '#server/db/schema.ts'
import type { MailboxService } from '#server/features/mailboxes/mailboxes.service.ts'
import { auditRequest } from '#server/audit/audit-request.ts'
import { contractRoute } from '#server/lib/contract-route.ts'
import { requireUser } from '#server/plugins/session.ts'
import { getSettingsContract, pollContract, updateSettingsContract } from '#shared/api/settings.ts'
import { performanceMetrics, readSettings, updateSettings } from './settings.service.ts'

/** The client polls every 60 s at most (SPEC 4); this leaves room for a retry or two. */
export const POLL_RATE_LIMIT = { max: 6, timeWindow: 60_000 }

/** SPEC 7 "Settings and polling". */
export function registerSettingsRoutes(
  app: FastifyInstance,
  { db, mailboxes, pollRateLimit = POLL_RATE_LIMIT }: { db: Database; mailboxes: Pick<MailboxService, 'pollForUser'>; pollRateLimit?: { max: number; timeWindow: number } },
) {
  contractRoute(app, getSettingsContract, { preValidation: requireUser }, async (request) => {
    const userId = request.user!.id
    const [settings, metrics] = await Promise.all([readSettings(db, userId), performanceMetrics(db, userId)])
    return { ...settings, performanceMetrics: metrics }
  })

  contractRoute(app, updateSettingsContract, { preValidation: requireUser }, async (request) => {
    const userId = request.user!.id
    const settings = await updateSettings(db, userId, request.body)
    await auditRequest(db, request, { eventType: 'SETTINGS_CHANGED', eventCategory: 'USER_MANAGEMENT', action: 'SETTINGS_UPDATED', resourceType: 'settings', metadata: { fields: Object.keys(request.body).sort() } })
    return { ...settings, performanceMetrics: await performanceMetrics(db, userId) }
  })

  contractRoute(
    app,
    pollContract,
    {
      preValidation: requireUser,
      config: { rateLimit: { ...pollRateLimit, keyGenerator: (request) => (request.user ? `poll:${request.user.id}` : `poll-ip:${request.ip}`) } },
    },
    async (request) => {
      const result = await mailboxes.pollForUser(request.user!.id)
      if (!result) return { message: 'No mailbox is connected.', emailsQueued: 0 }
      await db.insert(pushReceipts).values({ source: 'poll', dedupeKey: randomUUID(), mailboxId: result.mailboxId })
      const n = result.newMessages
      return { message: n === 0 ? 'No new mail.' : `${n} new message${n === 1 ? '' : 's'} queued for filtering.`, emailsQueued: n }
    },
  )
}
