/**
 * A callback destination's developer controls (issue #19 item 2, #21 item 4): the event types it
 * subscribes to (checkboxes), "Send a test event", re-enabling after it was disabled, and its
 * delivery log (each attempt's status code, answer excerpt, time and duration) with "Replay".
 */
import { type FormEvent, useState } from 'react';
import { api, describe } from '../api.js';
import { ErrorLine, Notice, Time } from '../components.js';
import { Loadable, useInvalidate, usePagedList } from '../data.js';
import { type Column, RowsTable } from './columns.js';
import { dash, TableScroll } from './money/links.js';
import { ReplayButton } from './ReplayButton.js';
import type { RowOf } from '../wire.js';

export type DestinationState = RowOf<'consoleListDestinations'>;

type LogRow = RowOf<'consoleDestinationDeliveryLog'>;

function Subscriptions({ d, title, canManage, onSaved }: { d: DestinationState; title: string; canManage: boolean; onSaved: () => void }) {
  // Starts from the saved choice; only this form changes it, so after a save the two agree.
  const [chosen, setChosen] = useState<string[]>(d.events);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function save(e: FormEvent) {
    e.preventDefault();
    setMessage(null);
    setError(null);
    try {
      await api('PUT', `/destinations/${d.kind}/events`, { events: chosen });
      setMessage(`${title} event types saved.`);
      onSaved();
    } catch (err) {
      setError(describe(err));
    }
  }
  return (
    <form onSubmit={(e) => void save(e)} aria-label={`${title} event types`}>
      <fieldset className="events-check">
        <legend>{title} event types</legend>
        {d.available_events.map((ev) => (
          <label key={ev}>
            <input
              type="checkbox"
              disabled={!canManage}
              checked={chosen.includes(ev)}
              onChange={(e) => setChosen(e.target.checked ? [...chosen, ev] : chosen.filter((c) => c !== ev))}
            />
            {ev}
          </label>
        ))}
      </fieldset>
      {canManage ? <button type="submit">Save {title} event types</button> : null}
      <Notice message={message} />
      <ErrorLine error={error} />
    </form>
  );
}

/** One line of the delivery log's table: an attempt of a delivery (or the delivery not attempted yet). */
interface LogLine {
  d: LogRow;
  a: LogRow['attempts'][number] | null;
  first: boolean;
}

function logColumns(kind: string, title: string): Column<LogLine>[] {
  return [
    {
      title: 'Event',
      cell: ({ d, first }) =>
        first ? (
          <>
            <code>{d.event}</code> <code className="hint">{d.event_id}</code>
          </>
        ) : null,
    },
    { title: 'Delivery', cell: ({ d, first }) => (first ? d.status : null) },
    { title: 'Attempt', cell: ({ a }) => (a ? a.attempt_no : 'not attempted yet') },
    { title: 'When', cell: ({ d, a }) => (a ? <Time iso={a.attempted_at} /> : <Time iso={d.created_at} />) },
    { title: 'Answer', cell: ({ a }) => (a ? (a.status_code ?? dash(a.error)) : '—') },
    { title: 'Time taken', cell: ({ a }) => (a ? `${a.latency_ms} ms` : '—') },
    { title: 'Excerpt', cell: ({ a }) => (a ? dash(a.response_snippet) : '—'), wrap: true },
    { title: 'Replay', cell: ({ d, first }) => (first ? <ReplayButton eventId={d.event_id} target={kind} label={`Replay ${d.event} ${d.event_id} to the ${title} destination`} /> : null) },
  ];
}

function DeliveryLog({ kind, title }: { kind: string; title: string }) {
  const { rows, next, error, more, reload } = usePagedList<LogRow>((cursor) => `/destinations/${kind}/deliveries?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
  const lines = (rows ?? []).flatMap((d) => (d.attempts.length > 0 ? d.attempts : [null]).map((a, i) => ({ d, a, first: i === 0 })));
  return (
    <section aria-labelledby={`${kind}-log-title`}>
      <h3 id={`${kind}-log-title`}>{title} delivery log</h3>
      <button type="button" className="secondary" onClick={reload}>
        Refresh {title} delivery log
      </button>
      <Loadable data={rows} error={error}>
        {(rows) =>
          rows.length === 0 ? (
            <p>Nothing was sent to it yet.</p>
          ) : (
            <TableScroll label={`${title} delivery attempts`}>
              <RowsTable columns={logColumns(kind, title)} rows={lines} rowKey={(l) => `${l.d.delivery_id}-${l.a?.attempt_no ?? 0}`} />
            </TableScroll>
          )
        }
      </Loadable>
      {next ? (
        <button type="button" className="secondary" onClick={() => void more()}>
          Load older {title} deliveries
        </button>
      ) : null}
    </section>
  );
}

export function DestinationControls({ d, title, canManage, onChanged }: { d: DestinationState; title: string; canManage: boolean; onChanged: () => void }) {
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const invalidate = useInvalidate();
  async function run(fn: () => Promise<string>) {
    setMessage(null);
    setError(null);
    try {
      setMessage(await fn());
      // The delivery log shows what was just queued.
      void invalidate('/destinations');
    } catch (e) {
      setError(describe(e));
    }
  }
  return (
    <div className="panel" aria-label={`${title} destination controls`} role="group">
      {d.status === 'disabled' ? (
        <p className="state-disabled">
          Disabled {d.disabled_at ? <Time iso={d.disabled_at} /> : null}: every delivery failed for 3 days. Callbacks are kept (parked) and sent when it is re-enabled.
        </p>
      ) : d.failing_since ? (
        <p className="hint">
          Failing since <Time iso={d.failing_since} /> (disabled after 3 days without a successful delivery).
        </p>
      ) : null}
      <Subscriptions d={d} title={title} canManage={canManage} onSaved={onChanged} />
      {canManage ? (
        <p>
          <button
            type="button"
            className="secondary"
            onClick={() =>
              void run(async () => {
                const r = await api<{ event_id: string }>('POST', `/destinations/${d.kind}/test`);
                return `Test event ${r.event_id} queued for the ${title} destination.`;
              })
            }
          >
            Send a test event to {title}
          </button>{' '}
          {d.status === 'disabled' ? (
            <button
              type="button"
              onClick={() =>
                void run(async () => {
                  const r = await api<{ resumed: number }>('POST', `/destinations/${d.kind}/enable`);
                  onChanged();
                  return `${title} destination enabled; ${r.resumed} kept callback(s) are being sent.`;
                })
              }
            >
              Re-enable {title} destination
            </button>
          ) : null}
        </p>
      ) : null}
      <Notice message={message} />
      <ErrorLine error={error} />
      <DeliveryLog kind={d.kind} title={title} />
    </div>
  );
}
