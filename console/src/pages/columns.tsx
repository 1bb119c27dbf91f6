/**
 * The tables of rows in the console (the money lists, the decision queues, the settings lists, a
 * record's attempts and state moves): each page names its columns once, and the table is drawn
 * from them the same way everywhere.
 */
import type { Key, ReactNode } from 'react';

export interface Column<T> {
  /** The header; also the cell's key, so unique in a table. */
  title: string;
  cell: (row: T) => ReactNode;
  /** An amount or a count: the right-aligned `num` cell. */
  numeric?: boolean;
  /** A row's buttons: the `actions` cell. */
  actions?: boolean;
  /** Long text without spaces (JSON, an answer excerpt): the `change` cell, which breaks it anywhere. */
  wrap?: boolean;
}

/** The row key of rows that carry their id as `id`. */
export const byId = (row: { id: string }): string => row.id;

/**
 * `rows` by `columns`, a row's React key from `rowKey` (`byId`, or the row's place in a history that
 * has no ids). `alignTitles` puts the titles of figures right, over their cells, as the money lists
 * have them; the other tables keep every title left. `empty`: a row across the table said when
 * there is no row (a table that stays drawn, e.g. inside a details box).
 */
export function RowsTable<T>({
  columns,
  rows,
  rowKey,
  alignTitles = false,
  empty,
}: {
  columns: ReadonlyArray<Column<T>>;
  rows: readonly T[];
  rowKey: (row: T, index: number) => Key;
  alignTitles?: boolean;
  empty?: ReactNode;
}) {
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
        {rows.length === 0 && empty ? (
          <tr>
            <td colSpan={columns.length}>{empty}</td>
          </tr>
        ) : null}
        {rows.map((r, i) => (
          <tr key={rowKey(r, i)}>
            {columns.map((c) => (
              <td key={c.title} className={c.numeric ? 'num' : c.actions ? 'actions' : c.wrap ? 'change' : undefined}>
                {c.cell(r)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
