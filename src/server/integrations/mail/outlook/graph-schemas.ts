import { z } from 'zod'

/**
 * The parts of Microsoft Graph responses the Outlook adapter reads (providers.md B2, B3), validated
 * with zod so an unexpected answer fails loudly at the edge instead of deep in the pipeline. Unknown
 * fields are dropped.
 */

export const GraphErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string().optional(),
    innerError: z.object({ code: z.string().optional() }).optional(),
  }),
})

export const MeSchema = z.object({
  id: z.string().optional(),
  mail: z.string().nullish(),
  userPrincipalName: z.string().nullish(),
})

export const MailFolderSchema = z.object({
  id: z.string().min(1),
  displayName: z.string(),
  parentFolderId: z.string().nullish(),
})
export type MailFolder = z.infer<typeof MailFolderSchema>

export const MailFolderListSchema = z.object({
  value: z.array(MailFolderSchema),
  '@odata.nextLink': z.string().optional(),
})

/** A delta item: a message (created or updated) or a removal marker. */
export const DeltaItemSchema = z.object({
  id: z.string().min(1),
  receivedDateTime: z.string().optional(),
  '@removed': z.object({ reason: z.string().optional() }).optional(),
})

export const DeltaPageSchema = z.object({
  value: z.array(DeltaItemSchema),
  '@odata.nextLink': z.string().optional(),
  '@odata.deltaLink': z.string().optional(),
})
export type DeltaPage = z.infer<typeof DeltaPageSchema>

export const MessageRefSchema = z.object({
  id: z.string().min(1),
  receivedDateTime: z.string(),
  conversationId: z.string().nullish(),
})

export const MessageFolderSchema = z.object({ id: z.string().min(1), parentFolderId: z.string().min(1) })

export const MessageRefListSchema = z.object({
  value: z.array(MessageRefSchema),
  '@odata.nextLink': z.string().optional(),
})

const RecipientSchema = z.object({ emailAddress: z.object({ address: z.string().nullish() }).nullish() })

export const SentMessageListSchema = z.object({
  value: z.array(
    z.object({
      id: z.string(),
      toRecipients: z.array(RecipientSchema).nullish(),
      ccRecipients: z.array(RecipientSchema).nullish(),
    }),
  ),
})

export const MovedMessageSchema = z.object({ id: z.string().min(1) })

export const SubscriptionSchema = z.object({
  id: z.string().min(1),
  expirationDateTime: z.string(),
})
