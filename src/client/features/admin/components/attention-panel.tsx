import type { MailboxHealthResponse } from '../api/get-mailbox-health.ts'
import { ADMIN_MESSAGES } from '../messages.ts'
import { RelativeTime } from './relative-time.tsx'
import { SubPanel } from './sub-panel.tsx'

const cell = 'px-3 py-2'

/** The mailboxes whose connection, webhook or heartbeat needs the operator: who, which provider, what, since when. */
export function AttentionPanel({ data, now }: { data: MailboxHealthResponse; now: number }) {
  const rows = data.needsAttention
  const columns = ADMIN_MESSAGES.attentionColumns
  return (
    <SubPanel title={ADMIN_MESSAGES.attentionTitle} description={ADMIN_MESSAGES.attentionDescription} className="md:col-span-2">
      {rows.length === 0 ? (
        <p className="text-sm text-ink-muted">{ADMIN_MESSAGES.attentionEmpty}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-line">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{ADMIN_MESSAGES.attentionLabel}</caption>
            <thead className="bg-canvas text-xs text-ink-muted">
              <tr>
                {[columns.userId, columns.provider, columns.status, columns.since].map((column) => (
                  <th key={column} scope="col" className={`${cell} font-medium`}>
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {rows.map((row) => (
                <tr key={`${row.mailboxId}-${row.status}`}>
                  <td className={cell}>{row.userId}</td>
                  <td className={cell}>{ADMIN_MESSAGES.mailProvider[row.provider] ?? row.provider}</td>
                  <td className={cell}>
                    <code className="text-xs">{row.status}</code>
                  </td>
                  <td className={cell}>
                    <RelativeTime value={row.since} now={now} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </SubPanel>
  )
}
