import { useMutation, useQueryClient } from '@tanstack/react-query'
import { outlookDisconnectContract } from '#shared/api/mailboxes.ts'
import { callApi } from '#client/lib/api-client.ts'
import { announceDisconnected, announceDisconnectFailed } from '../lib/disconnect-feedback.ts'
import { MAILBOX_MESSAGES } from '../messages.ts'
import { gmailStatusQueryOptions } from './get-gmail-status.ts'
import { outlookStatusQueryOptions } from './get-outlook-status.ts'

/** POST /_api/outlook/disconnect {confirmDisconnection: true} (secure; SPEC 5, SPEC 7 "Mailboxes"). */
export const disconnectOutlook = () =>
  callApi(outlookDisconnectContract, { body: { confirmDisconnection: true } }, { fallbackError: MAILBOX_MESSAGES.disconnectFailed('outlook') })

/**
 * Retried once (SPEC 7 "Retry behaviour": mutations retry once). Both status checks are refreshed
 * afterwards: clearing one provider's tokens changes what the other card may do.
 */
export function useDisconnectOutlook() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: disconnectOutlook,
    retry: 1,
    onSuccess: (result) => announceDisconnected('outlook', result),
    onError: (error) => announceDisconnectFailed('outlook', error),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: gmailStatusQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: outlookStatusQueryOptions().queryKey }),
      ]),
  })
}
