import { useMutation } from '@tanstack/react-query'
import { deleteAccountContract, type DeleteAccountBody } from '#shared/api/account.ts'
import { callApi } from '#client/lib/api-client.ts'
import { ACCOUNT_MESSAGES } from '../messages.ts'

/** POST /_api/account/delete {confirmationEmail, confirmationPhrase} → {message} (SPEC 7 "Sessions and account"). */
export async function deleteAccount(body: DeleteAccountBody): Promise<{ message: string }> {
  const data = await callApi(deleteAccountContract, { body }, { fallbackError: ACCOUNT_MESSAGES.deleteFailure })
  return { message: data?.message || ACCOUNT_MESSAGES.deleteSuccess }
}

/** No retry: the server's answer decides, and a repeat after success would only answer 401. */
export const useDeleteAccount = () => useMutation({ mutationFn: deleteAccount, retry: false })
