import { queryOptions, useQuery } from '@tanstack/react-query'
import { getSettingsContract, type SettingsResponse } from '#shared/api/settings.ts'
import { callApi } from '#client/lib/api-client.ts'

/** GET /_api/settings: the filter settings and today's performance metrics (SPEC 3, SPEC 7 "Settings and polling"). */
export const getSettings = (): Promise<SettingsResponse> => callApi(getSettingsContract)

/** Default cache and retry rules (SPEC 9, SPEC 7 "Retry behaviour"). */
export const settingsQueryOptions = () =>
  queryOptions({
    queryKey: ['settings'] as const,
    queryFn: getSettings,
  })

export const useSettings = () => useQuery(settingsQueryOptions())
