import type { FastifyInstance } from 'fastify'
import { isDemoMode, type Config } from '#server/config.ts'
import { contractRoute } from '#server/lib/contract-route.ts'
import { appInfoContract } from '#shared/api/app-info.ts'
import { PRODUCT_NAME, SUPPORT_EMAIL } from '#shared/product.ts'

/** GET /_api/app/info: lets the client show a demo-mode notice (DESIGN "Running it"). */
export function registerAppInfoRoutes(app: FastifyInstance, { config }: { config: Config }) {
  contractRoute(app, appInfoContract, {}, async () => ({
    demoMode: isDemoMode(config),
    productName: PRODUCT_NAME,
    supportEmail: SUPPORT_EMAIL,
  }))
}
