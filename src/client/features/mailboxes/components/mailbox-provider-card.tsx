import { AlertCircle, CheckCircle2, Mail } from 'lucide-react'
import type { MailboxProvider } from '#shared/api/mailboxes.ts'
import { Badge } from '#client/components/ui/badge.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { cn } from '#client/lib/cn.ts'
import type { MailboxView } from '../lib/mailbox-view.ts'
import { MAILBOX_MESSAGES, PROVIDER_LABEL } from '../messages.ts'
import { PendingMailbox } from './pending-mailbox.tsx'

export interface MailboxProviderCardProps {
  provider: MailboxProvider
  view: MailboxView
  /** The other provider, when it holds the tokens: this card is disabled until they are cleared. */
  lockedBy: MailboxProvider | null
  /** This provider's connect popup is open. */
  connecting: boolean
  /** Some connect popup is open (one at a time). */
  popupOpen: boolean
  connectError: string | undefined
  onConnect: () => void
  onSwitch: () => void
  onCheckAgain: () => void
}

function StatusBadge({ view }: { view: MailboxView }) {
  switch (view.kind) {
    case 'pending':
      return <Badge tone="neutral">{MAILBOX_MESSAGES.checkingBadge}</Badge>
    case 'connected':
      return <Badge tone="success">{MAILBOX_MESSAGES.connectedBadge}</Badge>
    case 'disconnected':
      return <Badge tone="neutral">{MAILBOX_MESSAGES.notConnectedBadge}</Badge>
    case 'reconnect':
      return <Badge tone="warning">{view.status === 'revoked' ? MAILBOX_MESSAGES.revokedBadge : MAILBOX_MESSAGES.actionRequiredBadge}</Badge>
    case 'error':
      return <Badge tone="warning">{MAILBOX_MESSAGES.errorBadge}</Badge>
  }
}

/** One provider inside the Email Provider Integrations card (SPEC 2, SPEC 4 "Mailbox connection"). */
export function MailboxProviderCard(props: MailboxProviderCardProps) {
  const { provider, view, lockedBy, connecting, popupOpen, connectError, onConnect, onSwitch, onCheckAgain } = props
  const label = PROVIDER_LABEL[provider]
  const titleId = `mailbox-${provider}-title`
  const locked = lockedBy !== null
  const switchButton = (
    <Button variant="outline" onClick={onSwitch}>
      {MAILBOX_MESSAGES.switchEmail}
    </Button>
  )

  let body
  switch (view.kind) {
    case 'pending':
      body = <PendingMailbox provider={provider} onSwitch={onSwitch} />
      break
    case 'connected':
      body = (
        <>
          <p className="flex min-w-0 items-center gap-2 text-sm text-ink">
            <CheckCircle2 aria-hidden className="size-4 shrink-0 text-success-600" />
            <span className="text-ink-muted">{MAILBOX_MESSAGES.connectedAs}</span>
            <strong className="truncate font-medium" title={view.email ?? undefined}>
              {view.email}
            </strong>
          </p>
          <div className="mt-auto flex flex-wrap gap-2">{switchButton}</div>
        </>
      )
      break
    case 'disconnected':
      body = (
        <>
          <p className="text-sm text-ink-muted">{locked ? MAILBOX_MESSAGES.otherHoldsTokens(provider, lockedBy) : view.message}</p>
          <div className="mt-auto flex flex-wrap gap-2">
            <Button onClick={onConnect} loading={connecting} disabled={locked || popupOpen}>
              {MAILBOX_MESSAGES.connect(provider)}
            </Button>
          </div>
        </>
      )
      break
    case 'reconnect':
      body = (
        <>
          <p className="text-sm text-ink-muted">{view.message}</p>
          {view.email && <p className="truncate text-sm font-medium text-ink">{view.email}</p>}
          <div className="mt-auto flex flex-wrap gap-2">
            <Button onClick={onConnect} loading={connecting} disabled={locked || popupOpen}>
              {MAILBOX_MESSAGES.reconnect(provider)}
            </Button>
            {switchButton}
          </div>
        </>
      )
      break
    case 'error':
      body = (
        <>
          <div role="alert" className="flex items-start gap-2 rounded-lg border border-danger-200 bg-danger-50 p-3 text-sm text-danger-700">
            <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
            <div className="flex min-w-0 flex-col gap-1">
              <p>{view.title}</p>
              {view.detail && <p className="break-words text-danger-800">{view.detail}</p>}
            </div>
          </div>
          <div className="mt-auto flex flex-wrap gap-2">
            <Button variant="outline" onClick={onCheckAgain}>
              {MAILBOX_MESSAGES.checkAgain}
            </Button>
            {view.holdsTokens && switchButton}
          </div>
        </>
      )
      break
  }

  return (
    <article
      aria-labelledby={titleId}
      aria-disabled={locked || undefined}
      data-provider={provider}
      className={cn('flex min-h-48 flex-col gap-3 rounded-xl border border-line bg-canvas/40 p-5', locked && 'opacity-60')}
    >
      <div className="flex items-center justify-between gap-3">
        <h3 id={titleId} className="flex items-center gap-2 font-semibold text-ink">
          <Mail aria-hidden className="size-5 text-brand-600" />
          {label}
        </h3>
        <StatusBadge view={view} />
      </div>
      {body}
      {/* The button's spinner shows it; this tells screen readers where to look. */}
      <p aria-live="polite" className="sr-only">
        {connecting ? MAILBOX_MESSAGES.waitingForPopup(provider) : ''}
      </p>
      {connectError && (
        <p role="alert" className="flex items-start gap-2 rounded-lg border border-danger-200 bg-danger-50 p-3 text-sm text-danger-700">
          <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>{connectError}</span>
        </p>
      )}
    </article>
  )
}
