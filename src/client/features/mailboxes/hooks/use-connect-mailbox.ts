import { useCallback, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { mailboxAuthorizePath, MailboxPopupMessageSchema, type MailboxPopupMessage, type MailboxProvider } from '#shared/api/mailboxes.ts'
import { POPUP_BLOCKED_MESSAGE, useOAuthPopupWindow } from '#client/lib/oauth-popup.ts'
import { gmailStatusQueryOptions } from '../api/get-gmail-status.ts'
import { outlookStatusQueryOptions } from '../api/get-outlook-status.ts'
import { MAILBOX_MESSAGES, PROVIDER_LABEL } from '../messages.ts'

export const MAILBOX_WINDOW_NAME = 'inbox-guard-mailbox'

/**
 * Connect (or reconnect) a mailbox in the 500x600 popup (SPEC 4 "OAuth login (login page and
 * mailbox connect)", SPEC 7 "Mailboxes"). One popup at a time. A success refreshes both status
 * checks; an error shows the popup's message, else 'Failed to connect to Gmail. Please try again.'
 */
export function useConnectMailbox() {
  const queryClient = useQueryClient()
  const { open, busy } = useOAuthPopupWindow({ schema: MailboxPopupMessageSchema, windowName: MAILBOX_WINDOW_NAME })
  const [provider, setProvider] = useState<MailboxProvider | null>(null)
  const [errors, setErrors] = useState<Partial<Record<MailboxProvider, string>>>({})

  const connect = useCallback(
    (target: MailboxProvider) => {
      setErrors({})
      setProvider(target)
      open(`${mailboxAuthorizePath(target)}?mode=popup`, {
        label: `${PROVIDER_LABEL[target]} connect`,
        onMessage: async (message: MailboxPopupMessage) => {
          if (message.type === 'OAUTH_ERROR') {
            setErrors({ [target]: message.error.message || MAILBOX_MESSAGES.connectFallback(target) })
            return
          }
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: gmailStatusQueryOptions().queryKey }),
            queryClient.invalidateQueries({ queryKey: outlookStatusQueryOptions().queryKey }),
          ])
        },
        onBlocked: () => setErrors({ [target]: POPUP_BLOCKED_MESSAGE }),
      })
    },
    [open, queryClient],
  )

  /** Which provider's popup is open, if any. */
  const connecting = busy ? provider : null
  return { connect, connecting, errors }
}
