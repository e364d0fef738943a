import { useMutation } from '@tanstack/react-query'
import { pollContract } from '#shared/api/settings.ts'
import { callApi } from '#client/lib/api-client.ts'

/** POST /_api/gmail/poll {} → {message, emailsQueued}: check the connected mailbox for new mail now (SPEC 7). */
export const pollMail = () => callApi(pollContract, { body: {} })

/**
 * Not retried: the polling schedule is the retry policy (SPEC 4 "Polling": the interval doubles
 * after each failure), and an immediate second try would only add load to a struggling server.
 */
export const usePollMail = () =>
  useMutation({
    mutationKey: ['settings', 'poll'] as const,
    mutationFn: pollMail,
    retry: false,
  })
