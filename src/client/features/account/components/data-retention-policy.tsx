import { ACCOUNT_MESSAGES, RETENTION_ROWS } from '../messages.ts'

/** The Data Retention Policy block of Account Settings: what is kept and for how long (issue 17). */
export function DataRetentionPolicy() {
  return (
    <section aria-labelledby="retention-title" className="flex flex-col gap-3">
      <h3 id="retention-title" className="text-base font-semibold text-ink">
        {ACCOUNT_MESSAGES.retentionTitle}
      </h3>
      <dl className="divide-y divide-line rounded-xl border border-line">
        {RETENTION_ROWS.map((row) => (
          <div key={row.what} className="grid gap-1 p-3 sm:grid-cols-[1fr_auto] sm:gap-4">
            <dt className="text-sm font-medium text-ink">{row.what}</dt>
            <dd className="text-sm font-semibold text-ink sm:text-right">{row.kept}</dd>
            <dd className="text-sm text-ink-muted sm:col-span-2">{row.detail}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}
