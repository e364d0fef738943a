import { timingSafeEqual } from 'node:crypto'
import { generateCodeVerifier } from 'arctic'
import { and, eq, sql } from 'drizzle-orm'
import { recordAuditEvent } from '#server/audit/audit-log.ts'
import type { Database } from '#server/db/client.ts'
import { mailboxes, oauthStates, users, type MailboxRow } from '#server/db/schema.ts'
import type { MailIntegration } from '#server/integrations/mail/mail-integration.ts'
import {
  MailAuthRevokedError,
  MailProviderError,
  type MailCredentials,
  type MailProvider,
  type MailProviderName,
  type MailTokens,
  type PushSubscription,
} from '#server/integrations/mail/mail-provider.ts'
import type { MailboxJobs } from '#server/jobs/mailbox-sync.job.ts'
import type { TokenCipher } from '#server/lib/token-cipher.ts'
import { randomToken, sha256 } from '#server/lib/tokens.ts'
import type { GmailStatus, OutlookStatus } from '#shared/api/mailboxes.ts'

/** The connect popup has 5 minutes (SPEC 9); the state outlives that a little for slow consent screens. */
export const MAILBOX_STATE_TTL_MS = 10 * 60_000
/** Access tokens are refreshed this long before they expire. */
const REFRESH_MARGIN_MS = 60_000

/** A connect failure, shown in the popup (or as dashboard URL parameters after a redirect, SPEC 8). */
export class MailboxConnectError extends Error {
  override name = 'MailboxConnectError'
  constructor(
    /** SPEC 8 "Dashboard URL errors" codes where one applies: access_denied, invalid_scope, server_error. */
    readonly code: string,
    message: string,
    readonly status: number,
    /** For the log and audit only. */
    readonly reason?: string,
  ) {
    super(message)
  }
}

export interface ConnectContext {
  ipAddress: string | null
  userAgent: string | undefined
}

export interface MailboxServiceDeps {
  db: Database
  mail: MailIntegration
  cipher: TokenCipher
  jobs: MailboxJobs
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void }
  /** Demo mode: fills a newly connected demo mailbox with the demo messages before syncing starts. */
  demoMailboxes?: { prepare(provider: MailProviderName, address: string, options?: { arriving?: boolean }): Promise<void> }
}

type StatusOf<P extends MailProviderName> = P extends 'gmail' ? GmailStatus : OutlookStatus

const tokenContext = (mailboxId: number, field: 'access_token' | 'refresh_token') => `mailbox:${mailboxId}:${field}`

/** What a mailbox holds of a connection: cleared together when it ends (disconnect, dead grant, a new connect). */
const NO_CONNECTION = {
  statusMessage: null,
  accessToken: null,
  refreshToken: null,
  tokenExpiresAt: null,
  grantedScope: null,
  syncCursor: null,
  pushSubscriptionId: null,
  pushExpiresAt: null,
  pushClientStateHash: null,
} as const

/**
 * Mailbox connection (SPEC 4 "Mailbox connection", issue 12): connect through OAuth with incremental
 * consent, a live status check, disconnect, and the credentials adapters use. One mailbox per user:
 * only one provider may hold tokens. Tokens are encrypted at rest and never leave this module in the
 * clear except to the provider.
 */
export function createMailboxService({ db, mail, cipher, jobs, log, demoMailboxes }: MailboxServiceDeps) {
  const label = (provider: MailProviderName) => mail.traits(provider).label

  async function mailboxOf(userId: number): Promise<MailboxRow | undefined> {
    const [row] = await db.select().from(mailboxes).where(eq(mailboxes.userId, userId)).limit(1)
    return row
  }

  const holdsTokens = (row: MailboxRow | undefined): row is MailboxRow => Boolean(row && row.status !== 'disconnected' && row.refreshToken)

  function conflictError(held: MailProviderName, wanted: MailProviderName) {
    return new MailboxConnectError(
      'provider_conflict',
      `Your ${label(held)} mailbox is connected. Use "Switch Email Address" to disconnect it before connecting ${label(wanted)}.`,
      409,
      `${held} already holds tokens`,
    )
  }

  /** GET /_api/<provider>/authorize: state + PKCE stored server-side, bound to this browser and user. */
  async function startConnect(userId: number, provider: MailProviderName, mode: 'popup' | 'redirect', now = new Date()) {
    const existing = await mailboxOf(userId)
    if (holdsTokens(existing) && existing.provider !== provider) throw conflictError(existing.provider, provider)
    const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1)
    const state = randomToken()
    const codeVerifier = generateCodeVerifier()
    const binding = randomToken()
    await db.insert(oauthStates).values({
      state,
      provider,
      userId,
      mode,
      codeVerifier,
      nonce: randomToken(),
      browserBindingHash: sha256(binding),
      createdAt: now,
      expiresAt: new Date(now.getTime() + MAILBOX_STATE_TTL_MS),
    })
    // The mailbox already connected (re-authentication) or the sign-in address is the likely account.
    const hint = existing?.provider === provider ? existing.emailAddress : user?.email
    return { url: mail.oauth(provider).createAuthorizationUrl(state, codeVerifier, hint).toString(), binding }
  }

  async function consumeState(provider: MailProviderName, state: string | undefined, binding: string | undefined, userId: number | null, now: Date) {
    if (!state) throw new MailboxConnectError('invalid_state', 'The connection attempt expired or was started in another window. Please try again.', 400, 'missing state')
    const [row] = await db.delete(oauthStates).where(eq(oauthStates.state, state)).returning()
    const fail = (reason: string) =>
      new MailboxConnectError('invalid_state', 'The connection attempt expired or was started in another window. Please try again.', 400, reason)
    if (!row) throw fail('unknown or already used state')
    if (row.provider !== provider) throw fail('state issued for another provider')
    if (row.expiresAt <= now) throw fail('expired state')
    if (!binding || sha256(binding) !== row.browserBindingHash) throw fail('state not bound to this browser')
    if (!row.userId || row.userId !== userId) throw fail('state issued to another user or signed out since')
    return { userId: row.userId, codeVerifier: row.codeVerifier, mode: row.mode ?? 'popup' }
  }

  /** Reads the callback's mode before anything can fail, so errors go back the way the flow started. */
  async function modeOfState(state: string | undefined): Promise<'popup' | 'redirect'> {
    if (!state) return 'popup'
    const [row] = await db.select({ mode: oauthStates.mode }).from(oauthStates).where(eq(oauthStates.state, state)).limit(1)
    return row?.mode ?? 'popup'
  }

  function providerError(error: string): MailboxConnectError {
    if (error === 'access_denied') {
      return new MailboxConnectError('access_denied', 'Permission was not granted. Connect again and click Allow to let Inbox Guard read and label your mail.', 400, 'user denied consent')
    }
    if (error === 'invalid_scope') return new MailboxConnectError('invalid_scope', 'The provider refused the requested permissions. Please contact support.', 400, 'invalid_scope')
    return new MailboxConnectError('server_error', 'The provider could not complete the connection. Please try again in a few minutes.', 400, `provider error: ${error.slice(0, 64)}`)
  }

  async function storeTokens(mailboxId: number, tokens: MailTokens) {
    return {
      accessToken: cipher.encrypt(tokens.accessToken, tokenContext(mailboxId, 'access_token')),
      refreshToken: cipher.encrypt(tokens.refreshToken, tokenContext(mailboxId, 'refresh_token')),
      tokenExpiresAt: tokens.expiresAt,
      grantedScope: tokens.scope,
    }
  }

  /** Upserts the user's one mailbox row and returns its id. */
  async function upsertMailbox(userId: number, provider: MailProviderName, values: Partial<typeof mailboxes.$inferInsert> & { emailAddress: string; status: MailboxRow['status'] }, now: Date) {
    const [row] = await db
      .insert(mailboxes)
      .values({ userId, provider, connectedAt: now, updatedAt: now, ...values })
      .onConflictDoUpdate({
        target: mailboxes.userId,
        set: { provider, connectedAt: now, updatedAt: now, ...NO_CONNECTION, ...values },
      })
      .returning({ id: mailboxes.id })
    return row!.id
  }

  /**
   * The provider's redirect back. Exchanges the code, checks the scopes actually granted (a person
   * can untick mail access), reads the mailbox address, stores the tokens encrypted, and starts push.
   */
  async function completeConnect(
    input: { provider: MailProviderName; code?: string; state?: string; error?: string; binding: string | undefined; userId: number | null },
    ctx: ConnectContext,
    now = new Date(),
  ): Promise<{ email: string; status: MailboxRow['status'] }> {
    const { provider } = input
    try {
      if (input.error) {
        if (input.state) await db.delete(oauthStates).where(eq(oauthStates.state, input.state))
        throw providerError(input.error)
      }
      const { userId, codeVerifier } = await consumeState(provider, input.state, input.binding, input.userId, now)
      if (!input.code) throw new MailboxConnectError('server_error', 'The provider sent an incomplete answer. Please try again.', 400, 'missing code')
      const existing = await mailboxOf(userId)
      if (holdsTokens(existing) && existing.provider !== provider) throw conflictError(existing.provider, provider)

      const oauth = mail.oauth(provider)
      let tokens: MailTokens
      try {
        tokens = await oauth.exchangeCode(input.code, codeVerifier)
      } catch (error) {
        throw new MailboxConnectError('server_error', `We could not complete the connection with ${label(provider)}. Please try again.`, 502, `token exchange: ${(error as Error).name}`)
      }

      if (!oauth.hasRequiredScopes(tokens.scope)) {
        // Not a broken mailbox: a clear state that asks for the permission again.
        const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1)
        const email = existing?.provider === provider ? existing.emailAddress : (user?.email ?? '')
        await upsertMailbox(
          userId,
          provider,
          { emailAddress: email, status: 'action_required', statusMessage: `Inbox Guard needs permission to read and label your mail. Connect ${label(provider)} again and leave every permission ticked.` },
          now,
        )
        await audit(userId, provider, ctx, false, 'missing_scopes')
        return { email, status: 'action_required' }
      }

      const adapter = mail.provider(provider, staticCredentials(tokens))
      let email: string
      try {
        email = await adapter.getAddress()
      } catch (error) {
        throw connectFailure(provider, error, 'reading the address')
      }
      // Reconnecting the same mailbox after its grant died catches up from where filtering stopped
      // (the sync recovers an expired cursor from the Inbox); a new mailbox starts from now.
      const sameMailbox = existing?.provider === provider && existing.emailAddress.toLowerCase() === email.toLowerCase() && existing.status !== 'disconnected'
      const keptCursor = sameMailbox ? existing.syncCursor : null
      const mailboxId = await upsertMailbox(userId, provider, { emailAddress: email, status: 'connected', syncCursor: keptCursor }, now)
      await db.update(mailboxes).set(await storeTokens(mailboxId, tokens)).where(eq(mailboxes.id, mailboxId))
      await startPush(mailboxId, provider, adapter, keptCursor === null)
      // Demo mode: the demo mail arrives now, after the cursor, so the first sync decides it.
      await demoMailboxes?.prepare(provider, email, { arriving: true })
      await jobs.enqueueSync(mailboxId, 'connect').catch((error: unknown) => log.warn({ mailboxId, err: error }, 'could not queue the first sync'))
      await audit(userId, provider, ctx, true, undefined, undefined, sameMailbox ? 'MAILBOX_RECONNECTED' : 'MAILBOX_CONNECTED')
      log.info({ mailboxId, provider }, 'mailbox connected')
      return { email, status: 'connected' }
    } catch (error) {
      if (error instanceof MailboxConnectError && input.userId) await audit(input.userId, provider, ctx, false, error.code, error.reason)
      throw error
    }
  }

  function connectFailure(provider: MailProviderName, error: unknown, step: string) {
    if (error instanceof MailProviderError && error.code === 'MailboxNotEnabledForRESTAPI') {
      return new MailboxConnectError(
        'exchange_license_required',
        'This Microsoft account has no Exchange Online mailbox. Use an account with an Exchange Online license, or a personal Outlook.com account.',
        400,
        error.code,
      )
    }
    return new MailboxConnectError('server_error', `${label(provider)} could not be reached. Please try again in a few minutes.`, 502, `${step}: ${(error as Error).name}`)
  }

  async function audit(
    userId: number,
    provider: MailProviderName,
    ctx: ConnectContext,
    success: boolean,
    errorCode?: string,
    reason?: string,
    action: 'MAILBOX_CONNECTED' | 'MAILBOX_RECONNECTED' | 'MAILBOX_CONNECT_FAILED' = 'MAILBOX_CONNECT_FAILED',
  ) {
    await recordAuditEvent(db, {
      eventType: 'SETTINGS_CHANGED',
      eventCategory: 'DATA_ACCESS',
      severity: success ? 'INFO' : 'WARNING',
      userId,
      action,
      success,
      ipAddress: ctx.ipAddress,
      userAgent: ctx.userAgent,
      resourceType: 'mailbox',
      errorCode: errorCode ?? null,
      metadata: reason ? { provider, reason } : { provider },
    })
  }

  /** Starts push and records where syncs start; a provider that refuses push leaves the mailbox connected (polling covers it). */
  async function startPush(mailboxId: number, provider: MailProviderName, adapter: MailProvider, newCursor: boolean) {
    if (newCursor) {
      try {
        const cursor = await adapter.currentCursor()
        await db.update(mailboxes).set({ syncCursor: cursor }).where(eq(mailboxes.id, mailboxId))
      } catch (error) {
        log.warn({ mailboxId, provider, err: error }, 'could not read the sync cursor at connect')
      }
    }
    const outcome = await establishPush({ id: mailboxId, provider, pushSubscriptionId: null, pushExpiresAt: null }, adapter)
    if (!outcome.ok) log.warn({ mailboxId, provider, reason: outcome.reason }, 'push not started at connect; the mailbox will be polled')
  }

  /**
   * (Re)establishes push for a mailbox (issue 14): renews the watch/subscription it has, or creates one;
   * a Graph subscription that is gone ("not found") is created anew by the adapter. Records the
   * expiry, when it was renewed and, on failure, why (the webhook health reads it).
   */
  async function establishPush(
    row: Pick<MailboxRow, 'id' | 'provider' | 'pushSubscriptionId' | 'pushExpiresAt'>,
    adapter: MailProvider,
  ): Promise<{ ok: true; expiresAt: Date } | { ok: false; reason: 'not_configured' | 'token' | 'systemic' | 'webhook'; message: string }> {
    if (!mail.pushAvailable(row.provider)) {
      return { ok: false, reason: 'not_configured', message: `Push notifications are not configured for ${label(row.provider)}; new mail is checked every few minutes instead.` }
    }
    const clientState = randomToken()
    const target = mail.pushTarget(row.provider, clientState)
    try {
      const subscription = row.pushExpiresAt
        ? await adapter.renewPush({ id: row.pushSubscriptionId, expiresAt: row.pushExpiresAt }, target)
        : await adapter.startPush(target)
      // A renewal keeps the subscription and its clientState; a new subscription carries the new one.
      const fresh = !row.pushExpiresAt || subscription.id !== row.pushSubscriptionId
      await db
        .update(mailboxes)
        .set({
          pushSubscriptionId: subscription.id,
          pushExpiresAt: subscription.expiresAt,
          pushRenewedAt: new Date(),
          pushError: null,
          ...(fresh ? { pushClientStateHash: sha256(clientState) } : {}),
        })
        .where(eq(mailboxes.id, row.id))
      return { ok: true, expiresAt: subscription.expiresAt }
    } catch (error) {
      const reason = error instanceof MailAuthRevokedError ? 'token' : error instanceof MailProviderError && (error.status >= 500 || error.status === 0) ? 'systemic' : 'webhook'
      const message =
        reason === 'token'
          ? `Access to ${label(row.provider)} ended: reconnect your mailbox.`
          : `${label(row.provider)} refused push notifications${error instanceof MailProviderError && error.code ? ` (${error.code})` : ''}; new mail is checked every few minutes instead.`
      await db.update(mailboxes).set({ pushError: message.slice(0, 300) }).where(eq(mailboxes.id, row.id))
      return { ok: false, reason, message }
    }
  }

  /** establishPush for a stored mailbox: the sync that catches up follows when push had lapsed. */
  async function ensurePush(row: MailboxRow, now: Date = new Date()) {
    const lapsed = !row.pushExpiresAt || row.pushExpiresAt <= now
    const outcome = await establishPush(row, adapterFor(row))
    if (outcome.ok && lapsed) await jobs.enqueueSync(row.id, 'poll').catch(() => {})
    return outcome
  }

  /** Credentials for an access token known to be fresh (right after the code exchange). */
  function staticCredentials(tokens: MailTokens): MailCredentials {
    return {
      accessToken: async () => tokens.accessToken,
      refresh: async () => {
        throw new MailAuthRevokedError('A freshly issued token was refused')
      },
    }
  }

  const refreshing = new Map<number, Promise<string>>()

  /**
   * Credentials backed by the stored tokens. A refresh runs once at a time per mailbox: in this process
   * through a shared promise, across processes with a row lock, after which a token another process
   * refreshed meanwhile is used as is. Microsoft's rotated refresh token is stored every time.
   */
  function credentialsFor(mailboxId: number): MailCredentials {
    /** The access token this adapter was last given: after a 401, a different stored one means another caller refreshed. */
    let handedOut: string | undefined
    const refresh = (force: boolean): Promise<string> => {
      const running = refreshing.get(mailboxId)
      if (running) return running
      const task = db
        .transaction(async (tx) => {
          const [row] = await tx.select().from(mailboxes).where(eq(mailboxes.id, mailboxId)).for('update')
          if (!row || !row.refreshToken || !row.accessToken) throw new MailAuthRevokedError('The mailbox has no tokens')
          const current = cipher.decrypt(row.accessToken, tokenContext(mailboxId, 'access_token'))
          const fresh = row.tokenExpiresAt && row.tokenExpiresAt.getTime() - Date.now() > REFRESH_MARGIN_MS
          if (fresh && (!force || current !== handedOut)) return current
          const tokens = await mail.oauth(row.provider).refresh(cipher.decrypt(row.refreshToken, tokenContext(mailboxId, 'refresh_token')))
          await tx.update(mailboxes).set({ ...(await storeTokens(mailboxId, tokens)), updatedAt: new Date() }).where(eq(mailboxes.id, mailboxId))
          return tokens.accessToken
        })
        .then((token) => (handedOut = token))
        .catch(async (error: unknown) => {
          if (error instanceof MailAuthRevokedError) await markRevoked(mailboxId)
          throw error
        })
        .finally(() => refreshing.delete(mailboxId))
      refreshing.set(mailboxId, task)
      return task
    }
    return {
      async accessToken() {
        const [row] = await db
          .select({ accessToken: mailboxes.accessToken, tokenExpiresAt: mailboxes.tokenExpiresAt })
          .from(mailboxes)
          .where(eq(mailboxes.id, mailboxId))
          .limit(1)
        if (!row?.accessToken) throw new MailAuthRevokedError('The mailbox has no tokens')
        if (row.tokenExpiresAt && row.tokenExpiresAt.getTime() - Date.now() > REFRESH_MARGIN_MS) {
          handedOut = cipher.decrypt(row.accessToken, tokenContext(mailboxId, 'access_token'))
          return handedOut
        }
        return refresh(false)
      },
      refresh: () => refresh(true),
    }
  }

  /** invalid_grant: the grant is dead. Push cannot be stopped without it; the person sees Reconnect. */
  async function markRevoked(mailboxId: number) {
    const [row] = await db.select({ provider: mailboxes.provider }).from(mailboxes).where(eq(mailboxes.id, mailboxId)).limit(1)
    if (!row) return
    await db
      .update(mailboxes)
      .set({
        ...NO_CONNECTION,
        // The cursor stays: reconnecting catches up from where filtering stopped.
        syncCursor: undefined,
        status: mail.traits(row.provider).revokedStatus,
        statusMessage: `Access to ${label(row.provider)} was revoked or has expired. Reconnect to resume filtering.`,
        updatedAt: new Date(),
      })
      .where(eq(mailboxes.id, mailboxId))
  }

  function adapterFor(row: MailboxRow): MailProvider {
    return mail.provider(row.provider, credentialsFor(row.id))
  }

  /** GET /_api/<provider>/test: SPEC 3 "connection status", checked live against the provider. */
  async function status<P extends MailProviderName>(userId: number, provider: P, reauthorizationUrl: string): Promise<StatusOf<P>> {
    const row = await mailboxOf(userId)
    const reauth = mail.traits(provider).offersReauthorization
    const answer = (status: StatusOf<P>['status'], message: string, email: string | null, details: string | null, authorizationUrl: string | null = null) =>
      (reauth
        ? { status, message, gmailEmail: email, details, authorizationUrl }
        : { status, message, outlookEmail: email, details }) as StatusOf<P>

    if (!row || row.provider !== provider || row.status === 'disconnected') {
      const other = row && row.provider !== provider && row.status !== 'disconnected' ? row.provider : null
      return answer(
        'disconnected',
        other ? `Your ${label(other)} mailbox is connected. Switch Email Address to use ${label(provider)} instead.` : `No ${label(provider)} account connected.`,
        null,
        other ? `${label(other)} holds the connection` : null,
      )
    }
    if (row.status === 'action_required' || row.status === 'revoked') {
      return answer(row.status as StatusOf<P>['status'], row.statusMessage ?? `${label(provider)} needs you to reconnect.`, row.emailAddress || null, null, reauth ? reauthorizationUrl : null)
    }
    try {
      const address = await adapterFor(row).getAddress()
      return answer('connected', `Connected to ${address}`, address, null)
    } catch (error) {
      if (error instanceof MailAuthRevokedError) {
        const [after] = await db.select().from(mailboxes).where(eq(mailboxes.id, row.id)).limit(1)
        return answer(
          (after?.status ?? mail.traits(provider).revokedStatus) as StatusOf<P>['status'],
          after?.statusMessage ?? `Access to ${label(provider)} was revoked. Reconnect to resume filtering.`,
          row.emailAddress,
          null,
          reauth ? reauthorizationUrl : null,
        )
      }
      const code = error instanceof MailProviderError ? (error.code ?? String(error.status)) : 'unreachable'
      return answer('error', `Unable to reach ${label(provider)} right now.`, row.emailAddress, code)
    }
  }

  /** POST /_api/<provider>/disconnect: stops push, revokes the grant where possible, clears the tokens; settings and lists stay. */
  async function disconnect(userId: number, provider: MailProviderName, ctx?: ConnectContext): Promise<{ warning?: string } | null> {
    const row = await mailboxOf(userId)
    if (!row || row.provider !== provider || row.status === 'disconnected') return null
    const warnings: string[] = []
    if (row.refreshToken && row.accessToken) {
      const adapter = adapterFor(row)
      if (row.pushExpiresAt) {
        const subscription: PushSubscription = { id: row.pushSubscriptionId, expiresAt: row.pushExpiresAt }
        await adapter.stopPush(subscription).catch((error: unknown) => log.warn({ mailboxId: row.id, err: error }, 'could not stop push at disconnect'))
      }
      try {
        const tokens = {
          accessToken: cipher.decrypt(row.accessToken, tokenContext(row.id, 'access_token')),
          refreshToken: cipher.decrypt(row.refreshToken, tokenContext(row.id, 'refresh_token')),
        }
        const revoked = await mail.oauth(provider).revoke(tokens)
        if (revoked.hint) warnings.push(revoked.hint)
      } catch (error) {
        log.warn({ mailboxId: row.id, err: error }, 'could not revoke the grant at disconnect')
        warnings.push(`${label(provider)} could not be reached to revoke access; you can remove Inbox Guard in your account's security settings.`)
      }
    }
    await db
      .update(mailboxes)
      .set({ ...NO_CONNECTION, status: 'disconnected', updatedAt: new Date() })
      .where(eq(mailboxes.id, row.id))
    log.info({ mailboxId: row.id, provider }, 'mailbox disconnected')
    if (ctx) {
      await recordAuditEvent(db, {
        eventType: 'SETTINGS_CHANGED',
        eventCategory: 'DATA_ACCESS',
        severity: 'INFO',
        userId,
        action: 'MAILBOX_DISCONNECTED',
        success: true,
        ipAddress: ctx.ipAddress,
        userAgent: ctx.userAgent,
        resourceType: 'mailbox',
        metadata: { provider },
      })
    }
    return warnings.length > 0 ? { warning: warnings.join(' ') } : {}
  }

  /** Gmail push names the mailbox by address: every connected Gmail mailbox with it (several users may connect one). */
  async function gmailMailboxesFor(address: string) {
    return db
      .select({ id: mailboxes.id })
      .from(mailboxes)
      .where(and(eq(mailboxes.provider, 'gmail'), eq(mailboxes.status, 'connected'), sql`lower(${mailboxes.emailAddress}) = ${address.toLowerCase()}`))
  }

  /** Outlook notifications name their subscription and echo the clientState, compared in constant time. */
  async function outlookMailboxFor(subscriptionId: string, clientState: string | undefined) {
    const [row] = await db
      .select({ id: mailboxes.id, hash: mailboxes.pushClientStateHash })
      .from(mailboxes)
      .where(and(eq(mailboxes.provider, 'outlook'), eq(mailboxes.pushSubscriptionId, subscriptionId)))
      .limit(1)
    if (!row?.hash || clientState === undefined) return null
    const given = Buffer.from(sha256(clientState))
    const expected = Buffer.from(row.hash)
    return given.length === expected.length && timingSafeEqual(given, expected) ? row.id : null
  }

  /**
   * POST /_api/gmail/poll (SPEC 4 "Polling"): counts the mail that arrived since the stored cursor
   * (without moving it) and queues a sync of the user's connected mailbox, Gmail or Outlook.
   */
  async function pollForUser(userId: number): Promise<{ mailboxId: number; newMessages: number } | null> {
    const row = await mailboxOf(userId)
    if (!row || row.status !== 'connected' || !row.refreshToken) return null
    let newMessages = 0
    if (row.syncCursor) {
      try {
        const result = await adapterFor(row).listNewMessageIds(row.syncCursor)
        if (result.kind === 'ok') newMessages = result.ids.length
      } catch (error) {
        // The sync it queues meets the same problem and records it; the poll still answers.
        log.warn({ mailboxId: row.id, err: error }, 'poll could not count new mail')
      }
    }
    await jobs.enqueueSync(row.id, 'poll')
    return { mailboxId: row.id, newMessages }
  }

  async function ensurePushById(mailboxId: number) {
    const [row] = await db.select().from(mailboxes).where(eq(mailboxes.id, mailboxId)).limit(1)
    if (!row || row.status !== 'connected' || !row.refreshToken) return null
    return ensurePush(row)
  }

  return {
    ensurePushById,
    pushAvailable: (provider: MailProviderName) => mail.pushAvailable(provider),
    traits: (provider: MailProviderName) => mail.traits(provider),
    ensurePush,
    mailboxOf,
    pollForUser,
    label,
    startConnect,
    completeConnect,
    modeOfState,
    status,
    disconnect,
    credentialsFor,
    adapterFor,
    gmailMailboxesFor,
    outlookMailboxFor,
    enqueueSync: jobs.enqueueSync,
  }
}

export type MailboxService = ReturnType<typeof createMailboxService>
