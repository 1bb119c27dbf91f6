/** The audit log: every change made in the console, newest first, filtered by action and person. */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { apiPage, describe } from '../api.js';
import { ErrorLine, Time } from '../components.js';

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

export function AuditLogPage() {
  const [rows, setRows] = useState<Entry[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [action, setAction] = useState('');
  const [actor, setActor] = useState('');
  const [filter, setFilter] = useState({ action: '', actor: '' });

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

  useEffect(() => {
    setRows(null);
    apiPage<Entry>(query(null)).then(
      (p) => {
        setRows(p.rows);
        setNext(p.next);
      },
      (e) => setError(describe(e)),
    );
  }, [query]);

  function apply(e: FormEvent) {
    e.preventDefault();
    setFilter({ action: action.trim(), actor: actor.trim() });
  }

  async function more() {
    try {
      const p = await apiPage<Entry>(query(next));
      setRows((r) => [...(r ?? []), ...p.rows]);
      setNext(p.next);
    } catch (e) {
      setError(describe(e));
    }
  }

  return (
    <>
      <h1>Audit log</h1>
      <form className="filters" onSubmit={apply} role="search" aria-label="Filter the audit log">
        <div>
          <label htmlFor="audit-action">Action</label>
          <input id="audit-action" value={action} placeholder="api_client." onChange={(e) => setAction(e.target.value)} />
        </div>
        <div>
          <label htmlFor="audit-actor">Person (email)</label>
          <input id="audit-actor" type="search" value={actor} onChange={(e) => setActor(e.target.value)} />
        </div>
        <button type="submit">Filter</button>
      </form>
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
