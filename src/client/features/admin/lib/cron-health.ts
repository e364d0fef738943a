import type { CronJob } from '#shared/api/admin.ts'

export type CronOverall = 'healthy' | 'degraded' | 'unknown'

/**
 * SPEC 4 "Cron health": unknown if no jobs; degraded if any job is Not Run or Stale; else healthy.
 * Derived from the jobs shown (the server's `overall` follows the same rule), so the verdict can
 * never disagree with the badges beside it.
 */
export function cronOverall(jobs: readonly Pick<CronJob, 'status'>[]): CronOverall {
  if (jobs.length === 0) return 'unknown'
  return jobs.every((job) => job.status === 'OK') ? 'healthy' : 'degraded'
}
