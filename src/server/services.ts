import { createClassifier } from '#classifier/classify.ts'
import type { Config } from '#server/config.ts'
import type { Database } from '#server/db/client.ts'
import { createActivityService } from '#server/features/activity/activity.service.ts'
import type { DemoMailboxes } from '#server/features/demo/demo.routes.ts'
import { createMailboxService } from '#server/features/mailboxes/mailboxes.service.ts'
import { createMailIntegration, type MailIntegration } from '#server/integrations/mail/mail-integration.ts'
import type { MailboxJobs, SyncReason } from '#server/jobs/mailbox-sync.job.ts'
import { classifierModel } from '#server/lib/classifier-model.ts'
import type { TokenCipher } from '#server/lib/token-cipher.ts'
import { runSync } from '#server/pipeline/run-sync.ts'
import { syncMailbox } from '#server/pipeline/sync-mailbox.ts'
import { createHealthService } from '#server/features/health/health.service.ts'
import { createCircuitBreakers } from '#server/integrations/circuit-breaker.ts'
import type { JobTasks } from '#server/jobs/boss.ts'

export interface ServicesDeps {
  db: Database
  config: Config
  cipher: TokenCipher
  jobs: MailboxJobs
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void }
  /** Defaults to the real Gmail and Outlook adapters for the configured URLs. */
  mail?: MailIntegration
  demoMailboxes?: DemoMailboxes
  /** Circuit breaker threshold and cool-down (tests shorten the cool-down). */
  breaker?: { threshold?: number; coolDownMs?: number }
}

/** After a sync that decided mail, one more this much later (cleared when a sync finds nothing). */
export const FOLLOW_UP_AFTER_MS = 3000

/**
 * The services both the HTTP app and the job workers use (STYLE.md 13: jobs call services, never
 * routes), built once per process.
 */
export function createServices(deps: ServicesDeps) {
  const { db, log } = deps
  const mailboxes = createMailboxService({
    db,
    mail: deps.mail ?? createMailIntegration(deps.config),
    cipher: deps.cipher,
    jobs: deps.jobs,
    log,
    demoMailboxes: deps.demoMailboxes,
  })
  const breakers = createCircuitBreakers(db, deps.breaker)
  let classifier: ReturnType<typeof createClassifier> | undefined
  const sync = (mailboxId: number, reason: SyncReason) => {
    // The model loads on the first sync, not at start-up.
    classifier ??= createClassifier({ model: classifierModel() })
    return syncMailbox({ db, classifier, adapterFor: mailboxes.adapterFor, log }, mailboxId, reason)
  }
  const pipeline = {
    /** One sync, bare (tests drive it directly). */
    sync,
    /** One sync as the worker runs it: behind the breakers and the mailbox's own back-off. */
    run: (mailboxId: number, reason: SyncReason) => runSync({ db, breakers, sync }, mailboxId, reason),
  }
  const activity = createActivityService({ db, mailboxes })
  const health = createHealthService({ db, mailboxes, breakers, jobs: deps.jobs })
  /** What the job workers run (src/server/jobs/boss.ts). */
  const tasks: JobTasks = {
    syncMailbox: async (mailboxId, reason) => {
      const outcome = await pipeline.run(mailboxId, reason)
      if (outcome.kind === 'deferred') return { kind: 'deferred', until: outcome.until }
      // Gmail drops notifications beyond one a second per mailbox (providers.md A3): after a sync that
      // found mail, look once more a moment later, so the tail of a burst does not wait for the sweep.
      if (outcome.result.decided > 0) return { kind: 'deferred', until: new Date(Date.now() + FOLLOW_UP_AFTER_MS), reason: 'followup' }
      return { kind: 'done' }
    },
    renewPush: () => health.renewDuePush(),
    sweep: () => health.sweep(),
    watchdog: async () => ({ ...(await health.watchdog()) }),
  }
  return { mailboxes, pipeline, activity, breakers, health, tasks }
}

export type Services = ReturnType<typeof createServices>
