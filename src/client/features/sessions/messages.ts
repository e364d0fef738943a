import { RELATIVE_TIME_TEXT } from '#client/lib/relative-time.ts'

/** Active Sessions texts (SPEC 8 "Sessions and account"; SPEC 4 "Session revocation"). */
export const SESSION_MESSAGES = {
  listLabel: 'Active sessions',
  loading: 'Loading sessions',
  loadError: (message: string) => `Could not load sessions. ${message}`,
  retry: 'Try again',
  empty: 'No active sessions found.',
  thisDevice: 'This device',
  deviceLabel: { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet' },
  browserOnOs: (browser: string, os: string) => `${browser} on ${os}`,
  unknownIp: 'Unknown IP',
  /** "Signed in 3 days ago"; a sign-in in the last 5 s is "just now" rather than "Active now". */
  signedIn: (when: string) => (when === RELATIVE_TIME_TEXT.activeNow ? 'Signed in just now' : `Signed in ${when}`),
  /** "Last active 3 minutes ago", or just "Active now". */
  lastActive: (when: string) => (when === RELATIVE_TIME_TEXT.activeNow ? RELATIVE_TIME_TEXT.activeNow : `Last active ${when}`),
  revoke: 'Revoke',
  revokeLabel: (device: string) => `Revoke ${device}`,
  revokeTitle: 'Revoke this session?',
  revokeDescription: (device: string, location: string) => `${device} (${location}) will be signed out the next time it contacts Inbox Guard.`,
  revokeConfirm: 'Revoke session',
  revoked: 'Session revoked successfully.',
  revokeFailed: 'Failed to revoke session.',
  revokeAll: 'Log out other devices',
  revokeAllTitle: 'Log out other devices?',
  revokeAllDescription: 'Every other browser signed in to your account will be signed out. This device stays signed in.',
  revokeAllConfirm: 'Log out other devices',
  revokedAll: (count: number) => `${count} other session(s) have been logged out.`,
  revokeAllFailed: 'Failed to log out other devices.',
  cancel: 'Cancel',
} as const
