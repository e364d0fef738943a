import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Link, useNavigate } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { LogIn, LogOut } from 'lucide-react'
import { CardErrorFallback, ErrorBoundary } from '#client/components/error-boundary.tsx'
import type { SessionUser } from '#shared/api/auth.ts'
import { PageMeta } from '#client/components/page-meta.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { Spinner } from '#client/components/ui/spinner.tsx'
import { BillingUsageCard } from '#client/features/billing/components/billing-usage-card.tsx'
import { BillingPrompt, PlanDialog } from '#client/features/billing/components/plan-dialog.tsx'
import { useCheckoutReturn } from '#client/features/billing/hooks/use-checkout-return.ts'
import { BILLING_MESSAGES } from '#client/features/billing/messages.ts'
import { ActivityChartCard } from '#client/features/activity/components/activity-chart-card.tsx'
import { FilteredMailCard } from '#client/features/activity/components/filtered-mail-card.tsx'
import { useRefreshActivity } from '#client/features/activity/hooks/use-refresh-activity.ts'
import { ACTIVITY_MESSAGES } from '#client/features/activity/messages.ts'
import { sessionQueryOptions } from '#client/features/auth/api/get-session.ts'
import { useLogout } from '#client/features/auth/api/logout.ts'
import { AccountSettingsCard } from '#client/features/account/components/account-settings-card.tsx'
import { DangerZone } from '#client/features/account/components/danger-zone.tsx'
import { DataRetentionPolicy } from '#client/features/account/components/data-retention-policy.tsx'
import { ACCOUNT_MESSAGES } from '#client/features/account/messages.ts'
import { AdminPanel } from '#client/features/admin/components/admin-panel.tsx'
import { OnboardingDialog } from '#client/features/onboarding/components/onboarding-dialog.tsx'
import { ActiveSessions } from '#client/features/sessions/components/active-sessions.tsx'
import { useAuth, type AuthState } from '#client/features/auth/hooks/use-auth.ts'
import { DomainListCard } from '#client/features/domain-lists/components/domain-list-card.tsx'
import { DOMAIN_LIST_MESSAGES } from '#client/features/domain-lists/messages.ts'
import { SystemStatusCard } from '#client/features/health/components/system-status-card.tsx'
import { HEALTH_MESSAGES } from '#client/features/health/messages.ts'
import { useGmailStatus } from '#client/features/mailboxes/api/get-gmail-status.ts'
import { useOutlookStatus } from '#client/features/mailboxes/api/get-outlook-status.ts'
import { EmailIntegrationsCard } from '#client/features/mailboxes/components/email-integrations-card.tsx'
import { useUrlErrorToast } from '#client/features/mailboxes/hooks/use-url-error-toast.ts'
import { MAILBOX_MESSAGES } from '#client/features/mailboxes/messages.ts'
import { FilterSettingsCard } from '#client/features/settings/components/filter-settings-card.tsx'
import { FilteringStatusCard } from '#client/features/settings/components/filtering-status-card.tsx'
import { useMailPolling } from '#client/features/settings/hooks/use-mail-polling.ts'
import { SETTINGS_MESSAGES } from '#client/features/settings/messages.ts'
import { WaitlistDialog } from '#client/features/waitlist/components/waitlist-dialog.tsx'

const DASHBOARD_DESCRIPTION = 'Manage your email filtering preferences and view your stats.'

/** After deleting the account the user goes to /login this long after the toast (SPEC 9 "Timing"). */
export const POST_DELETION_REDIRECT_MS = 2_000

/**
 * What the page does after an account deletion (SPEC 4 "Account deletion"): logout (its failure
 * ignored), then /login after 2 s, replacing history.
 */
function useAfterDeletion() {
  const logout = useLogout()
  const navigate = useNavigate()
  const timer = useRef<number | undefined>(undefined)
  useEffect(() => () => window.clearTimeout(timer.current), [])
  return () => {
    logout.mutate(undefined, { onError: () => undefined })
    timer.current = window.setTimeout(() => void navigate('/login', { replace: true }), POST_DELETION_REDIRECT_MS)
  }
}

/** The welcome dialog for a user who has not completed onboarding; completing marks the cached user. */
function Onboarding({ user }: { user: SessionUser }) {
  const queryClient = useQueryClient()
  const markCompleted = () =>
    queryClient.setQueryData(sessionQueryOptions().queryKey, (current: SessionUser | null | undefined) => (current ? { ...current, hasCompletedOnboarding: true } : current))
  return <OnboardingDialog open={!user.hasCompletedOnboarding} onCompleted={markCompleted} />
}

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

/** One card in its own error boundary (STYLE.md 17): a card that fails to render leaves the others working. */
function CardBoundary({ title, wide, children }: { title: string; wide?: boolean; children: ReactNode }) {
  return (
    <ErrorBoundary fallback={(reset) => <CardErrorFallback title={title} onRetry={reset} className={wide ? 'md:col-span-2' : undefined} />}>
      {children}
    </ErrorBoundary>
  )
}

/**
 * The cards of a signed-in user. The features do not know each other (STYLE.md 1): this page reads
 * the mailbox status checks (shared with the Email Provider Integrations card through the query
 * cache) to tell the settings feature's polling whether a mailbox is connected, and hands it the
 * activity feature's refresh for when a poll queues new mail.
 */
function SignedInCards({ user, afterDeletion }: { user: SessionUser; afterDeletion: () => void }) {
  const gmail = useGmailStatus()
  const outlook = useOutlookStatus()
  const connected = gmail.data?.status === 'connected' || outlook.data?.status === 'connected'
  const refreshActivity = useRefreshActivity()
  useMailPolling({ connected, onMailQueued: refreshActivity })
  // The plan dialog (billing) opens once a mailbox is connected; its Team card opens the waitlist.
  const confirmingCheckout = useCheckoutReturn()
  const [waitlistOpen, setWaitlistOpen] = useState(false)
  // The admin's previews of the two dialogs (SPEC 2 Admin Controls): shown on request, closed by hand.
  const [previewOnboarding, setPreviewOnboarding] = useState(0)
  const [previewPlans, setPreviewPlans] = useState(false)

  return (
    <>
      <Onboarding user={user} />
      {/* A first visit welcomes before it asks for a plan. */}
      <BillingPrompt mailboxConnected={connected && user.hasCompletedOnboarding} suppressed={confirmingCheckout} onJoinWaitlist={() => setWaitlistOpen(true)} />
      {user.role === 'admin' && (
        <>
          {/* A fresh dialog per preview (keyed), since one that completed stays closed. */}
          <OnboardingDialog key={previewOnboarding} open={previewOnboarding > 0} onCompleted={() => setPreviewOnboarding(0)} />
          <PlanDialog open={previewPlans} reason="choose" currentPlanId={undefined} onJoinWaitlist={() => setWaitlistOpen(true)} onClosePreview={() => setPreviewPlans(false)} />
        </>
      )}
      <WaitlistDialog open={waitlistOpen} onOpenChange={setWaitlistOpen} defaultName={user.displayName} defaultEmail={user.email} />
      <section aria-label="Dashboard cards" data-testid="dashboard-grid" className="mt-8 grid gap-6 md:grid-cols-2">
        <CardBoundary title={MAILBOX_MESSAGES.cardTitle} wide>
          <EmailIntegrationsCard className="md:col-span-2" />
        </CardBoundary>
        <CardBoundary title={SETTINGS_MESSAGES.statusTitle}>
          <FilteringStatusCard />
        </CardBoundary>
        <CardBoundary title={SETTINGS_MESSAGES.filterSettingsTitle}>
          <FilterSettingsCard className="md:row-span-5" />
        </CardBoundary>
        {/* Beside the Filtering card in the left column: is filtering alive, and is push working. */}
        <CardBoundary title={HEALTH_MESSAGES.cardTitle}>
          <SystemStatusCard />
        </CardBoundary>
        <CardBoundary title={BILLING_MESSAGES.cardTitle}>
          <BillingUsageCard />
        </CardBoundary>
        <CardBoundary title={DOMAIN_LIST_MESSAGES.title.whitelist}>
          <DomainListCard kind="whitelist" />
        </CardBoundary>
        <CardBoundary title={DOMAIN_LIST_MESSAGES.title.blacklist}>
          <DomainListCard kind="blacklist" />
        </CardBoundary>
        <CardBoundary title={ACTIVITY_MESSAGES.cardTitle} wide>
          <FilteredMailCard className="md:col-span-2" />
        </CardBoundary>
        <CardBoundary title={ACTIVITY_MESSAGES.chartTitle} wide>
          <ActivityChartCard className="md:col-span-2" />
        </CardBoundary>
        <CardBoundary title={ACCOUNT_MESSAGES.cardTitle} wide>
          <AccountSettingsCard className="md:col-span-2">
            <section aria-labelledby="active-sessions-title" className="flex flex-col gap-3">
              <h3 id="active-sessions-title" className="text-base font-semibold text-ink">
                Active Sessions
              </h3>
              <ActiveSessions />
            </section>
            <DataRetentionPolicy />
            <DangerZone email={user.email} onDeleted={afterDeletion} />
          </AccountSettingsCard>
        </CardBoundary>
        {/* Admins only (SPEC 6); the server refuses every admin call to anyone else. */}
        {user.role === 'admin' && (
          <CardBoundary title="Admin Panel" wide>
            <AdminPanel className="md:col-span-2" onTestOnboarding={() => setPreviewOnboarding((n) => n + 1)} onTestBillingPrompt={() => setPreviewPlans(true)} />
          </CardBoundary>
        )}
      </section>
    </>
  )
}

export default function DashboardPage() {
  const auth = useAuth()
  // Here, not in the cards: logging out unmounts them, and the redirect must still happen.
  const afterDeletion = useAfterDeletion()
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
          // Billing and account settings are added to SignedInCards the same way.
          <SignedInCards user={auth.user} afterDeletion={afterDeletion} />
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
