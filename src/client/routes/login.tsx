import { useState } from 'react'
import { Link, Navigate } from 'react-router'
import { ShieldCheck } from 'lucide-react'
import { PageMeta } from '#client/components/page-meta.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent } from '#client/components/ui/card.tsx'
import { SignInPanel } from '#client/features/auth/components/sign-in-panel.tsx'
import { useAuth } from '#client/features/auth/hooks/use-auth.ts'

/**
 * Whether the visitor arrived already signed in: decided once, when the session check first answers,
 * so a sign-in made on this page keeps its own 200 ms redirect (SPEC 2) instead of this one.
 */
function useArrivedSignedIn(status: ReturnType<typeof useAuth>['status']): boolean | null {
  const [arrived, setArrived] = useState<boolean | null>(null)
  if (arrived === null && status !== 'loading') {
    const signedIn = status === 'authenticated'
    setArrived(signedIn)
    return signedIn
  }
  return arrived
}

export default function LoginPage() {
  const auth = useAuth()
  // A signed-in user has nothing to do here (issue 17): the dashboard.
  if (useArrivedSignedIn(auth.status)) return <Navigate to="/dashboard" replace />
  return (
    <>
      <PageMeta
        title="Sign in"
        description="Sign in to Inbox Guard with your Google or Microsoft account and connect Gmail or Outlook to keep cold outreach out of your inbox."
      />
      <div className="flex justify-center bg-gradient-to-b from-brand-50 to-canvas px-4 py-16 sm:py-24">
        <Card className="w-full max-w-md">
          <CardContent className="flex flex-col gap-6 p-6 sm:p-8">
            <div className="flex flex-col items-center gap-3 text-center">
              <span className="flex size-12 items-center justify-center rounded-2xl bg-brand-600 text-white">
                <ShieldCheck aria-hidden className="size-6" />
              </span>
              <h1 className="text-2xl font-bold tracking-tight text-ink">Sign in to your account</h1>
              <p className="text-ink-muted">
                Connect your Gmail account to start filtering cold outreach. Outlook works too: use Microsoft.
              </p>
            </div>

            {auth.status === 'authenticated' && (
              <div className="flex flex-col items-center gap-3 rounded-xl bg-brand-50 p-4 text-center text-sm text-brand-800">
                <p>
                  You are signed in as <strong>{auth.user.email}</strong>.
                </p>
                <Button asChild size="sm">
                  <Link to="/dashboard">Go to Dashboard</Link>
                </Button>
              </div>
            )}

            <SignInPanel />

            <p className="text-center text-xs text-ink-subtle">
              By continuing you agree to our{' '}
              <Link to="/terms" className="underline underline-offset-2 hover:text-ink">
                Terms of Service
              </Link>{' '}
              and{' '}
              <Link to="/privacy" className="underline underline-offset-2 hover:text-ink">
                Privacy Policy
              </Link>
              . We never delete your mail.
            </p>
          </CardContent>
        </Card>
      </div>
    </>
  )
}
