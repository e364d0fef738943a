/** Billing texts (SPEC 4 "Subscription status display", SPEC 8 "Billing"). */
export const BILLING_MESSAGES = {
  cardTitle: 'Billing & Usage',
  cardDescription: 'Your plan and the e-mails filtered this month.',
  loadError: (message: string) => `Error loading billing info: ${message}`,
  portalError: (message: string) => `Portal access failed: ${message}`,
  portalFallback: 'Failed to create billing portal session.',
  manageBilling: 'Manage Billing',
  upgrade: 'Upgrade',
  renews: (date: string) => `Renews on ${date}`,
  cancels: (date: string) => `Cancels on ${date}`,
  usageOf: (used: number, limit: number) => `${used} of ${limit} e-mails this month`,
  usageUnlimited: (used: number) => `${used} e-mails this month (unlimited)`,
  limitReached: (limit: number, leftAlone: number) =>
    `This month's ${limit} e-mails are used: ${leftAlone} new ${leftAlone === 1 ? 'message was' : 'messages were'} left in your inbox untouched. Filtering resumes next month, or as soon as you upgrade.`,
} as const

/** SPEC 4: active and trialing show Active; past_due Past Due; canceled Canceled; others raw. */
export function statusLabel(status: string): string {
  if (status === 'active' || status === 'trialing') return 'Active'
  if (status === 'past_due') return 'Past Due'
  if (status === 'canceled') return 'Canceled'
  return status
}
