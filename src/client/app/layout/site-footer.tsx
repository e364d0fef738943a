import { useSyncExternalStore } from 'react'
import { Link } from 'react-router'
import { Logo } from '#client/components/logo.tsx'
import { PRODUCT_NAME, SUPPORT_EMAIL } from '#shared/product.ts'

const footerLink =
  'rounded text-ink-muted transition-colors hover:text-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500'

// The year the client was built in: what the prerendered pages show (vite.config.ts defines it).
const BUILD_YEAR = Number(import.meta.env.VITE_BUILD_YEAR) || new Date().getFullYear()
const subscribeNever = () => () => {}

/**
 * The copyright year. Hydration starts from the year the prerendered page shows and then moves to
 * the visitor's year, so a page built last December hydrates without a mismatch (decision 020).
 */
function useCopyrightYear() {
  return useSyncExternalStore(
    subscribeNever,
    () => new Date().getFullYear(),
    () => BUILD_YEAR,
  )
}

export function SiteFooter() {
  const year = useCopyrightYear()
  return (
    <footer className="border-t border-line bg-surface">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-center md:justify-between">
        <div className="flex flex-col gap-2">
          <Logo className="[&_span]:text-base" />
          <p className="text-sm text-ink-muted">
            © {year} {PRODUCT_NAME}. Your mail stays yours: we never delete it.
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-3 text-sm">
            <li>
              <a className={footerLink} href={`mailto:${SUPPORT_EMAIL}`}>
                Support
              </a>
            </li>
            <li>
              <Link className={footerLink} to="/pricing">
                Pricing
              </Link>
            </li>
            <li>
              <Link className={footerLink} to="/privacy">
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link className={footerLink} to="/terms">
                Terms of Service
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  )
}
