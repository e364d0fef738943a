import type { AuthProvider, OAuthErrorCode } from '#shared/api/auth.ts'

export const PROVIDER_LABELS: Record<AuthProvider, string> = { google: 'Google', microsoft: 'Microsoft' }

/** User-facing texts for OAUTH_ERROR popup messages (SPEC 4, 8: the client shows `message`). */
const MESSAGES: Record<Exclude<OAuthErrorCode, 'account_linking_required'>, (provider: string) => string> = {
  access_denied: (p) => `Sign-in with ${p} was cancelled. Please try again and allow access to continue.`,
  invalid_state: () => 'Your sign-in attempt expired or was started in another window. Please try again.',
  invalid_request: (p) => `The response from ${p} was incomplete. Please try again.`,
  token_exchange_failed: (p) => `We could not complete sign-in with ${p}. Please try again.`,
  invalid_id_token: (p) => `We could not verify your ${p} identity. Please try again.`,
  email_missing: (p) => `Your ${p} account did not provide a verified email address, which is required to sign in.`,
  server_error: () => 'Authentication failed. Please try again.',
  rate_limited: () => 'Too many sign-in attempts. Please wait a minute and try again.',
}

/** A sign-in failure reported to the popup opener as { code, message, details }. */
export class OAuthFlowError extends Error {
  override name = 'OAuthFlowError'
  constructor(
    readonly code: OAuthErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Internal reason for the log and audit metadata; never shown to the user. */
    readonly reason?: string,
  ) {
    super(message)
  }

  static of(code: Exclude<OAuthErrorCode, 'account_linking_required'>, provider: AuthProvider, reason?: string) {
    return new OAuthFlowError(code, MESSAGES[code](PROVIDER_LABELS[provider]), undefined, reason)
  }
}

/** Thrown by establish_session for a missing/used/expired temp token (401). */
export class InvalidTempTokenError extends Error {
  override name = 'InvalidTempTokenError'
  constructor() {
    super('Invalid or expired temporary token')
  }
}
