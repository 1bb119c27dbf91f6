/**
 * What a provider sent that Tijori could not use (issue #22): shown on the provider accounts page
 * per account, and on an order's or payout's page. Nothing here moved money; each row says what
 * was refused. Rendered only for roles with `providers.anomalies` (admins, developers).
 */
import { Time } from '../components.js';
import { Loadable, useResource } from '../data.js';
import { useCan } from '../permissions.js';
import { byId, type Column, RowsTable } from './columns.js';
import { dash, TableScroll } from './money/links.js';
import type { RowOf } from '../wire.js';

export type Anomaly = RowOf<'consoleListProviderAnomalies'>;

const COLUMNS: Column<Anomaly>[] = [
  { title: 'When', cell: (a) => <Time iso={a.created_at} /> },
  { title: 'Kind', cell: (a) => <code>{a.kind}</code> },
  { title: 'Seen in', cell: (a) => dash(a.operation) },
  { title: 'Concerns', cell: (a) => (a.resource ? `${a.resource.type === 'payout' ? 'payout' : 'order'} ${a.resource.ref}` : '—') },
  { title: 'What the provider sent', cell: (a) => dash(a.excerpt), wrap: true },
];

/** `query`: `provider_account_id=…`, `payment_order=…` or `payout=…`; `title`: the section's heading and table name. */
export function ProviderAnomalies({ query, title, id }: { query: string; title: string; id: string }) {
  const can = useCan('providers.anomalies');
  const { data, error } = useResource<Anomaly[]>(can ? `/provider-anomalies?${query}&limit=20` : null);
  if (!can) return null;
  const headingId = `anomalies-${id}`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <Loadable data={data} error={error}>
        {(rows) =>
          rows.length === 0 ? (
            <p>None: everything the provider sent could be used.</p>
          ) : (
            <>
              <p className="hint">Refused answers and events: logged, counted in /metrics, and never applied to any money state.</p>
              <TableScroll label={`${title} (table)`}>
                <RowsTable columns={COLUMNS} rows={rows} rowKey={byId} />
              </TableScroll>
            </>
          )
        }
      </Loadable>
    </section>
  );
}
