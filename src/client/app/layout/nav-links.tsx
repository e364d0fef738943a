import { NavLink } from 'react-router'
import { Crown } from 'lucide-react'
import { cn } from '#client/lib/cn.ts'

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500',
    isActive ? 'text-brand-700 bg-brand-50' : 'text-ink-muted hover:text-ink hover:bg-canvas',
  )

/**
 * The header's links. The crown marks Pricing for signed-in users on the free plan (SPEC 2
 * "Shared layout"), nudging towards the upgrade without a banner.
 */
export function NavLinks({
  signedIn,
  showCrown,
  className,
  itemClassName,
}: {
  signedIn: boolean
  showCrown: boolean
  className?: string
  itemClassName?: string
}) {
  return (
    <ul className={className}>
      <li>
        <NavLink to="/pricing" className={(state) => cn(linkClass(state), itemClassName)}>
          Pricing
          {showCrown && (
            <>
              <Crown aria-hidden data-testid="free-plan-crown" className="size-4 text-amber-500" />
              <span className="sr-only"> (upgrade available)</span>
            </>
          )}
        </NavLink>
      </li>
      {signedIn && (
        <li>
          <NavLink to="/dashboard" className={(state) => cn(linkClass(state), itemClassName)}>
            Dashboard
          </NavLink>
        </li>
      )}
    </ul>
  )
}
