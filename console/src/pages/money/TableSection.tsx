/**
 * A titled table on a record's page (an order's or a payout's state moves, a payout's attempts):
 * the heading, and the rows in a scroller named like it, drawn from the page's columns.
 */
import type { Key } from 'react';
import { type Column, RowsTable } from '../columns.js';
import { TableScroll } from './links.js';

export function TableSection<T>({
  id,
  title,
  columns,
  rows,
  rowKey,
}: {
  /** The heading's id, which names the section. */
  id: string;
  title: string;
  columns: ReadonlyArray<Column<T>>;
  rows: T[];
  rowKey: (row: T, index: number) => Key;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <TableScroll label={title}>
        <RowsTable columns={columns} rows={rows} rowKey={rowKey} />
      </TableScroll>
    </section>
  );
}
