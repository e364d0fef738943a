import { Link } from 'react-router'
import { cn } from '#client/lib/cn.ts'
import { PRODUCT_NAME } from '#shared/product.ts'

/** The shield-and-check mark plus the product name. */
export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight text-ink', className)}>
      <svg aria-hidden viewBox="0 0 32 32" className="size-8 shrink-0">
        <rect width="32" height="32" rx="8" className="fill-brand-600" />
        <path
          d="M16 6.5 8.5 9.3v6.1c0 4.6 3.2 8.8 7.5 10.1 4.3-1.3 7.5-5.5 7.5-10.1V9.3z"
          fill="none"
          stroke="#fff"
          strokeWidth="2"
          strokeLinejoin="round"
        />
        <path d="m12.6 15.9 2.4 2.4 4.5-4.6" fill="none" stroke="#fff" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="text-lg">{PRODUCT_NAME}</span>
    </span>
  )
}

/** The logo as the header's link home (SPEC 2 "Header with a logo linking to /"). */
export function HomeLogoLink() {
  return (
    <Link
      to="/"
      aria-label={`${PRODUCT_NAME} home`}
      className="rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-brand-500"
    >
      <Logo />
    </Link>
  )
}
