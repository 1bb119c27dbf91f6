/**
 * What a provider sent that Tijori could not use (issue #22): shown on the provider accounts page
 * per account, and on an order's or payout's page. Nothing here moved money; each row says what
 * was refused. Rendered only for roles with `providers.anomalies` (admins, developers).
 */
import { useEffect, useState } from 'react';
import { api, describe } from '../api.js';
import { ErrorLine, Time } from '../components.js';
import { useCan } from '../permissions.js';
import { dash, TableScroll } from './money/links.js';
import type { RowOf } from '../wire.js';

export type Anomaly = RowOf<'consoleListProviderAnomalies'>;

/** `query`: `provider_account_id=…`, `payment_order=…` or `payout=…`; `title`: the section's heading and table name. */
export function ProviderAnomalies({ query, title, id }: { query: string; title: string; id: string }) {
  const can = useCan('providers.anomalies');
  const [rows, setRows] = useState<Anomaly[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!can) return;
    let live = true;
    api<Anomaly[]>('GET', `/provider-anomalies?${query}&limit=20`).then(
      (r) => live && setRows(r),
      (e) => live && setError(describe(e)),
    );
    return () => {
      live = false;
    };
  }, [query, can]);
  if (!can) return null;
  const headingId = `anomalies-${id}`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <ErrorLine error={error} />
      {rows === null ? (
        error ? null : <p>Loading…</p>
      ) : rows.length === 0 ? (
        <p>None: everything the provider sent could be used.</p>
      ) : (
        <>
          <p className="hint">Refused answers and events: logged, counted in /metrics, and never applied to any money state.</p>
          <TableScroll label={`${title} (table)`}>
            <table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Seen in</th>
                  <th scope="col">Concerns</th>
                  <th scope="col">What the provider sent</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <Time iso={a.created_at} />
                    </td>
                    <td>
                      <code>{a.kind}</code>
                    </td>
                    <td>{dash(a.operation)}</td>
                    <td>{a.resource ? `${a.resource.type === 'payout' ? 'payout' : 'order'} ${a.resource.ref}` : '—'}</td>
                    <td className="change">{dash(a.excerpt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      )}
    </section>
  );
}
