import { createClassifier, type LlmJudge } from '#classifier/classify.ts'
import { createOpenAiJudge } from '#classifier/llm/adapter.ts'
import type { Config } from '#server/config.ts'
import type { Database } from '#server/db/client.ts'
import { createActivityService } from '#server/features/activity/activity.service.ts'
import type { DemoMailboxes } from '#server/features/demo/demo.routes.ts'
import { createMailboxService } from '#server/features/mailboxes/mailboxes.service.ts'
import { createMailIntegration, type MailIntegration } from '#server/integrations/mail/mail-integration.ts'
import type { MailboxJobs, SyncReason } from '#server/jobs/mailbox-sync.job.ts'
import { classifierModel } from '#server/lib/classifier-model.ts'
import type { TokenCipher } from '#server/lib/token-cipher.ts'
import { createMailboxLock } from '#server/pipeline/mailbox-lock.ts'
import { runSync } from '#server/pipeline/run-sync.ts'
import { syncMailbox } from '#server/pipeline/sync-mailbox.ts'
import { createHealthService } from '#server/features/health/health.service.ts'
import { createCircuitBreakers, type CircuitBreakers } from '#server/integrations/circuit-breaker.ts'
import type { JobTasks } from '#server/jobs/boss.ts'
import type { BillingJobs } from '#server/jobs/billing-sync.job.ts'
import { createBillingService, createStripeClient } from '#server/features/billing/billing.service.ts'

export interface ServicesDeps {
  /** Queues re-reads of Stripe customers (issue 16); without it, billing webhooks are refused. */
  billingJobs?: BillingJobs
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

/**
 * The optional OpenAI-compatible judge for the uncertain band (LLM_BASE_URL, LLM_MODEL), behind the
 * persisted `openai_classification` breaker: while it is open the local model decides alone.
 */
export function llmJudge(config: Config, breakers: CircuitBreakers, log: ServicesDeps['log']): LlmJudge | undefined {
  const { baseUrl, apiKey, model } = config.llm
  if (!baseUrl || !model) return undefined
  const judge = createOpenAiJudge({
    config: { baseURL: baseUrl, apiKey: apiKey ?? 'none', model },
    // The persisted breaker below decides for every process; the judge's own in-memory one stays out of the way.
    breaker: { failureThreshold: Number.MAX_SAFE_INTEGER },
    onError: (error) => log.warn({ err: error }, 'the LLM failed; the local model decides'),
  })
  return {
    async judge(message) {
      if ((await breakers.state('openai_classification')).open) return null
      // The judge answers null exactly when the call failed (timeout, 5xx, an answer of the wrong shape).
      const verdict = await judge.judge(message)
      if (verdict) await breakers.success('openai_classification')
      else await breakers.failure('openai_classification')
      return verdict
    },
  }
}

/**
 * Gmail publishes at most one notification a second per mailbox and drops the rest (providers.md A3):
 * mail that arrives within a second of a notification may never be announced. So every sync is
 * followed by one more this much later (more than that second after the notification that started
 * it), and a follow-up that found mail by another; the chain ends with a follow-up that finds nothing.
 */
export const FOLLOW_UP_AFTER_MS = 1500

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
  // One sync per mailbox at a time: an advisory lock on PostgreSQL, in-process on PGlite (decision 022).
  const lock = createMailboxLock({ connectionString: deps.config.databaseUrl, onError: (error) => log.warn({ err: error }, 'the mailbox lock connection failed') })
  let classifier: ReturnType<typeof createClassifier> | undefined
  const sync = (mailboxId: number, reason: SyncReason) => {
    // The model loads on the first sync, not at start-up.
    classifier ??= createClassifier({ model: classifierModel(), llm: llmJudge(deps.config, breakers, log) })
    return syncMailbox({ db, classifier, adapterFor: mailboxes.adapterFor, log, monthlyLimits: deps.config.stripe.secretKey !== undefined }, mailboxId, reason)
  }
  const pipeline = {
    /** One sync, bare (tests drive it directly). */
    sync,
    /** One sync as the worker runs it: behind the breakers and the mailbox's own back-off. */
    run: (mailboxId: number, reason: SyncReason) => runSync({ db, breakers, sync, lock }, mailboxId, reason),
  }
  const activity = createActivityService({ db, mailboxes })
  const health = createHealthService({ db, mailboxes, breakers, jobs: deps.jobs })
  const billing = createBillingService({
    db,
    config: deps.config,
    stripe: createStripeClient(deps.config.stripe),
    enqueueCustomerSync: (customerId) => (deps.billingJobs ? deps.billingJobs.enqueueCustomerSync(customerId) : Promise.reject(new Error('no billing queue'))),
  })
  /** What the job workers run (src/server/jobs/boss.ts). */
  const tasks: JobTasks = {
    syncMailbox: async (mailboxId, reason) => {
      const outcome = await pipeline.run(mailboxId, reason)
      if (outcome.kind === 'deferred') return { kind: 'deferred', until: outcome.until }
      const quietFollowUp = (reason === 'followup' || reason === 'poll') && outcome.result.decided === 0
      return quietFollowUp ? { kind: 'done' } : { kind: 'done', followUpAfterMs: FOLLOW_UP_AFTER_MS }
    },
    renewPush: () => health.renewDuePush(),
    sweep: () => health.sweep(),
    watchdog: async () => ({ ...(await health.watchdog()) }),
    syncBillingCustomer: (customerId) => billing.syncCustomer(customerId),
  }
  return { mailboxes, pipeline, activity, breakers, health, billing, tasks }
}

export type Services = ReturnType<typeof createServices>
