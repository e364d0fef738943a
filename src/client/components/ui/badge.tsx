import type { ComponentProps } from 'react'
import { cn } from '#client/lib/cn.ts'

const tones = {
  brand: 'bg-brand-600 text-white',
  soft: 'bg-brand-50 text-brand-800 ring-1 ring-brand-200 ring-inset',
  neutral: 'bg-canvas text-ink-muted ring-1 ring-line ring-inset',
  success: 'bg-success-50 text-success-700 ring-1 ring-success-200 ring-inset',
  warning: 'bg-warning-50 text-warning-800 ring-1 ring-warning-200 ring-inset',
  danger: 'bg-danger-50 text-danger-700 ring-1 ring-danger-200 ring-inset',
} as const

export function Badge({ tone = 'soft', className, ...props }: ComponentProps<'span'> & { tone?: keyof typeof tones }) {
  return (
    <span
      className={cn('inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-medium', tones[tone], className)}
      {...props}
    />
  )
}
