import { useCallback } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { activityRootKey } from '../api/get-activity.ts'

/** Refreshes the decision list and the chart, e.g. after a mail poll queued new messages (SPEC 4 "Polling"). */
export function useRefreshActivity() {
  const queryClient = useQueryClient()
  return useCallback(() => void queryClient.invalidateQueries({ queryKey: activityRootKey }), [queryClient])
}
