import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { updateSettingsContract, type SettingsResponse, type SettingsUpdate } from '#shared/api/settings.ts'
import { callApi } from '#client/lib/api-client.ts'
import { SETTINGS_MESSAGES } from '../messages.ts'
import { noteSettingsWrite, settingsMutationKey, settingsQueryOptions } from './get-settings.ts'

/** What the person can change: genuine is always kept and unwanted always filtered (SPEC 3). */
export type SettingsChange = Omit<SettingsUpdate, 'allowGenuine' | 'allowUnwanted'>

/** POST /_api/settings with only the changed fields; answers the whole updated settings (SPEC 7). */
export const updateSettings = (change: SettingsChange): Promise<SettingsResponse> => callApi(updateSettingsContract, { body: change })

type Snapshot = { previous: SettingsResponse | undefined }

/**
 * Saves a change optimistically: the cache shows it at once and rolls back if the save fails
 * (after the one retry SPEC 7 gives mutations), with a toast saying why. Only the fields this
 * change set, and only while they still hold its values, are rolled back, so a second change made
 * meanwhile is not undone. The server's answer replaces the cache once no other save is running.
 */
export function useUpdateSettings() {
  const queryClient = useQueryClient()
  const { queryKey } = settingsQueryOptions()
  return useMutation<SettingsResponse, Error, SettingsChange, Snapshot>({
    mutationKey: settingsMutationKey,
    mutationFn: updateSettings,
    onMutate: (change) => {
      noteSettingsWrite(queryClient)
      // The control follows the click at once: a settings fetch in flight is dropped (not reverted),
      // so it cannot overwrite the change, and the change is in the cache before the next render.
      void queryClient.cancelQueries({ queryKey }, { revert: false })
      const previous = queryClient.getQueryData(queryKey)
      queryClient.setQueryData(queryKey, (current) => (current ? { ...current, ...change } : current))
      return { previous }
    },
    onError: (error, change, snapshot) => {
      const previous = snapshot?.previous
      if (previous) {
        queryClient.setQueryData(queryKey, (current) => {
          if (!current) return previous
          const restored: SettingsResponse = { ...current }
          for (const field of Object.keys(change) as (keyof SettingsChange)[]) {
            if (current[field] === change[field]) Object.assign(restored, { [field]: previous[field] })
          }
          return restored
        })
      }
      toast.error(SETTINGS_MESSAGES.saveFailed(error.message))
    },
    onSuccess: (settings) => {
      // This save still counts as running here; another one running means its value must stay.
      if (queryClient.isMutating({ mutationKey: settingsMutationKey }) <= 1) queryClient.setQueryData(queryKey, settings)
    },
  })
}
