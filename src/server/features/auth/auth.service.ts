import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { generateCodeVerifier } from 'arctic'
import type { Config } from '#server/config.ts'
import type { Database } from '#server/db/client.ts'
import { identities, oauthStates, tempTokens, users } from '#server/db/schema.ts'
import { recordAuditEvent } from '#server/audit/audit-log.ts'
import { sessionsChanged } from '#server/lib/session-cache.ts'
import { createSession, deleteSession, toSessionUser } from '#server/lib/sessions.ts'
import { randomToken, sha256 } from '#server/lib/tokens.ts'
import type { AuthProvider, SessionUser } from '#shared/api/auth.ts'
import { accountLinkingMessage } from '#shared/messages.ts'
import { InvalidTempTokenError, OAuthFlowError, PROVIDER_LABELS } from './auth.errors.ts'
import type { SignInProvider, VerifiedProfile } from './oauth-providers.ts'

/** The popup has 5 minutes (SPEC 9); the state outlives that a little for slow consent screens. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000
/** The temp token only bridges popup → opener → establish_session, which takes milliseconds. */
export const TEMP_TOKEN_TTL_MS = 2 * 60_000

function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return true
  }
  return false
}

export interface RequestContext {
  ipAddress: string | null
  userAgent: string | undefined
}

export interface AuthServiceDeps {
  db: Database
  config: Config
  providers: Record<AuthProvider, SignInProvider>
}

export function createAuthService({ db, config, providers }: AuthServiceDeps) {
  async function auditLoginFailure(ctx: RequestContext, provider: AuthProvider | null, errorCode: string, reason: string | undefined, userId?: number) {
    await recordAuditEvent(db, {
      eventType: 'LOGIN_FAILURE',
      eventCategory: 'AUTHENTICATION',
      severity: 'WARNING',
      userId: userId ?? null,
      action: provider ? `oauth_sign_in_${provider}` : 'establish_session',
      success: false,
      ipAddress: ctx.ipAddress,
      userAgent: ctx.userAgent,
      authenticationMethod: provider ? `oauth:${provider}` : 'temp_token',
      errorCode,
      metadata: reason ? { reason } : {},
    })
  }

  /**
   * GET oauth_authorize (SPEC 7). State, PKCE verifier and nonce are stored server-side, single use;
   * the returned binding value goes into an HttpOnly cookie so only the browser that started the
   * flow can finish it (login CSRF protection).
   */
  async function startAuthorization(provider: AuthProvider, now: Date = new Date()) {
    const state = randomToken()
    const codeVerifier = generateCodeVerifier()
    const nonce = randomToken()
    const binding = randomToken()
    await db.insert(oauthStates).values({
      state,
      provider,
      codeVerifier,
      nonce,
      browserBindingHash: sha256(binding),
      createdAt: now,
      expiresAt: new Date(now.getTime() + OAUTH_STATE_TTL_MS),
    })
    return { url: providers[provider].createAuthorizationUrl(state, codeVerifier, nonce).toString(), binding }
  }

  /** Consumes a state exactly once (DELETE … RETURNING is atomic on both drivers). */
  async function consumeState(provider: AuthProvider, state: string, binding: string | undefined, now: Date) {
    const [row] = await db.delete(oauthStates).where(eq(oauthStates.state, state)).returning()
    if (!row) throw OAuthFlowError.of('invalid_state', provider, 'unknown or already used state')
    if (row.expiresAt <= now) throw OAuthFlowError.of('invalid_state', provider, 'expired state')
    if (row.provider !== provider) throw OAuthFlowError.of('invalid_state', provider, 'state issued for another provider')
    if (!binding || sha256(binding) !== row.browserBindingHash) {
      throw OAuthFlowError.of('invalid_state', provider, 'state not bound to this browser')
    }
    return row
  }

  /**
   * SPEC 1 and 5: one account per email address. An identity seen before (by the provider's stable
   * subject, never by address) signs straight in; a new identity whose email already belongs to an
   * account (any provider, case-insensitive) is refused with account_linking_required instead of
   * silently merging accounts, verified or not. ADMIN_EMAILS grants the admin role only to an
   * address the provider verified (docs/decisions/008-verified-addresses.md).
   */
  async function findOrCreateUser(provider: AuthProvider, profile: VerifiedProfile, ctx: RequestContext) {
    const isAdminEmail = profile.emailVerified && config.adminEmails.includes(profile.email.toLowerCase())
    const attempt = () => db.transaction(async (tx) => {
      const [known] = await tx
        .select({ user: users })
        .from(identities)
        .innerJoin(users, eq(users.id, identities.userId))
        .where(and(eq(identities.provider, provider), eq(identities.providerSubject, profile.subject)))
        .limit(1)
      if (known) {
        let user = known.user
        // ADMIN_EMAILS is re-read on every sign-in so operators can be promoted without a migration.
        if (isAdminEmail && user.role !== 'admin') {
          const [promoted] = await tx.update(users).set({ role: 'admin', updatedAt: new Date() }).where(eq(users.id, user.id)).returning()
          if (promoted) user = promoted
        }
        return { kind: 'existing' as const, user }
      }

      const [sameEmail] = await tx
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(sql`lower(${users.email}) = ${profile.email.toLowerCase()}`)
        .limit(1)
      if (sameEmail) {
        const linked = await tx.select({ provider: identities.provider }).from(identities).where(eq(identities.userId, sameEmail.id))
        const existingProvider = linked[0]?.provider ?? provider
        return { kind: 'conflict' as const, userId: sameEmail.id, existingProvider }
      }

      const [user] = await tx
        .insert(users)
        .values({ displayName: profile.displayName, email: profile.email, role: isAdminEmail ? 'admin' : 'user' })
        .returning()
      await tx
        .insert(identities)
        .values({ userId: user!.id, provider, providerSubject: profile.subject, email: profile.email, emailVerified: profile.emailVerified })
      return { kind: 'created' as const, user: user! }
    })
    // Two first sign-ins racing for one email: the unique index on lower(email) stops the second
    // insert; running again then sees the winner's row.
    const outcome = await attempt().catch((error: unknown) => {
      if (isUniqueViolation(error)) return attempt()
      throw error
    })
    // A promotion changes the role the user's other sessions report (session cache, decision 021).
    if (outcome.kind === 'existing' && isAdminEmail) await sessionsChanged(db, { userId: outcome.user.id })

    if (outcome.kind === 'conflict') {
      throw new OAuthFlowError(
        'account_linking_required',
        accountLinkingMessage(profile.email, PROVIDER_LABELS[outcome.existingProvider]),
        { email: profile.email, existingProvider: outcome.existingProvider },
        'email already belongs to an account with another identity',
      )
    }
    if (outcome.kind === 'created') {
      await recordAuditEvent(db, {
        eventType: 'USER_CREATED',
        eventCategory: 'USER_MANAGEMENT',
        severity: 'INFO',
        userId: outcome.user.id,
        action: 'create_user',
        success: true,
        ipAddress: ctx.ipAddress,
        userAgent: ctx.userAgent,
        resourceType: 'user',
        resourceId: String(outcome.user.id),
        authenticationMethod: `oauth:${provider}`,
        metadata: { provider, role: outcome.user.role, emailVerified: profile.emailVerified },
      })
    }
    return outcome.user
  }

  async function issueTempToken(userId: number, provider: AuthProvider, now: Date) {
    const token = randomToken()
    await db.insert(tempTokens).values({
      hash: sha256(token),
      userId,
      provider,
      createdAt: now,
      expiresAt: new Date(now.getTime() + TEMP_TOKEN_TTL_MS),
    })
    return token
  }

  interface CallbackInput {
    provider: AuthProvider
    code?: string
    state?: string
    error?: string
    binding: string | undefined
  }

  /**
   * The provider redirect (SPEC 4 "OAuth login"). Returns the one-time temp token for the popup to
   * post to its opener; every failure is audited as LOGIN_FAILURE and rethrown as OAuthFlowError.
   */
  async function completeCallback(input: CallbackInput, ctx: RequestContext): Promise<string> {
    const { provider } = input
    const now = new Date()
    try {
      if (input.error) {
        // Burn the state so it cannot be replayed with a code later.
        if (input.state) await db.delete(oauthStates).where(eq(oauthStates.state, input.state))
        throw input.error === 'access_denied'
          ? OAuthFlowError.of('access_denied', provider, 'user denied consent')
          : OAuthFlowError.of('invalid_request', provider, `provider error: ${input.error.slice(0, 64)}`)
      }
      if (!input.state) throw OAuthFlowError.of('invalid_state', provider, 'missing state')
      if (!input.code) throw OAuthFlowError.of('invalid_request', provider, 'missing code')
      const stored = await consumeState(provider, input.state, input.binding, now)
      const profile = await providers[provider].completeSignIn(input.code, stored.codeVerifier, stored.nonce)
      const user = await findOrCreateUser(provider, profile, ctx)
      return await issueTempToken(user.id, provider, now)
    } catch (error) {
      const flowError = error instanceof OAuthFlowError ? error : null
      await auditLoginFailure(ctx, provider, flowError?.code ?? 'server_error', flowError?.reason ?? 'unexpected error')
      if (flowError) throw flowError
      throw error
    }
  }

  /**
   * POST establish_session (SPEC 7). The temp token is consumed atomically (single use), then a
   * server-side session is created, replacing the session the browser already had (if any), so a
   * second sign-in in the same browser does not leave the first one valid. Returns the session
   * cookie token and the user.
   */
  async function establishSession(
    tempToken: string,
    ctx: RequestContext,
    replacesSessionId: string | null = null,
  ): Promise<{ token: string; sessionId: string; user: SessionUser }> {
    const now = new Date()
    const [consumed] = await db
      .update(tempTokens)
      .set({ usedAt: now })
      .where(and(eq(tempTokens.hash, sha256(tempToken)), isNull(tempTokens.usedAt), gt(tempTokens.expiresAt, now)))
      .returning({ userId: tempTokens.userId, provider: tempTokens.provider })
    if (!consumed) {
      await auditLoginFailure(ctx, null, 'invalid_temp_token', 'temp token unknown, used or expired')
      throw new InvalidTempTokenError()
    }
    const [user] = await db.select().from(users).where(eq(users.id, consumed.userId)).limit(1)
    if (!user) {
      await auditLoginFailure(ctx, null, 'invalid_temp_token', 'user no longer exists')
      throw new InvalidTempTokenError()
    }
    const session = await createSession(db, { userId: user.id, ipAddress: ctx.ipAddress, userAgent: ctx.userAgent, now })
    if (replacesSessionId) await deleteSession(db, replacesSessionId)
    await recordAuditEvent(db, {
      eventType: 'LOGIN_SUCCESS',
      eventCategory: 'AUTHENTICATION',
      severity: 'INFO',
      userId: user.id,
      action: 'establish_session',
      success: true,
      ipAddress: ctx.ipAddress,
      userAgent: ctx.userAgent,
      sessionId: session.id,
      resourceType: 'session',
      resourceId: session.id,
      authenticationMethod: `oauth:${consumed.provider}`,
    })
    return { token: session.token, sessionId: session.id, user: toSessionUser(user) }
  }

  async function logout(sessionId: string | null) {
    if (sessionId) await deleteSession(db, sessionId)
  }

  return { startAuthorization, completeCallback, establishSession, logout }
}

export type AuthService = ReturnType<typeof createAuthService>
