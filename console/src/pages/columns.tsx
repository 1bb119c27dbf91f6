/**
 * The tables of rows in the console (the money lists, the decision queues): each page names its
 * columns once, and the table is drawn from them the same way everywhere.
 */
import type { ReactNode } from 'react';

export interface Column<T> {
  /** The header; also the cell's key, so unique in a table. */
  title: string;
  cell: (row: T) => ReactNode;
  /** An amount or a count: the right-aligned `num` cell. */
  numeric?: boolean;
  /** A row's buttons: the `actions` cell. */
  actions?: boolean;
}

/**
 * `rows` by `columns`, a row's key its id. `alignTitles` puts the titles of figures right, over
 * their cells, as the money lists have them; the decision queues keep every title left.
 */
export function RowsTable<T extends { id: string }>({ columns, rows, alignTitles = false }: { columns: ReadonlyArray<Column<T>>; rows: T[]; alignTitles?: boolean }) {
  return (
    <table>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.title} scope="col" className={alignTitles && c.numeric ? 'num' : undefined}>
              {c.title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id}>
            {columns.map((c) => (
              <td key={c.title} className={c.numeric ? 'num' : c.actions ? 'actions' : undefined}>
                {c.cell(r)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
