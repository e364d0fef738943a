import { WEBHOOK_HEALTH, type WebhookHealth } from '#shared/api/health.ts'
import { formatTimeOffset, parseTime, RELATIVE_TIME_TEXT } from '#client/lib/relative-time.ts'
import { HEALTH_MESSAGES } from '../messages.ts'

export type WebhookAction = 'setup' | 'repair'

/** SPEC 4 "Webhook health": inactive offers Setup; the others offer Repair. */
export const webhookAction = (health: string): WebhookAction => (health === 'inactive' ? 'setup' : 'repair')

export const isKnownHealth = (health: string): health is WebhookHealth => (WEBHOOK_HEALTH as readonly string[]).includes(health)

/** "Expires in 2 days", "Expired 3 hours ago"; nothing when the server gave no expiration. */
export function describeExpiration(expiration: string | null, now: number): string | null {
  const time = parseTime(expiration)
  if (time === 'empty') return null
  if (time === 'invalid') return RELATIVE_TIME_TEXT.invalidDate
  const offset = time - now
  return offset > 0 ? HEALTH_MESSAGES.expiresIn(formatTimeOffset(offset)) : HEALTH_MESSAGES.expiredAgo(formatTimeOffset(offset))
}
