import { Skeleton } from '#client/components/ui/skeleton.tsx'

/** Shown while a page's code loads. */
export function PageSkeleton() {
  return (
    <div role="status" aria-label="Loading page" className="mx-auto flex max-w-4xl flex-col gap-4 px-4 py-16 sm:px-6">
      <Skeleton className="h-9 w-2/3" />
      <Skeleton className="h-5 w-1/2" />
      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        <Skeleton className="h-40" />
        <Skeleton className="h-40" />
      </div>
    </div>
  )
}
