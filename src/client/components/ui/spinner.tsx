import { Loader2 } from 'lucide-react'
import { cn } from '#client/lib/cn.ts'

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center">
      <Loader2 aria-hidden className={cn('size-5 animate-spin text-brand-600', className)} />
      <span className="sr-only">{label}</span>
    </span>
  )
}
