/**
 * The root of every Admin Panel query key, so a single invalidation can refresh them all. Each
 * endpoint's key is still built by its own `xQueryOptions` factory (STYLE.md 15).
 */
export const adminRootKey = ['admin'] as const
