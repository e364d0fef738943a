import { cn } from '#client/lib/cn.ts'

export interface CountItem {
  key: string
  label: string
  count: number
  /** Whether a non-zero count of this kind asks for the operator's attention. */
  alarming?: boolean
}

/** Counts as a definition list: the label names each, a number says how many. */
export function CountGrid({ items, label }: { items: CountItem[]; label: string }) {
  return (
    <dl aria-label={label} className="grid grid-cols-2 gap-2 sm:grid-cols-3">
      {items.map((item) => (
        <div
          key={item.key}
          data-count={item.key}
          className={cn('flex flex-col rounded-lg border px-3 py-2', item.alarming && item.count > 0 ? 'border-danger-200 bg-danger-50' : 'border-line')}
        >
          <dt className="text-xs text-ink-muted">{item.label}</dt>
          <dd className="text-lg font-semibold text-ink">{item.count}</dd>
        </div>
      ))}
    </dl>
  )
}
