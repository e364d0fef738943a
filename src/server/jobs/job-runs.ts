import type { Database } from '#server/db/client.ts'
import { jobRuns } from '#server/db/schema.ts'

/**
 * Runs one job and records the run in job_runs, which the admin cron-health panel reads (SPEC 4
 * "Cron health": OK / Stale / Not Run). A failure is recorded and then re-thrown so pg-boss retries it.
 */
export async function recordJobRun<T extends Record<string, unknown>>(
  db: Database,
  jobName: string,
  run: () => Promise<T>,
): Promise<T> {
  const startedAt = new Date()
  try {
    const result = await run()
    await db.insert(jobRuns).values({ jobName, startedAt, finishedAt: new Date(), status: 'success', result })
    return result
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    await db
      .insert(jobRuns)
      .values({ jobName, startedAt, finishedAt: new Date(), status: 'failed', result: { error: message.slice(0, 500) } })
    throw error
  }
}
