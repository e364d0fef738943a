import { useMutation } from '@tanstack/react-query'
import { triggerCleanupContract } from '#shared/api/admin.ts'
import { callApi } from '#client/lib/api-client.ts'
import { ADMIN_MESSAGES } from '../messages.ts'

/** POST /_api/admin/trigger-cleanup → {success, supportRecordsDeleted, queueEntriesDeleted} (SPEC 3 "Cleanup stats"). */
export async function triggerCleanup() {
  const data = await callApi(triggerCleanupContract, { body: {} })
  if (!data.success) throw new Error(ADMIN_MESSAGES.cleanupNotSuccessful)
  return { supportRecordsDeleted: data.supportRecordsDeleted, queueEntriesDeleted: data.queueEntriesDeleted }
}

export const useTriggerCleanup = () => useMutation({ mutationFn: triggerCleanup })
