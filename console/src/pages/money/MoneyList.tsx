/**
 * The list part of the money pages (payment orders, payouts): a "Search" field for any reference,
 * status and date filters, newest first, "Previous"/"Next" pages over the API's keyset cursors
 * (a page stays right while new rows arrive), a row's reference opens its page.
 */
import { type FormEvent, useState } from 'react';
import { Loadable } from '../../data.js';
import { byId, type Column, RowsTable } from '../columns.js';
import { Pager, useCursorPages } from '../CursorPages.js';
import { TableScroll } from './links.js';
import { words } from '../../format.js';
import { addDays, timeZone, useTimeZone, zonedDay, zonedInstant, zoneName } from '../../timezone.js';

interface Filter {
  search: string;
  status: string;
  from: string;
  to: string;
}

const EMPTY: Filter = { search: '', status: '', from: '', to: '' };
const PAGE_SIZE = 25;

/** A date picked → the instant its day starts in the chosen time zone (the API takes instants). */
function dayStart(date: string, plusDays = 0): string {
  return zonedInstant(date, timeZone(), plusDays) ?? date;
}

/** The date presets people use (issue #32 item 7), as From and To days in the chosen zone. */
export function presetDays(preset: string, now = new Date()): { from: string; to: string } {
  const today = zonedDay(now);
  if (preset === 'yesterday') return { from: addDays(today, -1), to: addDays(today, -1) };
  if (preset === 'last7') return { from: addDays(today, -6), to: today };
  if (preset === 'month') return { from: `${today.slice(0, 8)}01`, to: today };
  return { from: today, to: today };
}

const PRESETS = [
  ['today', 'Today'],
  ['yesterday', 'Yesterday'],
  ['last7', 'Last 7 days'],
  ['month', 'This month'],
] as const;

export function listQuery(f: Filter): URLSearchParams {
  const q = new URLSearchParams();
  if (f.search) q.set('search', f.search);
  if (f.status) q.set('status', f.status);
  if (f.from) q.set('created_from', dayStart(f.from));
  if (f.to) q.set('created_to', dayStart(f.to, 1));
  return q;
}

export function MoneyList<T extends { id: string }>(props: {
  title: string;
  endpoint: string;
  statuses: readonly string[];
  columns: Column<T>[];
  searchHint: string;
  noun: string;
}) {
  const { endpoint, noun } = props;
  const zone = useTimeZone();
  const [form, setForm] = useState<Filter>(EMPTY);
  const [filter, setFilter] = useState<Filter>(EMPTY);
  const paramsOf = (f: Filter) => {
    const q = listQuery(f);
    q.set('limit', String(PAGE_SIZE));
    return q.toString();
  };
  const { rows, error, pager, restart } = useCursorPages<T>(endpoint, paramsOf(filter));
  // A new filter starts at its first page; the same one applied again reads its first page again.
  const show = (next: Filter) => {
    setFilter(next);
    restart(paramsOf(next));
  };

  function apply(e: FormEvent) {
    e.preventDefault();
    show({ ...form, search: form.search.trim() });
  }

  const set = (k: keyof Filter) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  const id = (k: string) => `${noun}-${k}`;
  return (
    <>
      <h1>{props.title}</h1>
      <form className="filters" onSubmit={apply} role="search" aria-label={`Filter ${props.title.toLowerCase()}`}>
        <div>
          <label htmlFor={id('search')}>Search</label>
          <input id={id('search')} type="search" value={form.search} placeholder={props.searchHint} onChange={set('search')} spellCheck={false} />
        </div>
        <div>
          <label htmlFor={id('status')}>Status</label>
          <select id={id('status')} value={form.status} onChange={set('status')}>
            <option value="">Any</option>
            {props.statuses.map((s) => (
              <option key={s} value={s}>
                {words(s)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={id('from')}>From</label>
          <input id={id('from')} type="date" value={form.from} onChange={set('from')} />
        </div>
        <div>
          <label htmlFor={id('to')}>To</label>
          <input id={id('to')} type="date" value={form.to} onChange={set('to')} />
        </div>
        <button type="submit">Apply</button>
        <fieldset className="presets">
          <legend>Dates ({zoneName(zone)})</legend>
          {PRESETS.map(([p, name]) => (
            <button
              key={p}
              type="button"
              className="secondary"
              onClick={() => {
                const next = { ...form, ...presetDays(p), search: form.search.trim() };
                setForm(next);
                show(next);
              }}
            >
              {name}
            </button>
          ))}
        </fieldset>
      </form>
      <p className="export">
        {/* The API streams every row the applied filter matches (not only this page); the session cookie goes with it. */}
        <a href={`/console/api${endpoint}/export?${listQuery(filter).toString()}`} download>
          Export CSV
        </a>
      </p>
      <Loadable data={rows} error={error}>
        {(rows) =>
          rows.length === 0 ? (
            <p>No {noun} match.</p>
          ) : (
            <TableScroll label={props.title}>
              <RowsTable columns={props.columns} rows={rows} rowKey={byId} alignTitles />
            </TableScroll>
          )
        }
      </Loadable>
      <Pager label={`Pages of ${props.title.toLowerCase()}`} pager={pager} />
    </>
  );
}
