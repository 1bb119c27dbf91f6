/**
 * The event log (contract §5 "event log and replay", §7): the organization's events newest first,
 * filtered by type, date and delivery state, each with its deliveries and a "Replay"; and the
 * replay of every failed delivery in a time range. Replay needs `events.replay` (admin, developer).
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { api, describe } from '../api.js';
import { ErrorLine, Notice, Time } from '../components.js';
import { zonedInstant } from '../timezone.js';
import { useCan } from '../permissions.js';
import { Callbacks, type Delivery } from './money/Callbacks.js';
import { FilterForm, type FilterField, usePagedList } from './FilteredList.js';
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
  const [detail, setDetail] = useState<{ body: string; deliveries: Delivery[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    api<{ body: string; deliveries: Delivery[] }>('GET', `/events/${encodeURIComponent(eventId)}`).then(setDetail, (e) => setError(describe(e)));
  }, [eventId]);
  useEffect(load, [load]);
  if (error) return <ErrorLine error={error} />;
  if (!detail) return <p>Loading…</p>;
  return (
    <div className="event-detail">
      <p className="hint">The body, exactly as every attempt sends it:</p>
      <pre className="change" aria-label={`Body of event ${eventId}`}>{detail.body}</pre>
      <Callbacks deliveries={detail.deliveries} onReplayed={load} />
    </div>
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

export function EventsPage() {
  const canReplay = useCan('events.replay');
  const [filter, setFilter] = useState<Record<string, string>>({});
  const [open, setOpen] = useState<string | null>(null);
  const [reload, setReload] = useState(0);

  const query = useCallback(
    (cursor: string | null) => {
      const q = new URLSearchParams({ limit: '50' });
      if (filter.type) q.set('type', filter.type);
      if (filter.delivery) q.set('delivery', filter.delivery);
      const from = isoOf(filter.from ?? '');
      const to = isoOf(filter.to ?? '');
      if (from) q.set('from', from);
      if (to) q.set('to', to);
      if (cursor) q.set('cursor', cursor);
      return `/events?${q.toString()}`;
    },
    [filter],
  );
  const { rows, next, error, more } = usePagedList<EventRow>(query, reload);

  return (
    <>
      <h1>Events</h1>
      <p>Every event sent to your callback destinations, newest first. A replay sends the same body again with a new retry schedule.</p>
      <FilterForm label="Filter events" fields={FILTERS} onApply={setFilter} />
      <ErrorLine error={error} />
      {rows === null ? (
        <p>Loading…</p>
      ) : rows.length === 0 ? (
        <p>No events.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Type</th>
                <th scope="col">About</th>
                <th scope="col">Event</th>
                <th scope="col">Delivery</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.event_id}>
                  <td>
                    <Time iso={e.created_at} />
                  </td>
                  <td>
                    <code>{e.type}</code>
                  </td>
                  <td>
                    <About e={e} />
                  </td>
                  <td>
                    <code>{e.event_id}</code>
                  </td>
                  <td>{e.delivery_state === 'none' ? 'no destination' : e.delivery_state}</td>
                  <td>
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
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {open ? <EventDetail key={open} eventId={open} /> : null}
      {next ? (
        <button type="button" className="secondary" onClick={() => void more()}>
          Load older events
        </button>
      ) : null}
      {canReplay ? <ReplayFailedForm onDone={() => setReload((n) => n + 1)} /> : null}
    </>
  );
}
