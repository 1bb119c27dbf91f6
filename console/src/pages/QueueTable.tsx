/**
 * The queue table of the decision pages (review queue, refunds, payout approvals, bulk payouts):
 * the page's rows and an "Open" button each that shows the row's decision panel. The pages differ
 * only in their columns; the row's panel (DetailPanel.tsx) and what it holds stay in each page.
 */
import { Loadable } from '../data.js';
import { byId, type Column, RowsTable } from './columns.js';

export function QueueTable<T extends { id: string }>({
  rows,
  error = null,
  empty,
  columns,
  openLabel,
  onOpen,
}: {
  /** null while loading. */
  rows: T[] | null;
  /** Why the rows could not be read (said on the page's own error line). */
  error?: string | null;
  /** What the page says when there is no row. */
  empty: string;
  columns: ReadonlyArray<Column<T>>;
  /** The accessible name of a row's "Open" button: every button reads "Open", so this names the row. */
  openLabel: (row: T) => string;
  onOpen: (id: string) => void;
}) {
  if (rows === null) return <Loadable data={rows} error={error} showError={false}>{() => null}</Loadable>;
  if (rows.length === 0) return <p>{empty}</p>;
  const open: Column<T> = {
    title: 'Details',
    actions: true,
    cell: (r) => (
      <button type="button" className="secondary" aria-label={openLabel(r)} onClick={() => onOpen(r.id)}>
        Open
      </button>
    ),
  };
  return (
    <div className="table-wrap">
      <RowsTable columns={[...columns, open]} rows={rows} rowKey={byId} />
    </div>
  );
}
