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
  planDialogTitle: 'Complete Setup - Choose Your Plan',
  planDialogDescription: 'Your mailbox is connected. Choose how much of your mail Inbox Guard filters.',
  planDialogLimitReached: (limit: number) =>
    `This month's ${limit} free e-mails are used, so new mail stays in your inbox untouched. Upgrade to filter every message, or carry on and filtering resumes next month.`,
  planDialogPastDue: 'Your last payment did not go through. Update your payment method to keep Standard, or filtering pauses 7 days after the failed payment.',
  planDialogLoadError: 'Could not load subscription data. You can still proceed with plan selection.',
  continueFree: (limit: number) => `Continue with the free plan (${limit} e-mails a month)`,
  updatePayment: 'Update payment method',
  notNow: 'Not now',
  continueFreeError: (message: string) => `Could not save your choice: ${message}`,
  checkoutActivating: 'Payment received. Activating your Standard plan...',
  checkoutActivated: 'You are on the Standard plan: every new message is filtered.',
  checkoutSlow: 'Your payment went through, but the plan has not switched yet. It will within a few minutes; reload this page to check.',
  checkoutCanceled: 'Checkout canceled: your plan has not changed.',
} as const

/** SPEC 4: active and trialing show Active; past_due Past Due; canceled Canceled; others raw. */
export function statusLabel(status: string): string {
  if (status === 'active' || status === 'trialing') return 'Active'
  if (status === 'past_due') return 'Past Due'
  if (status === 'canceled') return 'Canceled'
  return status
}
