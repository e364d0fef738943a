/** User-facing texts from SPEC section 8, word for word. */
export const SIGN_IN_MESSAGES = {
  popupBlocked:
    'Failed to open authentication window. Please check if popup blockers are disabled and try again.',
  establishFailed: 'Failed to complete authentication. Please try again.',
  unexpected: 'An unexpected error occurred during authentication. Please try again.',
  oauthFallback: 'Authentication failed. Please try again.',
  sessionCheckFailed: 'Session check failed',
  tempTokenRequired: 'Temporary token is required',
  accountExistsTitle: 'Account Already Exists',
  accountExistsDismiss: 'Got it',
} as const

/** Server-side texts for sign-in errors carried in OAUTH_ERROR messages. */
export const accountLinkingMessage = (email: string, existingProvider: string) =>
  `An account with ${email} already exists. Sign in with ${existingProvider} to continue; one account per email address.`
