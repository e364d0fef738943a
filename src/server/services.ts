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
import { syncMailbox } from '#server/pipeline/sync-mailbox.ts'

export interface ServicesDeps {
  db: Database
  config: Config
  cipher: TokenCipher
  jobs: MailboxJobs
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void }
  /** Defaults to the real Gmail and Outlook adapters for the configured URLs. */
  mail?: MailIntegration
  demoMailboxes?: DemoMailboxes
}

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
  let classifier: ReturnType<typeof createClassifier> | undefined
  const pipeline = {
    sync: (mailboxId: number, reason: SyncReason) => {
      // The model loads on the first sync, not at start-up.
      classifier ??= createClassifier({ model: classifierModel() })
      return syncMailbox({ db, classifier, adapterFor: mailboxes.adapterFor, log }, mailboxId, reason)
    },
  }
  const activity = createActivityService({ db, mailboxes })
  return { mailboxes, pipeline, activity }
}

export type Services = ReturnType<typeof createServices>
