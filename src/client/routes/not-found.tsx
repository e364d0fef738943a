import { Link } from 'react-router'
import { Compass } from 'lucide-react'
import { PageMeta } from '#client/components/page-meta.tsx'
import { Button } from '#client/components/ui/button.tsx'

export function NotFoundPage() {
  return (
    <>
      <PageMeta title="Page not found" description="The page you were looking for does not exist." robots="noindex" />
      <div className="mx-auto flex max-w-lg flex-col items-center gap-5 px-4 py-24 text-center sm:py-32">
        <span className="flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <Compass aria-hidden className="size-7" />
        </span>
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">404</p>
        <h1 className="text-3xl font-bold tracking-tight text-ink">Page not found</h1>
        <p className="text-ink-muted">The page you were looking for does not exist or has moved.</p>
        <Button asChild size="lg">
          <Link to="/">Go back home</Link>
        </Button>
      </div>
    </>
  )
}
