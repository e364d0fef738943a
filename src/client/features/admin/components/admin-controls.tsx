import { useId, useState, type ReactNode } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { cn } from '#client/lib/cn.ts'
import { useMigrateWebhooks } from '../api/migrate-webhooks.ts'
import { useRedactAuditTokens } from '../api/redact-audit-tokens.ts'
import { useRunSessionMaintenance, type SessionMaintenanceAction } from '../api/run-session-maintenance.ts'
import { useTriggerCleanup } from '../api/trigger-cleanup.ts'
import { useTriggerWatchdog, type WatchdogStats } from '../api/trigger-watchdog.ts'
import { ADMIN_MESSAGES } from '../messages.ts'
import { ConfirmDialog } from './confirm-dialog.tsx'
import { SubPanel } from './sub-panel.tsx'

/** What a control did: a success is a polite status, a failure an alert; both stay until the next run. */
function Outcome({ failed, children }: { failed?: boolean; children: ReactNode }) {
  return (
    <div
      role={failed ? 'alert' : 'status'}
      className={cn(
        'rounded-lg border p-3 text-sm',
        failed ? 'border-danger-200 bg-danger-50 text-danger-700' : 'border-success-200 bg-success-50 text-success-700',
      )}
    >
      {children}
    </div>
  )
}

/** One control: its h4 title, what it does, its buttons and its last outcome. */
function Control({ title, description, children, outcome }: { title: string; description: string; children: ReactNode; outcome?: ReactNode }) {
  const titleId = useId()
  return (
    <div role="group" aria-labelledby={titleId} className="flex flex-col gap-2 rounded-lg border border-line p-3">
      <h4 id={titleId} className="text-sm font-semibold text-ink">
        {title}
      </h4>
      <p className="text-xs text-ink-muted">{description}</p>
      <div className="flex flex-wrap gap-2">{children}</div>
      {outcome}
    </div>
  )
}

const STAT_NAMES = Object.keys(ADMIN_MESSAGES.watchdogStats) as (keyof typeof ADMIN_MESSAGES.watchdogStats)[]

function WatchdogStatsList({ stats }: { stats: WatchdogStats }) {
  return (
    <dl className="mt-1 grid grid-cols-2 gap-x-4 gap-y-0.5 text-ink">
      {STAT_NAMES.map((name) => (
        <div key={name} className="flex justify-between gap-2">
          <dt>{ADMIN_MESSAGES.watchdogStats[name]}</dt>
          <dd className="font-semibold">{stats[name]}</dd>
        </div>
      ))}
    </dl>
  )
}

const SESSION_ACTIONS: { action: SessionMaintenanceAction; label: string }[] = [
  { action: 'backfill', label: ADMIN_MESSAGES.backfillSessions },
  { action: 'cleanup', label: ADMIN_MESSAGES.cleanUpSessions },
  { action: 'both', label: ADMIN_MESSAGES.fullMaintenance },
]

type Confirming = 'cleanup' | 'redaction' | 'migration' | null

/**
 * Admin Controls (SPEC 2 Admin Controls, SPEC 7 "Admin", SPEC 8 "Admin"): the heartbeat watchdog,
 * the database cleanup, session maintenance, the two test dialogs, token redaction and the Gmail
 * webhook migration. Each shows its result or SPEC 8 failure text under its buttons; the ones that
 * delete or rewrite data (cleanup, redaction, migration) ask first.
 */
export function AdminControls({ onTestOnboarding, onTestBillingPrompt }: { onTestOnboarding: () => void; onTestBillingPrompt: () => void }) {
  const watchdog = useTriggerWatchdog()
  const cleanup = useTriggerCleanup()
  const sessions = useRunSessionMaintenance()
  const redaction = useRedactAuditTokens()
  const migration = useMigrateWebhooks()
  const [confirming, setConfirming] = useState<Confirming>(null)
  const closeUnless = (which: Exclude<Confirming, null>) => (open: boolean) => setConfirming(open ? which : null)

  return (
    <SubPanel title={ADMIN_MESSAGES.controlsTitle} description={ADMIN_MESSAGES.controlsDescription} className="md:col-span-2">
      <div className="grid gap-3 md:grid-cols-2">
        <Control
          title={ADMIN_MESSAGES.watchdogTitle}
          description={ADMIN_MESSAGES.watchdogDescription}
          outcome={
            watchdog.isSuccess ? (
              <Outcome>
                <p className="font-medium">{ADMIN_MESSAGES.watchdogDone}</p>
                <WatchdogStatsList stats={watchdog.data} />
              </Outcome>
            ) : watchdog.isError ? (
              <Outcome failed>{ADMIN_MESSAGES.watchdogFailed(watchdog.error.message)}</Outcome>
            ) : null
          }
        >
          <Button variant="outline" size="sm" loading={watchdog.isPending} onClick={() => watchdog.mutate()}>
            {ADMIN_MESSAGES.triggerWatchdog}
          </Button>
        </Control>

        <Control
          title={ADMIN_MESSAGES.cleanupTitle}
          description={ADMIN_MESSAGES.cleanupDescription}
          outcome={
            cleanup.isSuccess ? (
              <Outcome>{ADMIN_MESSAGES.cleanupDone(cleanup.data.supportRecordsDeleted, cleanup.data.queueEntriesDeleted)}</Outcome>
            ) : cleanup.isError ? (
              <Outcome failed>{ADMIN_MESSAGES.cleanupFailed(cleanup.error.message)}</Outcome>
            ) : null
          }
        >
          <Button variant="outline" size="sm" loading={cleanup.isPending} onClick={() => setConfirming('cleanup')}>
            {ADMIN_MESSAGES.runCleanup}
          </Button>
        </Control>

        <Control
          title={ADMIN_MESSAGES.sessionsTitle}
          description={ADMIN_MESSAGES.sessionsDescription}
          outcome={
            sessions.isSuccess ? (
              <Outcome>{sessions.data.message}</Outcome>
            ) : sessions.isError ? (
              <Outcome failed>
                <p className="font-medium">{ADMIN_MESSAGES.sessionMaintenanceFailed[sessions.variables]}</p>
                <p className="text-xs">{sessions.error.message}</p>
              </Outcome>
            ) : null
          }
        >
          {SESSION_ACTIONS.map(({ action, label }) => (
            <Button
              key={action}
              variant="outline"
              size="sm"
              loading={sessions.isPending && sessions.variables === action}
              disabled={sessions.isPending}
              onClick={() => sessions.mutate(action)}
            >
              {label}
            </Button>
          ))}
        </Control>

        <Control title={ADMIN_MESSAGES.testModalsTitle} description={ADMIN_MESSAGES.testModalsDescription}>
          <Button variant="outline" size="sm" onClick={onTestOnboarding}>
            {ADMIN_MESSAGES.testOnboarding}
          </Button>
          <Button variant="outline" size="sm" onClick={onTestBillingPrompt}>
            {ADMIN_MESSAGES.testBillingPrompt}
          </Button>
        </Control>

        <Control
          title={ADMIN_MESSAGES.redactionTitle}
          description={ADMIN_MESSAGES.redactionDescription}
          outcome={
            redaction.isSuccess ? (
              <Outcome>{redaction.data.message}</Outcome>
            ) : redaction.isError ? (
              <Outcome failed>{ADMIN_MESSAGES.redactionFailed(redaction.error.message)}</Outcome>
            ) : null
          }
        >
          <Button variant="outline" size="sm" loading={redaction.isPending} onClick={() => setConfirming('redaction')}>
            {ADMIN_MESSAGES.redactTokens}
          </Button>
        </Control>

        <Control
          title={ADMIN_MESSAGES.migrationTitle}
          description={ADMIN_MESSAGES.migrationDescription}
          outcome={
            migration.isSuccess ? (
              <Outcome failed={migration.data.errors.length > 0}>
                <p className="font-medium">{ADMIN_MESSAGES.migrationDone(migration.data.successfulMigrations, migration.data.totalUsers)}</p>
                {migration.data.errors.length > 0 ? (
                  <ul aria-label={ADMIN_MESSAGES.migrationErrorsLabel} className="mt-1 list-disc pl-5">
                    {migration.data.errors.map((error, index) => (
                      <li key={index}>{error}</li>
                    ))}
                  </ul>
                ) : null}
              </Outcome>
            ) : migration.isError ? (
              <Outcome failed>{ADMIN_MESSAGES.migrationFailed(migration.error.message)}</Outcome>
            ) : null
          }
        >
          <Button variant="outline" size="sm" loading={migration.isPending} onClick={() => setConfirming('migration')}>
            {ADMIN_MESSAGES.migrateWebhooks}
          </Button>
        </Control>
      </div>

      <ConfirmDialog
        open={confirming === 'cleanup'}
        onOpenChange={closeUnless('cleanup')}
        title={ADMIN_MESSAGES.cleanupConfirmTitle}
        description={ADMIN_MESSAGES.cleanupConfirmDescription}
        confirmLabel={ADMIN_MESSAGES.runCleanup}
        onConfirm={() => cleanup.mutate()}
      />
      <ConfirmDialog
        open={confirming === 'redaction'}
        onOpenChange={closeUnless('redaction')}
        title={ADMIN_MESSAGES.redactionConfirmTitle}
        description={ADMIN_MESSAGES.redactionConfirmDescription}
        confirmLabel={ADMIN_MESSAGES.redactTokens}
        onConfirm={() => redaction.mutate()}
      />
      <ConfirmDialog
        open={confirming === 'migration'}
        onOpenChange={closeUnless('migration')}
        title={ADMIN_MESSAGES.migrationConfirmTitle}
        description={ADMIN_MESSAGES.migrationConfirmDescription}
        confirmLabel={ADMIN_MESSAGES.migrateWebhooks}
        onConfirm={() => migration.mutate()}
      />
    </SubPanel>
  )
}
