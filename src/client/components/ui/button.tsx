import type { ComponentProps } from 'react'
import { Slot } from 'radix-ui'
import { Loader2 } from 'lucide-react'
import { cn } from '#client/lib/cn.ts'

const variants = {
  primary:
    'bg-brand-600 text-white shadow-sm hover:bg-brand-700 active:bg-brand-800',
  secondary: 'bg-brand-50 text-brand-800 hover:bg-brand-100',
  outline:
    'border border-line bg-surface text-ink shadow-xs hover:bg-canvas hover:border-ink-subtle/40',
  ghost: 'text-ink-muted hover:bg-canvas hover:text-ink',
  destructive: 'bg-danger-600 text-white shadow-sm hover:bg-danger-700',
  link: 'h-auto px-0 text-brand-700 underline-offset-4 hover:underline',
} as const

const sizes = {
  sm: 'h-8 gap-1.5 rounded-md px-3 text-sm',
  md: 'h-10 gap-2 rounded-lg px-4 text-sm',
  lg: 'h-12 gap-2 rounded-xl px-6 text-base',
  icon: 'size-10 rounded-lg',
} as const

export type ButtonProps = ComponentProps<'button'> & {
  variant?: keyof typeof variants
  size?: keyof typeof sizes
  /** Renders the child element (a link, say) with button styles. */
  asChild?: boolean
  /** Shows a spinner, sets aria-busy and disables the button. */
  loading?: boolean
}

export function buttonClasses({
  variant = 'primary',
  size = 'md',
  className,
}: { variant?: keyof typeof variants; size?: keyof typeof sizes; className?: string } = {}) {
  return cn(
    'inline-flex shrink-0 items-center justify-center font-medium whitespace-nowrap transition-colors select-none',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500',
    'disabled:pointer-events-none disabled:opacity-55 aria-disabled:cursor-not-allowed',
    variants[variant],
    sizes[size],
    className,
  )
}

export function Button({ variant, size, asChild, loading, className, children, disabled, ...props }: ButtonProps) {
  if (asChild) {
    return (
      <Slot.Root className={buttonClasses({ variant, size, className })} {...props}>
        {children}
      </Slot.Root>
    )
  }
  return (
    <button
      type="button"
      className={buttonClasses({ variant, size, className })}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...props}
    >
      {loading && <Loader2 aria-hidden className="size-4 animate-spin" />}
      {children}
    </button>
  )
}
