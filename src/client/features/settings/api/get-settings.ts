import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query'
import { getSettingsContract, type SettingsResponse } from '#shared/api/settings.ts'
import { callApi } from '#client/lib/api-client.ts'

/** GET /_api/settings: the filter settings and today's performance metrics (SPEC 3, SPEC 7 "Settings and polling"). */
export const getSettings = (): Promise<SettingsResponse> => callApi(getSettingsContract)

/** The key of every settings save (update-settings.ts), so a read can tell whether one is running. */
export const settingsMutationKey = ['settings', 'update'] as const

// Saves started per query client (per page load in the app, per test in tests).
const writes = new WeakMap<QueryClient, number>()

/** Called as a save starts: a read already in flight may have been answered before it. */
export function noteSettingsWrite(client: QueryClient) {
  writes.set(client, (writes.get(client) ?? 0) + 1)
}

/**
 * Default cache and retry rules (SPEC 9, SPEC 7 "Retry behaviour"). A read that overlapped a save
 * (one running now, or started while the read was in flight) may hold the values from before it:
 * the cache keeps what it shows (the change, then the save's own answer) instead of flicking back.
 */
export const settingsQueryOptions = () =>
  queryOptions({
    queryKey: ['settings'] as const,
    queryFn: async ({ client, queryKey }) => {
      const writesBefore = writes.get(client) ?? 0
      const fresh = await getSettings()
      const overlapped = (writes.get(client) ?? 0) !== writesBefore || client.isMutating({ mutationKey: settingsMutationKey }) > 0
      return (overlapped ? client.getQueryData<SettingsResponse>(queryKey) : undefined) ?? fresh
    },
  })

export const useSettings = () => useQuery(settingsQueryOptions())
