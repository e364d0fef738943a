import type { FastifyInstance } from 'fastify'
import type { Database } from '#server/db/client.ts'
import { auditRequest } from '#server/audit/audit-request.ts'
import { contractRoute } from '#server/lib/contract-route.ts'
import { requireUser } from '#server/plugins/session.ts'
import { DOMAIN_LIST_KINDS, domainListContracts } from '#shared/api/domain-lists.ts'
import { addDomain, DomainListError, listDomains, removeDomain } from './domain-lists.service.ts'

/** SPEC 7 "Domain lists": the same three calls for the whitelist and the blacklist. */
export function registerDomainListRoutes(app: FastifyInstance, { db }: { db: Database }) {
  for (const kind of DOMAIN_LIST_KINDS) {
    const contracts = domainListContracts[kind]
    contractRoute(app, contracts.list, { preValidation: requireUser }, async (request) => listDomains(db, request.user!.id, kind))

    contractRoute(app, contracts.add, { preValidation: requireUser }, async (request, reply) => {
      try {
        const added = await addDomain(db, request.user!.id, kind, request.body.domain)
        await auditRequest(db, request, { eventType: 'SETTINGS_CHANGED', eventCategory: 'USER_MANAGEMENT', action: `${kind.toUpperCase()}_DOMAIN_ADDED`, resourceType: kind, metadata: { domain: request.body.domain } })
        return added
      } catch (error) {
        if (error instanceof DomainListError) return reply.code(error.status).send({ error: error.message, code: error.code })
        throw error
      }
    })

    contractRoute(app, contracts.remove, { preValidation: requireUser }, async (request, reply) => {
      try {
        await removeDomain(db, request.user!.id, kind, request.body.domain)
        await auditRequest(db, request, { eventType: 'SETTINGS_CHANGED', eventCategory: 'USER_MANAGEMENT', action: `${kind.toUpperCase()}_DOMAIN_REMOVED`, resourceType: kind, metadata: { domain: request.body.domain } })
        return { success: true as const, domain: request.body.domain }
      } catch (error) {
        if (error instanceof DomainListError) return reply.code(error.status).send({ error: error.message, code: error.code })
        throw error
      }
    })
  }
}
