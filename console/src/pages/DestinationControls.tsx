/**
 * A callback destination's developer controls (issue #19 item 2, #21 item 4): the event types it
 * subscribes to (checkboxes), "Send a test event", re-enabling after it was disabled, and its
 * delivery log (each attempt's status code, answer excerpt, time and duration) with "Replay".
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { api, apiPage, describe } from '../api.js';
import { ErrorLine, Notice, Time } from '../components.js';
import { dash, TableScroll } from './money/links.js';
import { ReplayButton } from './ReplayButton.js';
import type { RowOf } from '../wire.js';

export type DestinationState = RowOf<'consoleListDestinations'>;

type LogRow = RowOf<'consoleDestinationDeliveryLog'>;

function Subscriptions({ d, title, canManage, onSaved }: { d: DestinationState; title: string; canManage: boolean; onSaved: () => void }) {
  const [chosen, setChosen] = useState<string[]>(d.events);
  useEffect(() => setChosen(d.events), [d.events.join(',')]);
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

function DeliveryLog({ kind, title, refresh }: { kind: string; title: string; refresh: number }) {
  const [rows, setRows] = useState<LogRow[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    apiPage<LogRow>(`/destinations/${kind}/deliveries?limit=20`).then(
      (p) => {
        setRows(p.rows);
        setNext(p.next);
      },
      (e) => setError(describe(e)),
    );
  }, [kind]);
  useEffect(load, [load, refresh]);
  async function more() {
    try {
      const p = await apiPage<LogRow>(`/destinations/${kind}/deliveries?limit=20&cursor=${encodeURIComponent(next ?? '')}`);
      setRows((r) => [...(r ?? []), ...p.rows]);
      setNext(p.next);
    } catch (e) {
      setError(describe(e));
    }
  }
  return (
    <section aria-labelledby={`${kind}-log-title`}>
      <h3 id={`${kind}-log-title`}>{title} delivery log</h3>
      <button type="button" className="secondary" onClick={load}>
        Refresh {title} delivery log
      </button>
      <ErrorLine error={error} />
      {rows === null ? (
        <p>Loading…</p>
      ) : rows.length === 0 ? (
        <p>Nothing was sent to it yet.</p>
      ) : (
        <TableScroll label={`${title} delivery attempts`}>
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Delivery</th>
                <th scope="col">Attempt</th>
                <th scope="col">When</th>
                <th scope="col">Answer</th>
                <th scope="col">Time taken</th>
                <th scope="col">Excerpt</th>
                <th scope="col">Replay</th>
              </tr>
            </thead>
            <tbody>
              {rows.flatMap((d) => {
                const attempts = d.attempts.length > 0 ? d.attempts : [null];
                return attempts.map((a, i) => (
                  <tr key={`${d.delivery_id}-${a?.attempt_no ?? 0}`}>
                    <td>
                      {i === 0 ? (
                        <>
                          <code>{d.event}</code> <code className="hint">{d.event_id}</code>
                        </>
                      ) : null}
                    </td>
                    <td>{i === 0 ? d.status : null}</td>
                    <td>{a ? a.attempt_no : 'not attempted yet'}</td>
                    <td>{a ? <Time iso={a.attempted_at} /> : <Time iso={d.created_at} />}</td>
                    <td>{a ? (a.status_code ?? dash(a.error)) : '—'}</td>
                    <td>{a ? `${a.latency_ms} ms` : '—'}</td>
                    <td className="change">{a ? dash(a.response_snippet) : '—'}</td>
                    <td>{i === 0 ? <ReplayButton eventId={d.event_id} target={kind} label={`Replay ${d.event} ${d.event_id} to the ${title} destination`} /> : null}</td>
                  </tr>
                ));
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
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
  const [refresh, setRefresh] = useState(0);
  async function run(fn: () => Promise<string>) {
    setMessage(null);
    setError(null);
    try {
      setMessage(await fn());
      setRefresh((n) => n + 1);
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
      <DeliveryLog kind={d.kind} title={title} refresh={refresh} />
    </div>
  );
}
