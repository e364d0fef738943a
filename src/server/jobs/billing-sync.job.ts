import type { PgBoss } from 'pg-boss'
import { z } from 'zod'

/** One job per Stripe customer to re-read (issue 16): webhooks only record the event and queue this. */
export const BILLING_SYNC_QUEUE = 'billing-sync'

export const BillingSyncPayloadSchema = z.object({ customerId: z.string().regex(/^cus_[A-Za-z0-9_]+$/) })

export interface BillingJobs {
  enqueueCustomerSync(customerId: string): Promise<void>
}

export function billingJobs(boss: () => Promise<PgBoss>): BillingJobs {
  return {
    async enqueueCustomerSync(customerId) {
      const payload = BillingSyncPayloadSchema.parse({ customerId })
      // Several events for one customer while a re-read waits collapse into that one re-read.
      await (await boss()).send(BILLING_SYNC_QUEUE, payload, { singletonKey: customerId })
    },
  }
}
