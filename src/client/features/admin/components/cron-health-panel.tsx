import { Badge } from '#client/components/ui/badge.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import type { CronStatus } from '#shared/api/admin.ts'
import { useCronHealth } from '../api/get-cron-health.ts'
import { cronOverall } from '../lib/cron-health.ts'
import { ADMIN_MESSAGES } from '../messages.ts'
import { OverallStatus } from './overall-status.tsx'
import { RelativeTime } from './relative-time.tsx'
import { LoadError, SubPanel } from './sub-panel.tsx'

const STATUS_TONE = { OK: 'success', Stale: 'warning', 'Not Run': 'danger' } as const satisfies Record<CronStatus, string>

/**
 * Cron Job Health (SPEC 3 "Cron job entry", SPEC 4 "Cron health"), polled every 30 s: each job with
 * its schedule, last run and an OK, Stale or Not Run badge. Overall 'All Systems Operational' only
 * when healthy (every job OK); otherwise, no jobs included, 'Degraded Performance'.
 */
export function CronHealthPanel({ now }: { now: number }) {
  const cron = useCronHealth()
  const data = cron.data

  const overall = data ? (
    cronOverall(data.jobs) === 'healthy' ? (
      <OverallStatus tone="success" text={ADMIN_MESSAGES.overall.operational} />
    ) : (
      <OverallStatus tone="warning" text={ADMIN_MESSAGES.overall.degraded} />
    )
  ) : null

  let body
  if (data) {
    body =
      data.jobs.length === 0 ? (
        <p className="text-sm text-ink-muted">{ADMIN_MESSAGES.cronEmpty}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-line">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{ADMIN_MESSAGES.cronJobsLabel}</caption>
            <thead className="bg-canvas text-xs text-ink-muted">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  {ADMIN_MESSAGES.cronColumns.job}
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  {ADMIN_MESSAGES.cronColumns.schedule}
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  {ADMIN_MESSAGES.cronColumns.lastRun}
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  {ADMIN_MESSAGES.cronColumns.status}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {data.jobs.map((job) => (
                <tr key={job.jobName} data-job={job.jobName}>
                  <th scope="row" className="px-3 py-2 font-medium text-ink">
                    {job.jobName}
                  </th>
                  <td className="px-3 py-2 text-ink-muted">
                    <code>{job.schedule}</code> <span className="text-xs">({ADMIN_MESSAGES.cronEvery(job.intervalMinutes)})</span>
                  </td>
                  <td className="px-3 py-2">
                    <RelativeTime value={job.lastRunAt} now={now} />
                    {job.lastRunSucceeded === false ? <span className="block text-xs text-danger-700">{ADMIN_MESSAGES.cronLastRunFailed}</span> : null}
                  </td>
                  <td className="px-3 py-2">
                    <Badge tone={STATUS_TONE[job.status] ?? 'neutral'}>{ADMIN_MESSAGES.cronStatus[job.status] ?? job.status}</Badge>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )
  } else if (cron.error) {
    body = <LoadError text={ADMIN_MESSAGES.cronLoadError(cron.error.message)} retrying={cron.isFetching} onRetry={() => void cron.refetch()} />
  } else {
    body = (
      <div role="status" aria-label={ADMIN_MESSAGES.cronLoading} className="flex flex-col gap-2">
        <Skeleton className="h-8 w-full" />
        <Skeleton className="h-8 w-full" />
        <Skeleton className="h-8 w-full" />
      </div>
    )
  }

  return (
    <SubPanel title={ADMIN_MESSAGES.cronTitle} description={ADMIN_MESSAGES.cronDescription} status={overall}>
      {body}
    </SubPanel>
  )
}
