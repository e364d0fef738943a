import type { ComponentProps } from 'react'
import { cn } from '#client/lib/cn.ts'

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return (
    <input
      className={cn(
        'h-10 w-full rounded-lg border border-line bg-surface px-3 text-sm text-ink shadow-xs transition-colors',
        'placeholder:text-ink-subtle focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-500/30',
        'disabled:cursor-not-allowed disabled:opacity-60',
        'aria-invalid:border-danger-500 aria-invalid:focus-visible:outline-danger-500/30',
        className,
      )}
      {...props}
    />
  )
}
