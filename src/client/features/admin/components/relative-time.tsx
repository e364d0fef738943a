import { formatDateTime, formatRelativeTime, parseTime } from '#client/lib/relative-time.ts'

/**
 * How long ago `value` was (SPEC 4 "Relative time display", the shared formatter), with the full
 * date and time as its title; 'Unknown' or 'Invalid date' as plain text.
 */
export function RelativeTime({ value, now }: { value: string | null; now: number }) {
  const text = formatRelativeTime(value, now)
  if (typeof parseTime(value) !== 'number') return <span>{text}</span>
  return (
    <time dateTime={value ?? undefined} title={formatDateTime(value)}>
      {text}
    </time>
  )
}
