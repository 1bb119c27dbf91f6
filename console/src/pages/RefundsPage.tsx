/**
 * The organization's refunds (contract §6), newest first, filtered by status. A refund waiting in
 * PENDING_REVIEW is approved (→ sent to the provider) or rejected by a reviewer, with a note.
 * Other roles see the list, no buttons.
 */
import { useState } from 'react';
import { api, ApiError, describe } from '../api.js';
import { Status, Time } from '../components.js';
import { useResource } from '../data.js';
import { formatPaise } from '../format.js';
import { DecisionForm, DecisionOutcome, useDecision } from './DecisionForm.js';
import type { Column } from './columns.js';
import { DetailPanel } from './DetailPanel.js';
import { QueueTable } from './QueueTable.js';
import type { RowOf } from '../wire.js';
import { REFUND_STATUSES } from '../generated/server.js';

type Refund = RowOf<'consoleListRefunds'>;

const STATUSES = REFUND_STATUSES;

const COLUMNS: Column<Refund>[] = [
  { title: 'Requested', cell: (r) => <Time iso={r.created_at} /> },
  { title: 'Refund', cell: (r) => <code>{r.refund_id}</code> },
  { title: 'Order', cell: (r) => <code>{r.order_id}</code> },
  { title: 'Amount', cell: (r) => formatPaise(r.amount_paise), numeric: true },
  { title: 'Reason', cell: (r) => r.reason ?? '—' },
  { title: 'Status', cell: (r) => <Status status={r.status} /> },
];

export function RefundsPage({ canDecide }: { canDecide: boolean }) {
  const [status, setStatus] = useState('');
  const path = `/refunds${status ? `?status=${status}` : ''}`;
  const { data: refunds, error: loadError } = useResource<Refund[]>(path);
  const [selected, setSelected] = useState<string | null>(null);
  // A decision reads the refunds again, and the order they belong to.
  const { busy, error, done, decide: run } = useDecision('/refunds', '/payment-orders');

  const refund = refunds?.find((r) => r.id === selected) ?? null;

  async function decide(action: 'approve' | 'reject', r: Refund, note: string) {
    await run(
      async () => {
        const after = await api<Refund>('POST', `/refunds/${r.id}/${action}`, { note });
        return after.status === 'REJECTED' ? `Refund ${after.refund_id} rejected.` : `Refund ${after.refund_id} approved: it is sent to the provider (${after.status}).`;
      },
      async (e) => {
        const rows = await api<Refund[]>('GET', path).catch(() => null);
        const now = rows?.find((x) => x.id === r.id);
        // Someone else decided first: say who.
        return e instanceof ApiError && e.status === 409 && now?.reviewed_by ? `This refund was already decided by ${now.reviewed_by} (${now.status}). Nothing was changed.` : describe(e);
      },
    );
  }

  return (
    <>
      <h1>Refunds</h1>
      <div className="filters">
        <div>
          <label htmlFor="refund-status">Status</label>
          <select id="refund-status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">All</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
      </div>
      <DecisionOutcome error={error ?? loadError} done={done} />
      {refund ? (
        <DetailPanel titleId="refund-detail-title" title={`Refund ${refund.refund_id}`} onClose={() => setSelected(null)}>
          <dl className="facts">
            <dt>Order</dt>
            <dd>
              <code>{refund.order_id}</code>
            </dd>
            <dt>Amount</dt>
            <dd>{formatPaise(refund.amount_paise)}</dd>
            <dt>Reason</dt>
            <dd>{refund.reason ?? '—'}</dd>
            <dt>Status</dt>
            <dd>
              <Status status={refund.status} />
              {refund.reviewed_by ? ` (reviewed by ${refund.reviewed_by})` : ''}
            </dd>
            {refund.review_note ? (
              <>
                <dt>Reviewer's note</dt>
                <dd>{refund.review_note}</dd>
              </>
            ) : null}
            {refund.failure_reason ? (
              <>
                <dt>Failure</dt>
                <dd>{refund.failure_reason}</dd>
              </>
            ) : null}
          </dl>
          {canDecide && refund.status === 'PENDING_REVIEW' ? (
            <DecisionForm
              key={refund.id}
              busy={busy}
              hint="Approving sends the refund to the provider; rejecting frees the amount to be refunded again."
              actions={[
                {
                  label: 'Approve',
                  confirm: { question: `Approve the refund ${refund.refund_id}: ${formatPaise(refund.amount_paise)} goes back to the payer?`, yes: `Yes, approve ${formatPaise(refund.amount_paise)}` },
                  run: (note) => void decide('approve', refund, note),
                },
                { label: 'Reject', danger: true, run: (note) => void decide('reject', refund, note) },
              ]}
            />
          ) : null}
        </DetailPanel>
      ) : null}
      <QueueTable rows={refunds} error={loadError} empty={`No refunds${status ? ` with status ${status}` : ''}.`} columns={COLUMNS} openLabel={(r) => `Open refund ${r.refund_id}`} onOpen={setSelected} />
    </>
  );
}
