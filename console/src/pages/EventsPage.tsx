/**
 * The event log (contract §5 "event log and replay", §7): the organization's events newest first,
 * filtered by type, date and delivery state, each with its deliveries and a "Replay"; and the
 * replay of every failed delivery in a time range. Replay needs `events.replay` (admin, developer).
 */
import { type FormEvent, useState } from 'react';
import { api, describe } from '../api.js';
import { ErrorLine, Notice, Time } from '../components.js';
import { zonedInstant } from '../timezone.js';
import { useCan } from '../permissions.js';
import { Callbacks, type Delivery } from './money/Callbacks.js';
import { Loadable, useInvalidate, usePagedList, useResource } from '../data.js';
import { type Column, RowsTable } from './columns.js';
import { FilterForm, type FilterField } from './FilteredList.js';
import { AppLink } from './money/links.js';
import { ReplayButton } from './ReplayButton.js';
import type { RowOf } from '../wire.js';
import { EVENT_TYPES } from '../generated/server.js';

type EventRow = RowOf<'consoleListEvents'>;

/** The order or payout an event is about, linked to its page. */
function About({ e }: { e: EventRow }) {
  if (e.aggregate_type === 'payment_order') return <AppLink to={`/payment-orders/${encodeURIComponent(e.aggregate_id)}`}>Order {e.reference ?? e.aggregate_id}</AppLink>;
  if (e.aggregate_type === 'payout') return <AppLink to={`/payouts/${encodeURIComponent(e.aggregate_id)}`}>Payout {e.reference ?? e.aggregate_id}</AppLink>;
  if (e.aggregate_type === 'settlement') return <>Settlement {e.reference ?? e.aggregate_id}</>;
  return <>—</>;
}

const TYPES = EVENT_TYPES;

/** A date-time field's value, read in the chosen time zone, as ISO 8601 (what the API expects). */
function isoOf(local: string): string | null {
  if (!local) return null;
  return zonedInstant(local.slice(0, 16));
}

function EventDetail({ eventId }: { eventId: string }) {
  const { data, error, reload } = useResource<{ body: string; deliveries: Delivery[] }>(`/events/${encodeURIComponent(eventId)}`);
  return (
    <Loadable data={data} error={error}>
      {(detail) => (
        <div className="event-detail">
          <p className="hint">The body, exactly as every attempt sends it:</p>
          <pre className="change" aria-label={`Body of event ${eventId}`}>{detail.body}</pre>
          <Callbacks deliveries={detail.deliveries} onReplayed={reload} />
        </div>
      )}
    </Loadable>
  );
}

function ReplayFailedForm({ onDone }: { onDone: () => void }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setMessage(null);
    setError(null);
    const f = isoOf(from);
    const t = isoOf(to);
    if (!f || !t) {
      setError('Give both ends of the range.');
      return;
    }
    try {
      const r = await api<{ events: number; deliveries: number }>('POST', '/events/replay-failed', { from: f, to: t });
      setMessage(`${r.deliveries} failed delivery(ies) of ${r.events} event(s) queued again.`);
      onDone();
    } catch (err) {
      setError(describe(err));
    }
  }
  return (
    <form className="panel filters" onSubmit={(e) => void submit(e)} aria-labelledby="replay-failed-title">
      <h2 id="replay-failed-title">Replay failed deliveries</h2>
      <div>
        <label htmlFor="replay-from">Failed from</label>
        <input id="replay-from" type="datetime-local" required value={from} onChange={(e) => setFrom(e.target.value)} />
      </div>
      <div>
        <label htmlFor="replay-to">Failed until</label>
        <input id="replay-to" type="datetime-local" required value={to} onChange={(e) => setTo(e.target.value)} />
      </div>
      <button type="submit">Replay failed deliveries</button>
      <Notice message={message} />
      <ErrorLine error={error} />
    </form>
  );
}

const FILTERS: FilterField[] = [
  { kind: 'select', name: 'type', id: 'events-type', label: 'Event type', options: [{ value: '', label: 'Any' }, ...TYPES.map((t) => ({ value: t, label: t }))] },
  {
    kind: 'select',
    name: 'delivery',
    id: 'events-delivery',
    label: 'Delivery',
    options: [
      { value: '', label: 'Any' },
      { value: 'failed', label: 'Failed' },
      { value: 'pending', label: 'Pending' },
      { value: 'delivered', label: 'Delivered' },
    ],
  },
  { kind: 'datetime', name: 'from', id: 'events-from', label: 'From' },
  { kind: 'datetime', name: 'to', id: 'events-to', label: 'To' },
];

/** The list's path for a filter, from `cursor` on (null: the newest). */
function pathOf(filter: Record<string, string>, cursor: string | null): string {
  const q = new URLSearchParams({ limit: '50' });
  if (filter.type) q.set('type', filter.type);
  if (filter.delivery) q.set('delivery', filter.delivery);
  const from = isoOf(filter.from ?? '');
  const to = isoOf(filter.to ?? '');
  if (from) q.set('from', from);
  if (to) q.set('to', to);
  if (cursor) q.set('cursor', cursor);
  return `/events?${q.toString()}`;
}

export function EventsPage() {
  const canReplay = useCan('events.replay');
  const [filter, setFilter] = useState<Record<string, string>>({});
  const [open, setOpen] = useState<string | null>(null);
  const { rows, next, error, more, reload } = usePagedList<EventRow>((cursor) => pathOf(filter, cursor));
  const invalidate = useInvalidate();

  const columns: Column<EventRow>[] = [
    { title: 'When', cell: (e) => <Time iso={e.created_at} /> },
    { title: 'Type', cell: (e) => <code>{e.type}</code> },
    { title: 'About', cell: (e) => <About e={e} /> },
    { title: 'Event', cell: (e) => <code>{e.event_id}</code> },
    { title: 'Delivery', cell: (e) => (e.delivery_state === 'none' ? 'no destination' : e.delivery_state) },
    {
      title: 'Actions',
      cell: (e) => (
        <>
          <button
            type="button"
            className="secondary"
            aria-expanded={open === e.event_id}
            aria-label={`Deliveries of event ${e.event_id}`}
            onClick={() => setOpen(open === e.event_id ? null : e.event_id)}
          >
            Deliveries
          </button>{' '}
          {/* Replay sends to a destination: none was there for this event, so nothing to replay. */}
          {e.delivery_state === 'none' ? null : <ReplayButton eventId={e.event_id} label={`Replay event ${e.event_id}`} />}
        </>
      ),
    },
  ];

  return (
    <>
      <h1>Events</h1>
      <p>Every event sent to your callback destinations, newest first. A replay sends the same body again with a new retry schedule.</p>
      {/* The same filter applied again reads the newest events again. */}
      <FilterForm label="Filter events" fields={FILTERS} onApply={(f) => (pathOf(f, null) === pathOf(filter, null) ? reload() : setFilter(f))} />
      <Loadable data={rows} error={error}>
        {(rows) =>
          rows.length === 0 ? (
            <p>No events.</p>
          ) : (
            <div className="table-wrap">
              <RowsTable columns={columns} rows={rows} rowKey={(e) => e.event_id} />
            </div>
          )
        }
      </Loadable>
      {open ? <EventDetail key={open} eventId={open} /> : null}
      {next ? (
        <button type="button" className="secondary" onClick={() => void more()}>
          Load older events
        </button>
      ) : null}
      {canReplay ? <ReplayFailedForm onDone={() => void invalidate('/events')} /> : null}
    </>
  );
}
