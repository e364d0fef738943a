/** Product-wide constants shown on the public site and in the legal pages (SPEC 1, 9). */
export const PRODUCT_NAME = 'Inbox Guard'
export const SUPPORT_EMAIL = 'support@inboxguard.app'
export const LEGAL_LAST_UPDATED = 'September 16, 2025'

/** Client routes (SPEC 2). The server answers 404 for any other non-API path. */
export const PUBLIC_ROUTES = ['/', '/login', '/terms', '/privacy', '/pricing', '/dashboard'] as const
export type PublicRoute = (typeof PUBLIC_ROUTES)[number]

export const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000
export const SESSION_HARD_LIMIT_MS = 90 * 24 * 60 * 60 * 1000
export const OAUTH_POPUP = { width: 500, height: 600, timeoutMs: 300_000, closedPollMs: 1_000 } as const
export const LOGIN_REDIRECT_DELAY_MS = 200
