/** The audit log: every change made in the console, newest first, filtered by action and person. */
import { useCallback, useState } from 'react';
import { ErrorLine, Time } from '../components.js';
import { FilterForm, type FilterField, usePagedList } from './FilteredList.js';

interface Entry {
  id: string;
  at: string;
  actor: string;
  action: string;
  target_type: string;
  target_id: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

function change(e: Entry): string {
  const fmt = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));
  const before = fmt(e.before);
  const after = fmt(e.after);
  return before && after ? `${before} → ${after}` : before || after || '—';
}

const FILTERS: FilterField[] = [
  { kind: 'text', name: 'action', id: 'audit-action', label: 'Action', placeholder: 'api_client.' },
  { kind: 'text', name: 'actor', id: 'audit-actor', label: 'Person (email)', search: true },
];

export function AuditLogPage() {
  const [filter, setFilter] = useState<Record<string, string>>({});

  const query = useCallback(
    (cursor: string | null) => {
      const q = new URLSearchParams({ limit: '50' });
      if (filter.action) q.set('action', filter.action);
      if (filter.actor) q.set('actor', filter.actor);
      if (cursor) q.set('cursor', cursor);
      return `/audit-log?${q.toString()}`;
    },
    [filter],
  );
  const { rows, next, error, more } = usePagedList<Entry>(query);

  return (
    <>
      <h1>Audit log</h1>
      <FilterForm label="Filter the audit log" fields={FILTERS} onApply={setFilter} />
      <ErrorLine error={error} />
      {rows === null ? (
        <p>Loading…</p>
      ) : rows.length === 0 ? (
        <p>No entries.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Change</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id}>
                  <td>
                    <Time iso={e.at} />
                  </td>
                  <td>{e.actor}</td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td>
                    {e.target_type} <code>{e.target_id ?? ''}</code>
                  </td>
                  <td className="change">{change(e)}</td>
                  <td>{e.ip ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next ? (
        <button type="button" className="secondary" onClick={() => void more()}>
          Load older entries
        </button>
      ) : null}
    </>
  );
}
