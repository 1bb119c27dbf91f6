/** The audit log: every change made in the console, newest first, filtered by action and person. */
import { useState } from 'react';
import { Time } from '../components.js';
import { formatPaise } from '../format.js';
import { Loadable, usePagedList } from '../data.js';
import { byId, type Column, RowsTable } from './columns.js';
import { FilterForm, type FilterField } from './FilteredList.js';
import type { RowOf } from '../wire.js';

type Entry = RowOf<'consoleListAuditLog'>;

/** One value as a person reads it: text as is, amounts in paise as rupees, lists joined, the rest as JSON. */
function shown(field: string, v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && /paise$/.test(field)) return formatPaise(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.length ? v.join(', ') : '(none)';
  return JSON.stringify(v);
}

/**
 * The change as "field: before → after", one line a field (issue #32 item 6); a field only before
 * or only after shows that side alone ("note: — → …" when the entry has a before); unchanged fields are left out.
 */
export function changeLines(before: unknown, after: unknown): string[] {
  const obj = (v: unknown): Record<string, unknown> | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
  const b = obj(before);
  const a = obj(after);
  if ((before !== null && before !== undefined && !b) || (after !== null && after !== undefined && !a)) {
    return [`${shown('', before)} → ${shown('', after)}`];
  }
  const fields = [...new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])];
  const lines: string[] = [];
  for (const f of fields) {
    const inB = b !== null && f in b;
    const inA = a !== null && f in a;
    if (inB && inA) {
      if (JSON.stringify(b[f]) === JSON.stringify(a[f])) continue;
      lines.push(`${f}: ${shown(f, b[f])} → ${shown(f, a[f])}`);
    } else if (inA) lines.push(b ? `${f}: — → ${shown(f, a![f])}` : `${f}: ${shown(f, a![f])}`);
    // Only before: what the entry recorded as context (e.g. the amount of a refund approved), not a removal.
    else lines.push(`${f}: ${shown(f, b![f])}`);
  }
  return lines;
}

const COLUMNS: Column<Entry>[] = [
  { title: 'When', cell: (e) => <Time iso={e.at} /> },
  { title: 'Who', cell: (e) => e.actor },
  { title: 'Action', cell: (e) => <code>{e.action}</code> },
  {
    title: 'Target',
    cell: (e) => (
      <>
        {e.target_type} <code>{e.target_id ?? ''}</code>
      </>
    ),
  },
  {
    title: 'Change',
    wrap: true,
    cell: (e) => {
      const lines = changeLines(e.before, e.after);
      return lines.length === 0 ? '—' : lines.map((l, i) => <div key={i}>{l}</div>);
    },
  },
  { title: 'From', cell: (e) => e.ip ?? '—' },
];

const FILTERS: FilterField[] = [
  { kind: 'text', name: 'action', id: 'audit-action', label: 'Action', placeholder: 'api_client.' },
  { kind: 'text', name: 'actor', id: 'audit-actor', label: 'Person (email)', search: true },
];

/** The list's path for a filter, from `cursor` on (null: the newest). */
function pathOf(filter: Record<string, string>, cursor: string | null): string {
  const q = new URLSearchParams({ limit: '50' });
  if (filter.action) q.set('action', filter.action);
  if (filter.actor) q.set('actor', filter.actor);
  if (cursor) q.set('cursor', cursor);
  return `/audit-log?${q.toString()}`;
}

export function AuditLogPage() {
  const [filter, setFilter] = useState<Record<string, string>>({});

  const { rows, next, error, more, reload } = usePagedList<Entry>((cursor) => pathOf(filter, cursor));

  return (
    <>
      <h1>Audit log</h1>
      {/* The same filter applied again reads the newest entries again. */}
      <FilterForm label="Filter the audit log" fields={FILTERS} onApply={(f) => (pathOf(f, null) === pathOf(filter, null) ? reload() : setFilter(f))} />
      <Loadable data={rows} error={error}>
        {(rows) =>
          rows.length === 0 ? (
            <p>No entries.</p>
          ) : (
            <div className="table-wrap">
              <RowsTable columns={COLUMNS} rows={rows} rowKey={byId} />
            </div>
          )
        }
      </Loadable>
      {next ? (
        <button type="button" className="secondary" onClick={() => void more()}>
          Load older entries
        </button>
      ) : null}
    </>
  );
}
