import type { FastifyInstance } from 'fastify'
import { isDemoMode, type Config } from '#server/config.ts'
import { appInfoContract, type AppInfo } from '#shared/api/auth.ts'
import { PRODUCT_NAME, SUPPORT_EMAIL } from '#shared/product.ts'

/** GET /_api/app/info: lets the client show a demo-mode notice (DESIGN "Running it"). */
export function registerAppInfoRoutes(app: FastifyInstance, { config }: { config: Config }) {
  app.get(appInfoContract.path, async (): Promise<AppInfo> => ({
    demoMode: isDemoMode(config),
    productName: PRODUCT_NAME,
    supportEmail: SUPPORT_EMAIL,
  }))
}
