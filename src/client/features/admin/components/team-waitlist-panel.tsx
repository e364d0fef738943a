import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { useTeamWaitlist } from '../api/get-team-waitlist.ts'
import { ADMIN_MESSAGES } from '../messages.ts'
import { RelativeTime } from './relative-time.tsx'
import { SimpleTable } from './simple-table.tsx'
import { LoadError, SubPanel } from './sub-panel.tsx'

/**
 * The Team waitlist (SPEC 7 "Team waitlist"), newest first. Joining the waitlist invalidates this
 * list's cache, so a new entry appears without a reload.
 */
export function TeamWaitlistPanel({ now }: { now: number }) {
  const waitlist = useTeamWaitlist()
  const entries = waitlist.data
  const columns = ADMIN_MESSAGES.waitlistColumns

  let body
  if (entries) {
    body =
      entries.length === 0 ? (
        <p className="text-sm text-ink-muted">{ADMIN_MESSAGES.waitlistEmpty}</p>
      ) : (
        <SimpleTable
          caption={ADMIN_MESSAGES.waitlistLabel}
          rows={entries}
          rowKey={(entry) => entry.id}
          columns={[
            { header: columns.name, cell: (entry) => entry.name },
            { header: columns.email, cell: (entry) => entry.email, className: 'break-all' },
            { header: columns.userId, cell: (entry) => entry.userId ?? ADMIN_MESSAGES.notAvailable },
            { header: columns.joined, cell: (entry) => <RelativeTime value={entry.createdAt} now={now} /> },
          ]}
        />
      )
  } else if (waitlist.error) {
    body = <LoadError text={ADMIN_MESSAGES.waitlistLoadError(waitlist.error.message)} retrying={waitlist.isFetching} onRetry={() => void waitlist.refetch()} />
  } else {
    body = (
      <div role="status" aria-label={ADMIN_MESSAGES.waitlistLoading} className="flex flex-col gap-2">
        <Skeleton className="h-8 w-full" />
        <Skeleton className="h-8 w-full" />
      </div>
    )
  }

  return (
    <SubPanel title={ADMIN_MESSAGES.waitlistTitle} description={ADMIN_MESSAGES.waitlistDescription} className="md:col-span-2">
      {body}
    </SubPanel>
  )
}
