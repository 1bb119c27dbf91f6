/** "Payout routes": the organization's payout routes (the merchant API's bank connections), read only; the operator adds them with `tijori route create`. */
import { Time } from '../components.js';
import { Loadable, useResource } from '../data.js';
import { byId, type Column, RowsTable } from './columns.js';
import { TableScroll } from './money/links.js';
import type { RowOf } from '../wire.js';

type BankConnection = RowOf<'consoleListPayoutRoutes'>;

const COLUMNS: Column<BankConnection>[] = [
  { title: 'Route id (bank_connection_id)', cell: (r) => <code>{r.id}</code> },
  {
    title: 'Name',
    cell: (r) => (
      <>
        {r.name}
        {r.is_default ? <span className="badge"> (default)</span> : null}
      </>
    ),
  },
  { title: 'Modes', cell: (r) => r.modes.join(', ') },
  { title: 'Provider', cell: (r) => r.provider },
  { title: 'Status', cell: (r) => r.status },
  { title: 'Created', cell: (r) => <Time iso={r.created_at} /> },
];

export function BankConnectionsPage() {
  const { data, error } = useResource<BankConnection[]>('/payout-routes');
  return (
    <>
      <h1>Payout routes</h1>
      <p className="hint">
        The accounts payouts are sent from. A payout names a route by its <code>bank_connection_id</code>, or goes by the default route. Routes are set up by the
        operator.
      </p>
      <Loadable data={data} error={error}>
        {(rows) =>
          rows.length === 0 ? (
            <p>No payout routes yet: payouts are refused until the operator adds one.</p>
          ) : (
            <TableScroll label="Payout routes">
              <RowsTable columns={COLUMNS} rows={rows} rowKey={byId} />
            </TableScroll>
          )
        }
      </Loadable>
    </>
  );
}
