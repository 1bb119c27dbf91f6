/** "Payout routes": the organization's payout routes (the merchant API's bank connections), read only; the operator adds them with `tijori route create`. */
import { useEffect, useState } from 'react';
import { api, describe } from '../api.js';
import { ErrorLine, Time } from '../components.js';
import { TableScroll } from './money/links.js';
import type { RowOf } from '../wire.js';

type BankConnection = RowOf<'consoleListPayoutRoutes'>;

export function BankConnectionsPage() {
  const [rows, setRows] = useState<BankConnection[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<BankConnection[]>('GET', '/payout-routes').then(setRows, (e) => setError(describe(e)));
  }, []);
  return (
    <>
      <h1>Payout routes</h1>
      <p className="hint">
        The accounts payouts are sent from. A payout names a route by its <code>bank_connection_id</code>, or goes by the default route. Routes are set up by the
        operator.
      </p>
      <ErrorLine error={error} />
      {rows === null ? (
        error ? null : <p>Loading…</p>
      ) : rows.length === 0 ? (
        <p>No payout routes yet: payouts are refused until the operator adds one.</p>
      ) : (
        <TableScroll label="Payout routes">
          <table>
            <thead>
              <tr>
                <th scope="col">Route id (bank_connection_id)</th>
                <th scope="col">Name</th>
                <th scope="col">Modes</th>
                <th scope="col">Provider</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>
                    <code>{r.id}</code>
                  </td>
                  <td>
                    {r.name}
                    {r.is_default ? <span className="badge"> (default)</span> : null}
                  </td>
                  <td>{r.modes.join(', ')}</td>
                  <td>{r.provider}</td>
                  <td>{r.status}</td>
                  <td>
                    <Time iso={r.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}
