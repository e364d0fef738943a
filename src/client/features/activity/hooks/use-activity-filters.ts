import { useCallback } from 'react'
import { useSearchParams } from 'react-router'
import type { MailCategoryName } from '#shared/api/activity.ts'
import type { ActivityFilters } from '../api/get-activity.ts'
import { CATEGORY_ORDER } from '../lib/categories.ts'

/** The URL parameters that hold the Filtered Mail filters (STYLE.md 16: filters live in the URL). */
export const ACTIVITY_PARAMS = { category: 'mailCategory', filed: 'mailFiled', page: 'mailPage' } as const

const isCategory = (value: string | null): value is MailCategoryName => (CATEGORY_ORDER as readonly (string | null)[]).includes(value)

/**
 * Reads and writes the Filtered Mail filters in the URL, so a reload or a shared link keeps them.
 * Changing a filter goes back to page 1. Other parameters (the dashboard's error parameters) are kept.
 */
export function useActivityFilters() {
  const [searchParams, setSearchParams] = useSearchParams()
  const category = searchParams.get(ACTIVITY_PARAMS.category)
  const page = Number(searchParams.get(ACTIVITY_PARAMS.page))
  const filters: ActivityFilters = {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    category: isCategory(category) ? category : null,
    filedOnly: searchParams.get(ACTIVITY_PARAMS.filed) === 'true',
  }

  const update = useCallback(
    (change: Partial<ActivityFilters>) =>
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current)
          const set = (name: string, value: string | null) => (value === null ? next.delete(name) : next.set(name, value))
          if ('category' in change) set(ACTIVITY_PARAMS.category, change.category ?? null)
          if ('filedOnly' in change) set(ACTIVITY_PARAMS.filed, change.filedOnly ? 'true' : null)
          const nextPage = 'page' in change ? (change.page ?? 1) : 1
          set(ACTIVITY_PARAMS.page, nextPage > 1 ? String(nextPage) : null)
          return next
        },
        { replace: true },
      ),
    [setSearchParams],
  )

  return { filters, update }
}
