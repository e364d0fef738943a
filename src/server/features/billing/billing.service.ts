import { and, eq } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { usageCounts } from '#server/db/schema.ts'
import type { SubscriptionResponse } from '#shared/api/billing.ts'
import { PLANS } from '#shared/plans.ts'

/** The UTC calendar month usage is counted in (the pipeline counts one per decided message). */
export const usageMonth = (at: Date) => at.toISOString().slice(0, 7)

/**
 * GET /_api/billing/subscription: the caller's plan and this month's usage. Paid plans arrive with
 * checkout (issue 16); until then every account is on the free plan, which is what the answer says.
 */
export async function readSubscription(db: Database, userId: number, now: Date = new Date()): Promise<SubscriptionResponse> {
  const free = PLANS.find((p) => p.id === 'free')!
  const [usage] = await db
    .select({ emailsProcessed: usageCounts.emailsProcessed })
    .from(usageCounts)
    .where(and(eq(usageCounts.userId, userId), eq(usageCounts.month, usageMonth(now))))
  const emailsProcessed = usage?.emailsProcessed ?? 0
  const limit = free.emailLimit
  return {
    subscription: { planId: free.id, planName: free.name, status: 'active', emailLimit: limit, cancelAtPeriodEnd: false, currentPeriodEnd: null },
    usage: { emailsProcessed, percentUsed: limit ? Math.min(100, Math.round((emailsProcessed / limit) * 1000) / 10) : 0 },
    invoice: null,
  }
}
