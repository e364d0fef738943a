import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { useNow } from '#client/lib/use-now.ts'
import { ADMIN_MESSAGES } from '../messages.ts'
import { AdminControls } from './admin-controls.tsx'
import { AuditLogsPanel } from './audit-logs-panel.tsx'
import { CronHealthPanel } from './cron-health-panel.tsx'
import { MailboxHealthPanels } from './mailbox-health-panels.tsx'
import { ProviderHealthPanel } from './provider-health-panel.tsx'
import { TeamWaitlistPanel } from './team-waitlist-panel.tsx'

/** Relative times count seconds ('Active now' is the first 5), so they are recomputed this often. */
const CLOCK_TICK_MS = 15_000

export interface AdminPanelProps {
  /** Opens the real onboarding dialog (the page owns it). */
  onTestOnboarding: () => void
  /** Opens the real plan dialog with auto-close disabled (the page owns it). */
  onTestBillingPrompt: () => void
  className?: string
}

/**
 * The Admin Panel (SPEC 2 "/dashboard", SPEC 6: admins only; the page decides whether to render it
 * and the server refuses every call to anyone else): provider health, cron health, the webhook and
 * heartbeat sub-panels, Admin Controls, the Team waitlist and the Security Audit Logs. Each
 * sub-panel loads, fails and retries on its own.
 */
export function AdminPanel({ onTestOnboarding, onTestBillingPrompt, className }: AdminPanelProps) {
  const now = useNow(CLOCK_TICK_MS)
  return (
    <Card role="region" aria-labelledby="admin-panel-title" className={className}>
      <CardHeader>
        <CardTitle id="admin-panel-title">{ADMIN_MESSAGES.panelTitle}</CardTitle>
        <CardDescription>{ADMIN_MESSAGES.panelDescription}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 md:grid-cols-2">
        <ProviderHealthPanel now={now} />
        <CronHealthPanel now={now} />
        <MailboxHealthPanels now={now} />
        <AdminControls onTestOnboarding={onTestOnboarding} onTestBillingPrompt={onTestBillingPrompt} />
        <TeamWaitlistPanel now={now} />
        <AuditLogsPanel />
      </CardContent>
    </Card>
  )
}
