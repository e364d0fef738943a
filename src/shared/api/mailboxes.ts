import { z } from 'zod'
import { defineContract, errorResponses } from './contract.ts'

/** The two mailbox providers (SPEC 1: one mailbox, Gmail or Outlook). */
export const MailboxProviderSchema = z.enum(['gmail', 'outlook'])
export type MailboxProvider = z.infer<typeof MailboxProviderSchema>

/** SPEC 4 "Mailbox connection": the status values each card understands; anything else shows as an error. */
export const GMAIL_STATUSES = ['connected', 'disconnected', 'action_required', 'revoked', 'error'] as const
export const OUTLOOK_STATUSES = ['connected', 'disconnected', 'action_required', 'error'] as const

/** SPEC 3 "Gmail connection status". */
export const GmailStatusSchema = z.object({
  status: z.enum(GMAIL_STATUSES),
  message: z.string(),
  gmailEmail: z.string().nullable(),
  details: z.string().nullable(),
  /** Set with action_required: where the browser goes to grant the missing permission (SPEC 4 "Gmail re-authentication"). */
  authorizationUrl: z.string().nullable(),
})
export type GmailStatus = z.infer<typeof GmailStatusSchema>

/** SPEC 3 "Outlook connection status". */
export const OutlookStatusSchema = z.object({
  status: z.enum(OUTLOOK_STATUSES),
  message: z.string(),
  outlookEmail: z.string().nullable(),
  details: z.string().nullable(),
})
export type OutlookStatus = z.infer<typeof OutlookStatusSchema>

/** GET /_api/gmail/test (SPEC 7 "Mailboxes"): a live check of the connection. */
export const gmailStatusContract = defineContract({
  method: 'GET',
  path: '/_api/gmail/test',
  responses: { 200: GmailStatusSchema, ...errorResponses(401) },
})

/** GET /_api/outlook/test (SPEC 7 "Mailboxes"). */
export const outlookStatusContract = defineContract({
  method: 'GET',
  path: '/_api/outlook/test',
  responses: { 200: OutlookStatusSchema, ...errorResponses(401) },
})

/** SPEC 5 "Disconnect": confirmDisconnection must be true, with this message. */
export const DisconnectBodySchema = z.object({
  confirmDisconnection: z.literal(true, { error: 'confirmDisconnection must be explicitly set to true' }),
})

export const DisconnectResponseSchema = z.object({
  success: z.literal(true),
  backupId: z.string().optional(),
  warning: z.string().optional(),
})

const disconnectErrors = {
  ...errorResponses(401, 403),
  400: z.object({ error: z.string(), code: z.string().optional(), warning: z.string().optional() }),
  404: z.object({ error: z.string(), code: z.string().optional(), warning: z.string().optional() }),
}

/** POST /_api/gmail/disconnect {confirmDisconnection:true} (secure): stops push, revokes the grant, clears the tokens. */
export const gmailDisconnectContract = defineContract({
  method: 'POST',
  path: '/_api/gmail/disconnect',
  secure: true,
  body: DisconnectBodySchema,
  responses: { 200: DisconnectResponseSchema, ...disconnectErrors },
})

/** POST /_api/outlook/disconnect {confirmDisconnection:true} (secure). */
export const outlookDisconnectContract = defineContract({
  method: 'POST',
  path: '/_api/outlook/disconnect',
  secure: true,
  body: DisconnectBodySchema,
  responses: { 200: DisconnectResponseSchema, ...disconnectErrors },
})

/** The connect popups (SPEC 7: /_api/gmail/authorize and /_api/outlook/authorize, 500x600), not fetched. */
export const mailboxAuthorizePath = (provider: MailboxProvider) => `/_api/${provider}/authorize` as const
export const mailboxCallbackPath = (provider: MailboxProvider) => `/_api/${provider}/callback` as const

export const MailboxAuthorizeQuerySchema = z.object({
  /** popup (the card's Connect button) or redirect (Gmail re-authentication, SPEC 4). */
  mode: z.enum(['popup', 'redirect']).default('popup'),
})

/** What the connect popup posts to its opener (SPEC 3 "OAuth popup message", for mailboxes). */
export const MailboxPopupMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('OAUTH_TOKEN_SUCCESS'), provider: MailboxProviderSchema, email: z.string() }),
  z.object({
    type: z.literal('OAUTH_ERROR'),
    provider: MailboxProviderSchema,
    error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
  }),
])
export type MailboxPopupMessage = z.infer<typeof MailboxPopupMessageSchema>
