import type { MailCategoryName } from '#shared/api/activity.ts'
import { CATEGORY_COLOR } from '../lib/categories.ts'
import { CATEGORY_LABEL } from '../messages.ts'

/** The category with its chart colour as a dot (the label carries the meaning; the colour links it to the chart). */
export function CategoryBadge({ category }: { category: MailCategoryName }) {
  return (
    <span
      data-category={category}
      className="inline-flex items-center gap-1.5 rounded-full bg-canvas px-2.5 py-0.5 text-xs font-medium text-ink ring-1 ring-line ring-inset"
    >
      <span aria-hidden className="size-2 rounded-full" style={{ backgroundColor: CATEGORY_COLOR[category] }} />
      {CATEGORY_LABEL[category]}
    </span>
  )
}
