import { useState } from 'react'
import { AlertCircle, LogOut, MapPin, Monitor, Smartphone, Tablet } from 'lucide-react'
import type { DeviceType } from '#shared/api/sessions.ts'
import { Badge } from '#client/components/ui/badge.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#client/components/ui/dialog.tsx'
import { Skeleton } from '#client/components/ui/skeleton.tsx'
import { useNow } from '#client/lib/use-now.ts'
import { useSessions, type ActiveSession } from '../api/get-sessions.ts'
import { useRevokeAllSessions } from '../api/revoke-all-sessions.ts'
import { useRevokeSession } from '../api/revoke-session.ts'
import { formatSessionDateTime, formatSessionTime } from '../lib/relative-time.ts'
import { SESSION_MESSAGES } from '../messages.ts'

const DEVICE_ICONS = { desktop: Monitor, mobile: Smartphone, tablet: Tablet } as const satisfies Record<DeviceType, unknown>

/** SPEC 9: three placeholder rows while the list loads. */
const SKELETON_ROWS = 3

const deviceName = (session: ActiveSession) => SESSION_MESSAGES.browserOnOs(session.browser, session.os)

function SessionRow({ session, now, onRevoke }: { session: ActiveSession; now: number; onRevoke: (session: ActiveSession) => void }) {
  const Icon = DEVICE_ICONS[session.deviceType]
  return (
    <li className="flex items-start gap-3 px-3 py-3">
      <span role="img" aria-label={SESSION_MESSAGES.deviceLabel[session.deviceType]} className="mt-0.5 rounded-lg bg-canvas p-2 text-ink-muted">
        <Icon aria-hidden className="size-4" />
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-ink">
          <span className="truncate">{deviceName(session)}</span>
          {session.isCurrent && <Badge tone="success">{SESSION_MESSAGES.thisDevice}</Badge>}
        </p>
        <p className="flex items-center gap-1 text-xs text-ink-muted">
          <MapPin aria-hidden className="size-3 shrink-0" />
          <span className="truncate">
            {session.location} · {session.ipAddress ?? SESSION_MESSAGES.unknownIp}
          </span>
        </p>
        <p className="text-xs text-ink-subtle">
          <span title={formatSessionDateTime(session.createdAt)}>{SESSION_MESSAGES.signedIn(formatSessionTime(session.createdAt, now))}</span>
          {' · '}
          <span title={formatSessionDateTime(session.lastAccessed)}>{SESSION_MESSAGES.lastActive(formatSessionTime(session.lastAccessed, now))}</span>
        </p>
      </div>
      {!session.isCurrent && (
        <Button variant="outline" size="sm" aria-label={SESSION_MESSAGES.revokeLabel(`${deviceName(session)}, ${session.location}`)} onClick={() => onRevoke(session)}>
          {SESSION_MESSAGES.revoke}
        </Button>
      )}
    </li>
  )
}

/**
 * The signed-in user's Active Sessions (SPEC 3 "Active session", SPEC 4 "Session revocation", SPEC 8
 * "Sessions and account"): each browser with its device, place and times, a Revoke for every other
 * one and 'Log out other devices', each behind a confirmation. No card of its own: the dashboard
 * places it inside Account Settings under its own heading.
 */
export function ActiveSessions() {
  const sessions = useSessions()
  const revoke = useRevokeSession()
  const revokeAll = useRevokeAllSessions()
  const [target, setTarget] = useState<ActiveSession | null>(null)
  const [confirmingAll, setConfirmingAll] = useState(false)
  // 'Active now' lasts 5 s and minutes tick: re-render often enough that the times stay true.
  const now = useNow(15_000)

  // A failed refresh keeps the list it had; only a list that never loaded gives way to the error.
  if (!sessions.data && sessions.error) {
    return (
      <div className="flex flex-col items-start gap-3">
        <p role="alert" className="flex items-start gap-2 rounded-lg border border-danger-200 bg-danger-50 p-3 text-sm text-danger-700">
          <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>{SESSION_MESSAGES.loadError(sessions.error.message)}</span>
        </p>
        <Button variant="outline" size="sm" loading={sessions.isFetching} onClick={() => void sessions.refetch()}>
          {SESSION_MESSAGES.retry}
        </Button>
      </div>
    )
  }

  if (!sessions.data) {
    return (
      <div role="status" aria-label={SESSION_MESSAGES.loading} className="flex flex-col divide-y divide-line rounded-lg border border-line">
        {Array.from({ length: SKELETON_ROWS }, (_, index) => (
          <div key={index} data-testid="session-skeleton" className="flex items-center gap-3 px-3 py-3">
            <Skeleton className="size-8 rounded-lg" />
            <div className="flex flex-1 flex-col gap-1.5">
              <Skeleton className="h-4 w-1/2" />
              <Skeleton className="h-3 w-2/3" />
            </div>
          </div>
        ))}
      </div>
    )
  }

  if (sessions.data.length === 0) {
    return <p className="rounded-lg border border-dashed border-line p-4 text-sm text-ink-muted">{SESSION_MESSAGES.empty}</p>
  }

  const hasOthers = sessions.data.some((session) => !session.isCurrent)
  const confirmRevoke = () => {
    if (target) revoke.mutate(target.id, { onSettled: () => setTarget(null) })
  }
  const confirmRevokeAll = () => revokeAll.mutate(undefined, { onSettled: () => setConfirmingAll(false) })

  return (
    <div className="flex flex-col gap-3">
      <ul aria-label={SESSION_MESSAGES.listLabel} className="flex flex-col divide-y divide-line rounded-lg border border-line">
        {sessions.data.map((session) => (
          <SessionRow key={session.id} session={session} now={now} onRevoke={setTarget} />
        ))}
      </ul>
      <div>
        <Button variant="outline" size="sm" disabled={!hasOthers} onClick={() => setConfirmingAll(true)}>
          <LogOut aria-hidden className="size-4" />
          {SESSION_MESSAGES.revokeAll}
        </Button>
      </div>
      {/* GeoLite2's licence asks for this credit wherever its data is shown. */}
      <p className="text-xs text-ink-subtle">
        Locations are approximate, from GeoLite2 data created by MaxMind, available from{' '}
        <a href="https://www.maxmind.com" className="underline underline-offset-2" rel="noopener noreferrer" target="_blank">
          maxmind.com
        </a>
        .
      </p>

      <Dialog open={target !== null} onOpenChange={(open) => (!open && !revoke.isPending ? setTarget(null) : undefined)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{SESSION_MESSAGES.revokeTitle}</DialogTitle>
            <DialogDescription>{target ? SESSION_MESSAGES.revokeDescription(deviceName(target), target.location) : null}</DialogDescription>
          </DialogHeader>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button variant="outline" disabled={revoke.isPending}>
                {SESSION_MESSAGES.cancel}
              </Button>
            </DialogClose>
            <Button variant="destructive" loading={revoke.isPending} onClick={confirmRevoke}>
              {SESSION_MESSAGES.revokeConfirm}
            </Button>
          </div>
        </DialogContent>
      </Dialog>

      <Dialog open={confirmingAll} onOpenChange={(open) => (!open && !revokeAll.isPending ? setConfirmingAll(false) : undefined)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{SESSION_MESSAGES.revokeAllTitle}</DialogTitle>
            <DialogDescription>{SESSION_MESSAGES.revokeAllDescription}</DialogDescription>
          </DialogHeader>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button variant="outline" disabled={revokeAll.isPending}>
                {SESSION_MESSAGES.cancel}
              </Button>
            </DialogClose>
            <Button variant="destructive" loading={revokeAll.isPending} onClick={confirmRevokeAll}>
              {SESSION_MESSAGES.revokeAllConfirm}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </div>
  )
}
