import { AlertTriangle, CheckCircle2, Loader2 } from 'lucide-react'
import { Badge } from '#client/components/ui/badge.tsx'

/** A sub-panel's overall verdict: the words carry it, the colour and icon only repeat them. */
export function OverallStatus({ tone, text }: { tone: 'success' | 'danger' | 'warning' | 'neutral'; text: string }) {
  const Icon = tone === 'success' ? CheckCircle2 : tone === 'neutral' ? Loader2 : AlertTriangle
  return (
    <Badge role="status" tone={tone} className="text-sm">
      <Icon aria-hidden className={tone === 'neutral' ? 'size-3.5 animate-spin' : 'size-3.5'} />
      {text}
    </Badge>
  )
}
