import { queryOptions, useQuery } from '@tanstack/react-query'
import { DEVICE_TYPES, sessionsContract, type ActiveSessionWire, type DeviceType } from '#shared/api/sessions.ts'
import { callApi } from '#client/lib/api-client.ts'

/** SPEC 3 "Active session" as the client holds it: dates as Date, the device type one of three. */
export type ActiveSession = Omit<ActiveSessionWire, 'deviceType' | 'createdAt' | 'lastAccessed'> & {
  deviceType: DeviceType
  createdAt: Date
  lastAccessed: Date
}

/** SPEC 3: anything but mobile or tablet is shown as desktop. */
const deviceTypeOf = (value: string): DeviceType => ((DEVICE_TYPES as readonly string[]).includes(value) ? (value as DeviceType) : 'desktop')

/** GET /_api/sessions; date fields are converted to dates (SPEC 7 "Sessions and account"). */
export async function getSessions(): Promise<ActiveSession[]> {
  const data = await callApi(sessionsContract)
  return (data?.sessions ?? []).map((session) => ({
    ...session,
    deviceType: deviceTypeOf(session.deviceType),
    createdAt: new Date(session.createdAt),
    lastAccessed: new Date(session.lastAccessed),
  }))
}

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: ['sessions'] as const,
    queryFn: getSessions,
  })

export const useSessions = () => useQuery(sessionsQueryOptions())
