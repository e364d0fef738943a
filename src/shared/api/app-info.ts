import { z } from 'zod'
import { defineContract } from './contract.ts'

/** GET /_api/app/info: what the client needs to know about how the server runs. */
export const appInfoContract = defineContract({
  method: 'GET',
  path: '/_api/app/info',
  responses: {
    200: z.object({ demoMode: z.boolean(), productName: z.string(), supportEmail: z.string() }),
  },
})
export type AppInfo = z.infer<(typeof appInfoContract)['responses'][200]>
