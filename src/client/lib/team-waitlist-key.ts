/**
 * The admin teamWaitlist cache (SPEC 7 "Team waitlist"): the admin panel reads it, joining the
 * waitlist invalidates it. Two features share it, so it lives here rather than in either.
 */
export const TEAM_WAITLIST_QUERY_KEY = ['admin', 'teamWaitlist'] as const
