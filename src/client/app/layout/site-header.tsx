import { Link } from 'react-router'
import { HomeLogoLink } from '#client/components/logo.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { useAuth } from '#client/features/auth/hooks/use-auth.ts'
import { useCurrentPlan } from '#client/features/billing/api/get-subscription.ts'
import { MobileMenu } from './mobile-menu.tsx'
import { NavLinks } from './nav-links.tsx'

export function SiteHeader() {
  const auth = useAuth()
  const signedIn = auth.status === 'authenticated'
  const { planId } = useCurrentPlan({ signedIn })
  const showCrown = signedIn && planId === 'free'

  return (
    <header className="sticky top-0 z-40 border-b border-line/80 bg-surface/85 backdrop-blur supports-[backdrop-filter]:bg-surface/75">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <HomeLogoLink />

        <div className="hidden items-center gap-2 md:flex">
          <nav aria-label="Main">
            <NavLinks signedIn={signedIn} showCrown={showCrown} className="flex items-center gap-1" />
          </nav>
          {auth.status === 'loading' && <Skeleton className="ml-2 h-9 w-40" />}
          {auth.status === 'unauthenticated' && (
            <div className="ml-2 flex items-center gap-2 border-l border-line pl-4">
              <Link
                to="/login"
                className="rounded-lg px-3 py-2 text-sm font-medium text-ink-muted transition-colors hover:text-ink focus-visible:outline-2 focus-visible:outline-brand-500"
              >
                Log In
              </Link>
              <Button asChild size="sm">
                <Link to="/login">Sign Up</Link>
              </Button>
            </div>
          )}
        </div>

        <MobileMenu signedIn={signedIn} showCrown={showCrown} authPending={auth.status === 'loading'} />
      </div>
    </header>
  )
}
