import { useMutation, useQueryClient } from '@tanstack/react-query'
import { gmailDisconnectContract } from '#shared/api/mailboxes.ts'
import { callApi } from '#client/lib/api-client.ts'
import { announceDisconnected, announceDisconnectFailed } from '../lib/disconnect-feedback.ts'
import { MAILBOX_MESSAGES } from '../messages.ts'
import { gmailStatusQueryOptions } from './get-gmail-status.ts'
import { outlookStatusQueryOptions } from './get-outlook-status.ts'

/** POST /_api/gmail/disconnect {confirmDisconnection: true} (secure; SPEC 5, SPEC 7 "Mailboxes"). */
export const disconnectGmail = () =>
  callApi(gmailDisconnectContract, { body: { confirmDisconnection: true } }, { fallbackError: MAILBOX_MESSAGES.disconnectFailed('gmail') })

/**
 * Retried once (SPEC 7 "Retry behaviour": mutations retry once). Both status checks are refreshed
 * afterwards: clearing one provider's tokens changes what the other card may do.
 */
export function useDisconnectGmail() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: disconnectGmail,
    retry: 1,
    onSuccess: (result) => announceDisconnected('gmail', result),
    onError: (error) => announceDisconnectFailed('gmail', error),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: gmailStatusQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: outlookStatusQueryOptions().queryKey }),
      ]),
  })
}
