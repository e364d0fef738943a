import type { FastifyInstance } from 'fastify'
import { contractRoute } from '#server/lib/contract-route.ts'
import { auditRequest } from '#server/audit/audit-request.ts'
import type { Config } from '#server/config.ts'
import type { Database } from '#server/db/client.ts'
import { clearSessionCookie, requireUser } from '#server/plugins/session.ts'
import { completeOnboardingContract, deleteAccountContract } from '#shared/api/account.ts'
import { BillingError } from '#server/features/billing/billing.service.ts'
import { AccountError, type AccountService } from './account.service.ts'

/** SPEC 7 "Onboarding" and "Sessions and account" (issue 17). */
export function registerAccountRoutes(app: FastifyInstance, { config, db, account }: { config: Config; db: Database; account: AccountService }) {
  contractRoute(app, completeOnboardingContract, { preValidation: requireUser }, async (request) => {
    await account.completeOnboarding(request.user!.id)
    await auditRequest(db, request, { eventType: 'USER_UPDATED', eventCategory: 'USER_MANAGEMENT', action: 'ONBOARDING_COMPLETED', resourceType: 'user' })
    return { success: true as const }
  })

  contractRoute(app, deleteAccountContract, { preValidation: requireUser }, async (request, reply) => {
    try {
      const result = await account.deleteAccount(request.user!.id, request.body)
      // The user's sessions went with the account; the browser's cookie goes too.
      clearSessionCookie(reply, config, request)
      return result
    } catch (error) {
      if (error instanceof AccountError || error instanceof BillingError) return reply.code(error.status).send({ error: error.message, code: error.code })
      throw error
    }
  })
}
