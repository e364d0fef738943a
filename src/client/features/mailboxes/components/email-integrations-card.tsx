import { useState } from 'react'
import { useSearchParams } from 'react-router'
import type { MailboxProvider } from '#shared/api/mailboxes.ts'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { useGmailStatus } from '../api/get-gmail-status.ts'
import { useOutlookStatus } from '../api/get-outlook-status.ts'
import { useConnectMailbox } from '../hooks/use-connect-mailbox.ts'
import { tokenHolder, toMailboxView, type MailboxView } from '../lib/mailbox-view.ts'
import { hasUrlError } from '../lib/url-errors.ts'
import { MAILBOX_MESSAGES } from '../messages.ts'
import { GmailReauthentication } from './gmail-reauthentication.tsx'
import { MailboxProviderCard } from './mailbox-provider-card.tsx'
import { SwitchEmailDialog } from './switch-email-dialog.tsx'

const PROVIDERS = ['gmail', 'outlook'] as const satisfies readonly MailboxProvider[]

const emailOf = (view: MailboxView) => (view.kind === 'connected' || view.kind === 'reconnect' || view.kind === 'error' ? view.email : null)

/**
 * The dashboard's Email Provider Integrations card (SPEC 2 "/dashboard", SPEC 4 "Mailbox
 * connection"): a Gmail card and an Outlook card. Only one provider may hold tokens; the other card
 * is disabled until they are cleared through Switch Email Address.
 */
export function EmailIntegrationsCard({ className }: { className?: string }) {
  const gmail = useGmailStatus()
  const outlook = useOutlookStatus()
  const queries = { gmail, outlook }
  const views: Record<MailboxProvider, MailboxView> = { gmail: toMailboxView('gmail', gmail), outlook: toMailboxView('outlook', outlook) }
  const holder = tokenHolder(views)
  const { connect, connecting, errors } = useConnectMailbox()
  const [switching, setSwitching] = useState<{ provider: MailboxProvider; open: boolean }>({ provider: 'gmail', open: false })
  const [searchParams] = useSearchParams()

  const reauthorizationUrl = gmail.data?.status === 'action_required' ? gmail.data.authorizationUrl : null

  return (
    <Card aria-labelledby="email-integrations-title" className={className}>
      <CardHeader>
        <CardTitle id="email-integrations-title">{MAILBOX_MESSAGES.cardTitle}</CardTitle>
        <CardDescription>{MAILBOX_MESSAGES.cardDescription}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        {PROVIDERS.map((provider) => (
          <MailboxProviderCard
            key={provider}
            provider={provider}
            view={views[provider]}
            lockedBy={holder !== null && holder !== provider ? holder : null}
            connecting={connecting === provider}
            popupOpen={connecting !== null}
            connectError={errors[provider]}
            onConnect={() => connect(provider)}
            onSwitch={() => setSwitching({ provider, open: true })}
            onCheckAgain={() => void queries[provider].refetch()}
          />
        ))}
      </CardContent>
      <SwitchEmailDialog
        provider={switching.provider}
        email={emailOf(views[switching.provider])}
        open={switching.open}
        onOpenChange={(open) => setSwitching((current) => ({ ...current, open }))}
      />
      {reauthorizationUrl && <GmailReauthentication authorizationUrl={reauthorizationUrl} paused={hasUrlError(searchParams)} />}
    </Card>
  )
}
