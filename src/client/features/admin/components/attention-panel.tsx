import type { MailboxHealthResponse } from '../api/get-mailbox-health.ts'
import { ADMIN_MESSAGES } from '../messages.ts'
import { RelativeTime } from './relative-time.tsx'
import { SimpleTable } from './simple-table.tsx'
import { SubPanel } from './sub-panel.tsx'

/** The mailboxes whose connection, webhook or heartbeat needs the operator: who, which provider, what, since when. */
export function AttentionPanel({ data, now }: { data: MailboxHealthResponse; now: number }) {
  const rows = data.needsAttention
  const columns = ADMIN_MESSAGES.attentionColumns
  return (
    <SubPanel title={ADMIN_MESSAGES.attentionTitle} description={ADMIN_MESSAGES.attentionDescription} className="md:col-span-2">
      {rows.length === 0 ? (
        <p className="text-sm text-ink-muted">{ADMIN_MESSAGES.attentionEmpty}</p>
      ) : (
        <SimpleTable
          caption={ADMIN_MESSAGES.attentionLabel}
          rows={rows}
          rowKey={(row) => `${row.mailboxId}-${row.status}`}
          columns={[
            { header: columns.userId, cell: (row) => row.userId },
            { header: columns.provider, cell: (row) => ADMIN_MESSAGES.mailProvider[row.provider] ?? row.provider },
            { header: columns.status, cell: (row) => <code className="text-xs">{row.status}</code> },
            { header: columns.since, cell: (row) => <RelativeTime value={row.since} now={now} /> },
          ]}
        />
      )}
    </SubPanel>
  )
}
