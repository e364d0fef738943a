import type { MailCategoryName } from '#shared/api/activity.ts'

/** The categories in the order the chart stacks them (bottom up) and the legend lists them. */
export const CATEGORY_ORDER = ['genuine', 'informational', 'promotional', 'transactional', 'unwanted'] as const satisfies readonly MailCategoryName[]

/**
 * One colour per category, used by both the badges and the chart so they always match: from the
 * Okabe–Ito palette, which stays distinguishable with the common kinds of colour blindness. Colour
 * never carries meaning alone: badges have their label, the chart a legend, a tooltip and a table.
 */
export const CATEGORY_COLOR: Record<MailCategoryName, string> = {
  genuine: '#009e73',
  informational: '#0072b2',
  promotional: '#e69f00',
  transactional: '#cc79a7',
  unwanted: '#d55e00',
}
