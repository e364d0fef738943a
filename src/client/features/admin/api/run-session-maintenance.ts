import { useMutation } from '@tanstack/react-query'
import { sessionMaintenanceContract } from '#shared/api/admin.ts'
import type { ContractBody } from '#shared/api/contract.ts'
import { callApi } from '#client/lib/api-client.ts'

export type SessionMaintenanceAction = ContractBody<typeof sessionMaintenanceContract>['action']

/**
 * POST /_api/admin/sessions/cleanup {action: backfill | cleanup | both} → {success, message,
 * backfilled?, deleted?} (SPEC 5, SPEC 7 "Admin"). A `success: false` is a failure carrying the
 * server's message.
 */
export async function runSessionMaintenance(action: SessionMaintenanceAction) {
  const data = await callApi(sessionMaintenanceContract, { body: { action } })
  if (!data.success) throw new Error(data.message)
  return data
}

export const useRunSessionMaintenance = () => useMutation({ mutationFn: runSessionMaintenance })
