import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { useTeamWaitlist } from '../api/get-team-waitlist.ts'
import { ADMIN_MESSAGES } from '../messages.ts'
import { RelativeTime } from './relative-time.tsx'
import { LoadError, SubPanel } from './sub-panel.tsx'

const cell = 'px-3 py-2'

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
        <div className="overflow-x-auto rounded-lg border border-line">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{ADMIN_MESSAGES.waitlistLabel}</caption>
            <thead className="bg-canvas text-xs text-ink-muted">
              <tr>
                {[columns.name, columns.email, columns.userId, columns.joined].map((column) => (
                  <th key={column} scope="col" className={`${cell} font-medium`}>
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td className={cell}>{entry.name}</td>
                  <td className={`${cell} break-all`}>{entry.email}</td>
                  <td className={cell}>{entry.userId ?? ADMIN_MESSAGES.notAvailable}</td>
                  <td className={cell}>
                    <RelativeTime value={entry.createdAt} now={now} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
