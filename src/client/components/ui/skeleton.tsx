import type { ComponentProps } from 'react'
import { cn } from '#client/lib/cn.ts'

/** A placeholder block; hidden from assistive technology (the container announces loading). */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden className={cn('animate-pulse rounded-md bg-line/70', className)} {...props} />
}
