import type { DecisionItem, MailCategoryName } from '#shared/api/activity.ts'

/** Labels of the classifier's categories (SPEC 1), shared by the badges, the filter and the chart. */
export const CATEGORY_LABEL: Record<MailCategoryName, string> = {
  genuine: 'Genuine',
  informational: 'Informational',
  promotional: 'Promotional',
  transactional: 'Transactional',
  unwanted: 'Cold outreach',
}

/** Where a message is now (issue 13 "Review and corrections"). */
export const STATE_LABEL: Record<DecisionItem['state'], string> = {
  kept: 'Kept',
  filed: 'Filed away',
  restored: 'Restored',
  flagged: 'Marked cold',
  skipped: 'Skipped',
}

export const DECIDED_BY_LABEL: Record<DecisionItem['decidedBy'], string> = {
  whitelist: 'Decided by your whitelist',
  blacklist: 'Decided by your blacklist',
  sender_rule: 'Decided by your earlier correction for this sender',
  classifier: 'Decided by the classifier',
  error: 'Could not be processed: left in your inbox',
}

/** Every user-facing text of the activity feature (Filtered Mail and the chart), in one place. */
export const ACTIVITY_MESSAGES = {
  // Filtered Mail card
  cardTitle: 'Filtered Mail',
  cardDescription: 'What Inbox Guard decided about your latest mail, newest first, and why.',
  restoreHelp: 'Restore moves a message back to your inbox, and Inbox Guard keeps this sender’s mail from then on.',
  flagHelp: '“This is cold” files a message away, and this sender’s mail is filed away from then on.',
  /** The empty state, word for word from issue 13. */
  empty: 'No mail decided yet. New mail is checked as it arrives.',
  emptyFiltered: 'No mail matches these filters.',
  loading: 'Loading filtered mail',
  loadFailed: (message: string) => `Error loading filtered mail: ${message}`,
  retry: 'Try again',
  refresh: 'Refresh',
  listLabel: 'Decisions',
  pagesLabel: 'Filtered Mail pages',
  categoryFilter: 'Category',
  allCategories: 'All categories',
  filedOnly: 'Filed away only',
  previous: 'Previous',
  next: 'Next',
  page: (page: number, totalPages: number) => `Page ${page} of ${Math.max(totalPages, 1)}`,
  total: (count: number) => `${count} ${count === 1 ? 'message' : 'messages'}`,
  confidence: (confidence: number) => `${Math.round(confidence * 100)} % confidence`,
  showReasons: 'Show reasons',
  hideReasons: 'Hide reasons',
  noReasons: 'No reasons were recorded.',
  restore: 'Restore',
  flag: 'This is cold',
  restoreFailed: (message: string) => `Could not restore the message: ${message}`,
  flagFailed: (message: string) => `Could not mark the message as cold: ${message}`,
  noSubject: '(no subject)',

  // Relative times ("5 min ago")
  justNow: 'just now',
  minutesAgo: (minutes: number) => `${minutes} min ago`,
  hoursAgo: (hours: number) => `${hours} h ago`,
  daysAgo: (days: number) => (days === 1 ? '1 day ago' : `${days} days ago`),
  invalidDate: 'Invalid date',
  receivedAt: (date: string) => `Received ${date}`,

  // Chart card
  chartTitle: 'Mail per day',
  chartDescription: 'Messages Inbox Guard decided in the last 30 days, by kind.',
  chartLoading: 'Loading mail statistics',
  chartLoadFailed: (message: string) => `Error loading mail statistics: ${message}`,
  chartSummary: (days: number, total: number, filed: number) =>
    `Stacked bar chart of messages per day over the last ${days} days: ${total} in all, ${filed} filed away.`,
  chartKeyboardHint: 'Use the left and right arrow keys to read each day.',
  chartEmpty: 'No mail was decided in this period.',
  chartTableCaption: 'Messages per day and kind',
  chartDayColumn: 'Day',
  chartTotalColumn: 'Total',
  chartFiledColumn: 'Filed away',
  chartDayTotal: (total: number) => `${total} ${total === 1 ? 'message' : 'messages'}`,
  chartDayFiled: (filed: number) => `${filed} filed away`,
  legendLabel: 'Categories',
} as const
