import { createRemoteJWKSet, jwtVerify } from 'jose'
import type { Config } from '#server/config.ts'
import type { Database } from '#server/db/client.ts'
import { pushReceipts } from '#server/db/schema.ts'
import type { MailboxService } from '#server/features/mailboxes/mailboxes.service.ts'
import type { SyncReason } from '#server/jobs/mailbox-sync.job.ts'
import { GmailNotificationDataSchema } from '#shared/api/webhooks.ts'

/** Pub/Sub tokens can be up to an hour old (providers.md A3); allow a little clock skew on top. */
const CLOCK_TOLERANCE_S = 60

export class PushProofError extends Error {
  override name = 'PushProofError'
  constructor(
    readonly status: 401 | 403,
    message: string,
  ) {
    super(message)
  }
}

export interface WebhookServiceDeps {
  db: Database
  config: Config
  mailboxes: Pick<MailboxService, 'gmailMailboxesFor' | 'outlookMailboxFor' | 'enqueueSync' | 'ensurePushById'>
  log: { warn(obj: object, msg: string): void }
}

/**
 * Push receivers (issue 12): each notification is proven (Pub/Sub OIDC JWT; Graph clientState),
 * recorded once (push_receipts, unique per provider message) and turned into a sync job for its
 * mailbox. A bad or missing proof changes nothing.
 */
export function createWebhookService({ db, config, mailboxes, log }: WebhookServiceDeps) {
  const jwks = createRemoteJWKSet(new URL(config.gmail.push.jwksUrl), { cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 })

  /** providers.md A3: signature, aud, iss, the push service account's verified email, exp. */
  async function verifyPubSubToken(authorization: string | undefined) {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1]
    if (!token) throw new PushProofError(401, 'Missing bearer token')
    const expected = config.gmail.push.serviceAccount
    if (!expected) throw new PushProofError(403, 'GMAIL_PUSH_SERVICE_ACCOUNT is not configured: no push can be trusted')
    let payload
    try {
      ;({ payload } = await jwtVerify(token, jwks, {
        issuer: config.gmail.push.issuers,
        audience: config.gmail.push.audience,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['exp', 'iat'],
      }))
    } catch {
      throw new PushProofError(401, 'Push token rejected')
    }
    if (payload.email !== expected || payload.email_verified !== true) throw new PushProofError(403, 'Push token is not from the configured service account')
  }

  /** Records a notification once; true when it is new. */
  async function recordOnce(source: 'gmail' | 'outlook' | 'outlook_lifecycle', dedupeKey: string, mailboxId: number) {
    const inserted = await db.insert(pushReceipts).values({ source, dedupeKey: dedupeKey.slice(0, 500), mailboxId }).onConflictDoNothing().returning({ id: pushReceipts.id })
    return inserted.length > 0
  }

  async function enqueue(mailboxId: number, reason: SyncReason) {
    await mailboxes.enqueueSync(mailboxId, reason)
  }

  /** POST /_api/webhooks/gmail. Returns how many syncs it enqueued (0 for unknown mailboxes or redeliveries). */
  async function receiveGmail(authorization: string | undefined, envelope: { message: { data: string; messageId?: string; message_id?: string } }) {
    await verifyPubSubToken(authorization)
    const messageId = envelope.message.messageId ?? envelope.message.message_id
    let data: unknown
    try {
      data = JSON.parse(Buffer.from(envelope.message.data, 'base64').toString('utf8'))
    } catch {
      data = undefined
    }
    const parsed = GmailNotificationDataSchema.safeParse(data)
    // Acknowledged anyway: a redelivery would carry the same unreadable data (A3: no 500 loops).
    if (!parsed.success || !messageId) return { enqueued: 0, ignored: 'unreadable notification' }
    let enqueued = 0
    for (const { id } of await mailboxes.gmailMailboxesFor(parsed.data.emailAddress)) {
      if (await recordOnce('gmail', `${messageId}:${id}`, id)) {
        await enqueue(id, 'push')
        enqueued++
      }
    }
    return { enqueued }
  }

  interface GraphNotification {
    subscriptionId: string
    clientState?: string
    changeType?: string
    resource?: string
    resourceData?: { id?: string }
    lifecycleEvent?: string
    subscriptionExpirationDateTime?: string
  }

  /** POST /_api/webhooks/outlook and .../lifecycle: only notifications with the right clientState count. */
  async function receiveGraph(notifications: readonly GraphNotification[], lifecycle: boolean) {
    let valid = 0
    let enqueued = 0
    for (const n of notifications) {
      const mailboxId = await mailboxes.outlookMailboxFor(n.subscriptionId, n.clientState)
      if (mailboxId === null) continue
      valid++
      const key = lifecycle
        ? `${n.subscriptionId}:${n.lifecycleEvent ?? 'unknown'}:${n.subscriptionExpirationDateTime ?? ''}`
        : `${n.subscriptionId}:${n.resourceData?.id ?? n.resource ?? ''}:${n.changeType ?? ''}`
      if (await recordOnce(lifecycle ? 'outlook_lifecycle' : 'outlook', key, mailboxId)) {
        await enqueue(mailboxId, lifecycle ? 'lifecycle' : 'push')
        enqueued++
        // The subscription needs renewing (reauthorizationRequired) or is gone (subscriptionRemoved):
        // re-establish it now, after answering (B3: answer within 3 s); `missed` is caught up by the sync.
        if (n.lifecycleEvent === 'reauthorizationRequired' || n.lifecycleEvent === 'subscriptionRemoved') {
          setImmediate(() => void mailboxes.ensurePushById(mailboxId).catch((error: unknown) => log.warn({ mailboxId, err: error }, 'could not renew push after a lifecycle event')))
        }
      }
    }
    return { valid, enqueued }
  }

  return { receiveGmail, receiveGraph }
}

export type WebhookService = ReturnType<typeof createWebhookService>
