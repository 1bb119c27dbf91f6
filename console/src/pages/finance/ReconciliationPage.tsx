/**
 * "Reconciliation" (contract §9): where a provider and Tijori disagree — each break's kind in
 * words, its settlement, order or refund, the amount Tijori expected against what the provider
 * reported, when it was found and whether it is resolved — filtered by status and kind. A reviewer
 * (or admin) resolves a break with a written note (audited); a resolved break stays listed with its
 * note. Other roles see no "Resolve" button (the API refuses them too).
 */
import { type FormEvent, useState } from 'react';
import { api, describe } from '../../api.js';
import { ErrorLine, Notice, Time } from '../../components.js';
import { formatPaise } from '../../format.js';
import { type Column, RowsTable } from '../columns.js';
import { AppLink, TableScroll } from '../money/links.js';
import { Loadable, useInvalidate, useResource } from '../../data.js';
import { BREAK_KINDS, matchWords, shortId } from './words.js';
import type { RowOf } from '../../wire.js';

type Break = RowOf<'consoleListReconBreaks'>;

const amount = (p: number | null) => (p === null ? '—' : formatPaise(p));

function ResolveForm({ b, onDone, onCancel }: { b: Break; onDone: (after: Break) => void; onCancel: () => void }) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!note.trim()) {
      setError('Write what you found and did: the note is kept with the break.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onDone(await api<Break>('POST', `/recon/breaks/${encodeURIComponent(b.break_id)}/resolve`, { note: note.trim() }));
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  }
  const id = `note-${b.break_id}`;
  return (
    <form className="resolve-form" onSubmit={(e) => void submit(e)}>
      <label htmlFor={id}>Resolution note</label>
      <textarea id={id} value={note} maxLength={2000} aria-required="true" onChange={(e) => {
          setNote(e.target.value);
          setError(null);
        }} />
      <ErrorLine error={error} />
      <div>
        <button type="submit" disabled={busy}>
          Resolve break
        </button>{' '}
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function ReconciliationPage({ canResolve }: { canResolve: boolean }) {
  const [status, setStatus] = useState('open');
  const [kind, setKind] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const invalidate = useInvalidate();
  const query = new URLSearchParams();
  if (status) query.set('status', status);
  if (kind) query.set('kind', kind);
  const qs = query.toString();
  const { data, error } = useResource<Break[]>(`/recon/breaks${qs ? `?${qs}` : ''}`);

  const columns: Column<Break>[] = [
    { title: 'Kind', cell: (b) => matchWords(b.kind) },
    { title: 'Settlement', cell: (b) => (b.settlement_id ? <AppLink to={`/settlements/${b.settlement_id}`} label={`Settlement ${shortId(b.settlement_id)}`}><code>{shortId(b.settlement_id)}</code></AppLink> : '—') },
    {
      title: 'Order or refund',
      cell: (b) => (
        <>
          {b.order_id ? <AppLink to={`/payment-orders/${encodeURIComponent(b.order_id)}`}><code>{b.order_id}</code></AppLink> : null}
          {b.refund_id ? <> Refund <code>{b.refund_id}</code></> : null}
          {b.payout_id ? <AppLink to={`/payouts/${encodeURIComponent(b.payout_id)}`}>Payout <code>{shortId(b.payout_id)}</code></AppLink> : null}
          {!b.payout_id && b.provider_ref ? <> Provider payout <code>{b.provider_ref}</code></> : null}
          {!b.order_id && !b.refund_id && !b.payout_id && !b.provider_ref ? '—' : null}
        </>
      ),
    },
    { title: 'Expected', numeric: true, cell: (b) => amount(b.expected_paise) },
    { title: 'Reported', numeric: true, cell: (b) => amount(b.reported_paise) },
    { title: 'Detected at', cell: (b) => <Time iso={b.detected_at} /> },
    {
      title: 'Status',
      cell: (b) =>
        b.status === 'open' ? (
          'Open'
        ) : (
          <>
            Resolved by {b.resolved_by}
            {b.resolved_at ? <> on <Time iso={b.resolved_at} /></> : null}: <q>{b.resolution_note}</q>
          </>
        ),
    },
  ];
  if (canResolve) {
    columns.push({
      title: 'Action',
      actions: true,
      cell: (b) =>
        b.status !== 'open' ? null : open === b.break_id ? (
          <ResolveForm
            b={b}
            onCancel={() => setOpen(null)}
            onDone={(after) => {
              setOpen(null);
              setNotice(`Resolved the break (${matchWords(after.kind)})${after.order_id ? ` of ${after.order_id}` : ''}.`);
              // A resolution reads the breaks again.
              void invalidate('/recon');
            }}
          />
        ) : (
          <button type="button" onClick={() => setOpen(b.break_id)} aria-label={`Resolve the break (${matchWords(b.kind)})${b.order_id ? ` of ${b.order_id}` : ''}`}>
            Resolve
          </button>
        ),
    });
  }

  return (
    <>
      <h1>Reconciliation</h1>
      <p className="hint">
        A break is a place where a provider's settlement and Tijori disagree. Look at the order and the settlement, put it right where it lives (with the provider, or a
        refund), then resolve the break with a note saying what you found.{canResolve ? '' : ' Reviewers and admins resolve breaks.'}
      </p>
      <form className="filters breaks-filter" role="search" aria-label="Filter breaks" onSubmit={(e) => e.preventDefault()}>
        <div>
          <label htmlFor="break-status">Status</label>
          <select id="break-status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any</option>
            <option value="open">Open</option>
            <option value="resolved">Resolved</option>
          </select>
        </div>
        <div>
          <label htmlFor="break-kind">Kind</label>
          <select id="break-kind" value={kind} onChange={(e) => setKind(e.target.value)}>
            <option value="">Any</option>
            {BREAK_KINDS.map((k) => (
              <option key={k} value={k}>
                {matchWords(k)}
              </option>
            ))}
          </select>
        </div>
      </form>
      <Notice message={notice} />
      <Loadable data={data} error={error}>
        {(rows) =>
          rows.length === 0 ? (
            <p>No breaks match.</p>
          ) : (
            <TableScroll label="Breaks">
              <RowsTable columns={columns} rows={rows} rowKey={(b) => b.break_id} alignTitles />
            </TableScroll>
          )
        }
      </Loadable>
    </>
  );
}
