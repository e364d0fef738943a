import { lazy, Suspense } from 'react'
import { AlertCircle } from 'lucide-react'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { STATS_DAYS, useActivityStats } from '../api/get-activity-stats.ts'
import { ACTIVITY_MESSAGES } from '../messages.ts'

// Its own chunk (issue 13): the chart's code loads only when there is data to draw.
const StackedBarChart = lazy(() => import('./stacked-bar-chart.tsx'))

function ChartSkeleton() {
  return (
    <div role="status" aria-label={ACTIVITY_MESSAGES.chartLoading} className="flex flex-col gap-3">
      <Skeleton className="aspect-[3/1] w-full" />
      <Skeleton className="h-4 w-2/3" />
    </div>
  )
}

/** Messages per day per category over 30 days (GET /_api/activity/stats?days=30), as a stacked bar chart. */
export function ActivityChartCard({ className }: { className?: string }) {
  const stats = useActivityStats(STATS_DAYS)
  return (
    <Card role="region" aria-labelledby="activity-chart-title" className={className}>
      <CardHeader>
        <CardTitle id="activity-chart-title">{ACTIVITY_MESSAGES.chartTitle}</CardTitle>
        <CardDescription>{ACTIVITY_MESSAGES.chartDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        {stats.data ? (
          <Suspense fallback={<ChartSkeleton />}>
            <StackedBarChart days={stats.data.days} />
          </Suspense>
        ) : stats.error ? (
          <div className="flex flex-col items-start gap-3">
            <p role="alert" className="flex items-start gap-2 rounded-lg border border-danger-200 bg-danger-50 p-3 text-sm text-danger-700">
              <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
              <span>{ACTIVITY_MESSAGES.chartLoadFailed(stats.error.message)}</span>
            </p>
            <Button variant="outline" size="sm" loading={stats.isFetching} onClick={() => void stats.refetch()}>
              {ACTIVITY_MESSAGES.retry}
            </Button>
          </div>
        ) : (
          <ChartSkeleton />
        )}
      </CardContent>
    </Card>
  )
}
