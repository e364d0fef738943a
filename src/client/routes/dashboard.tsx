import { Link } from 'react-router'
import { LogIn, LogOut } from 'lucide-react'
import { CardErrorFallback, ErrorBoundary } from '#client/components/error-boundary.tsx'
import { PageMeta } from '#client/components/page-meta.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { Spinner } from '#client/components/ui/spinner.tsx'
import { useLogout } from '#client/features/auth/api/logout.ts'
import { useAuth, type AuthState } from '#client/features/auth/hooks/use-auth.ts'
import { EmailIntegrationsCard } from '#client/features/mailboxes/components/email-integrations-card.tsx'
import { useUrlErrorToast } from '#client/features/mailboxes/hooks/use-url-error-toast.ts'
import { MAILBOX_MESSAGES } from '#client/features/mailboxes/messages.ts'

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
  // SPEC 8 "Dashboard URL errors": error, error_description and message in the URL.
  useUrlErrorToast()
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
          // Each card sits inside its own error boundary (STYLE.md 17); lists, filter settings,
          // billing, status and account are added here the same way.
          <section aria-label="Dashboard cards" data-testid="dashboard-grid" className="mt-8 grid gap-6 md:grid-cols-2">
            <ErrorBoundary
              fallback={(reset) => <CardErrorFallback title={MAILBOX_MESSAGES.cardTitle} onRetry={reset} className="md:col-span-2" />}
            >
              <EmailIntegrationsCard className="md:col-span-2" />
            </ErrorBoundary>
          </section>
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
