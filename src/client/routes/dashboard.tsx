import { Link } from 'react-router'
import { LogIn, LogOut } from 'lucide-react'
import { PageMeta } from '#client/components/page-meta.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { Spinner } from '#client/components/ui/spinner.tsx'
import { useLogout } from '#client/features/auth/api/logout.ts'
import { useAuth, type AuthState } from '#client/features/auth/hooks/use-auth.ts'

const DASHBOARD_DESCRIPTION = 'Manage your email filtering preferences and view your stats.'

/** Stand-in for the cards while loading or signed out (SPEC 2 "/dashboard"). */
function DashboardSkeleton() {
  return (
    <div aria-hidden className="grid gap-6 md:grid-cols-2">
      {Array.from({ length: 4 }, (_, index) => (
        <div key={index} className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-6">
          <Skeleton className="h-5 w-1/3" />
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-20" />
        </div>
      ))}
    </div>
  )
}

function AccountControls({ auth }: { auth: AuthState }) {
  const logout = useLogout()
  if (auth.status === 'loading') return <Spinner label="Checking your session" />
  if (auth.status === 'unauthenticated') {
    return (
      <Button asChild>
        <Link to="/login">
          <LogIn aria-hidden className="size-4" /> Sign in
        </Link>
      </Button>
    )
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      <span className="max-w-full truncate text-sm text-ink-muted" title={auth.user.email}>
        {auth.user.email}
      </span>
      <Button variant="outline" loading={logout.isPending} onClick={() => logout.mutate()}>
        {!logout.isPending && <LogOut aria-hidden className="size-4" />}
        Sign Out
      </Button>
    </div>
  )
}

export default function DashboardPage() {
  const auth = useAuth()
  return (
    <>
      <PageMeta title="Dashboard" description={DASHBOARD_DESCRIPTION} robots="noindex, nofollow" />
      <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
        <header className="flex flex-col gap-4 border-b border-line pb-6 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h1 className="text-3xl font-bold tracking-tight text-ink">Dashboard</h1>
            <p className="mt-1 text-ink-muted">{DASHBOARD_DESCRIPTION}</p>
          </div>
          <AccountControls auth={auth} />
        </header>

        {auth.status === 'authenticated' ? (
          // The cards (mailboxes, lists, filter settings, billing, status, account) are added here,
          // each inside its own error boundary (STYLE.md 17).
          <section aria-label="Dashboard cards" data-testid="dashboard-grid" className="mt-8 grid gap-6 md:grid-cols-2" />
        ) : (
          <div className="mt-8" role="status" aria-label={auth.status === 'loading' ? 'Loading dashboard' : 'Sign in to see your dashboard'}>
            {auth.status === 'unauthenticated' && (
              <p className="mb-6 rounded-xl border border-line bg-surface p-4 text-sm text-ink-muted">
                Sign in to see your mailbox connection, filtering preferences and stats.
              </p>
            )}
            <DashboardSkeleton />
          </div>
        )}
      </div>
    </>
  )
}
