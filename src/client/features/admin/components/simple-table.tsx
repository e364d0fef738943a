import type { ReactNode } from 'react'

const CELL = 'px-3 py-2'

export interface SimpleTableColumn<Row> {
  header: string
  cell: (row: Row) => ReactNode
  className?: string
}

/** A small read-only table for the admin sub-panels: a hidden caption, header row, one row per item. */
export function SimpleTable<Row>({ caption, columns, rows, rowKey }: { caption: string; columns: SimpleTableColumn<Row>[]; rows: Row[]; rowKey: (row: Row) => string | number }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-line">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-canvas text-xs text-ink-muted">
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={`${CELL} font-medium`}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.header} className={column.className ? `${CELL} ${column.className}` : CELL}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
