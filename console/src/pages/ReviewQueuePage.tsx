/**
 * The operations review queue (contract §6): open items first; for each, what the provider reported
 * and what the payer claimed (UTR). A reviewer confirms with a written note of the evidence
 * (→ MANUALLY_CONFIRMED) or rejects (order unchanged). Other roles see the list, no buttons.
 */
import { useState } from 'react';
import { api, ApiError, describe } from '../api.js';
import { Time } from '../components.js';
import { useResource } from '../data.js';
import { formatPaise } from '../format.js';
import { DecisionForm, DecisionOutcome, useDecision } from './DecisionForm.js';
import type { Column } from './columns.js';
import { DetailPanel } from './DetailPanel.js';
import { QueueTable } from './QueueTable.js';
import type { RowOf } from '../wire.js';

type ReviewItem = RowOf<'consoleListReviewItems'>;

const KINDS: Record<ReviewItem['kind'], string> = {
  late_confirmation: 'Paid after the order closed',
  confirmation_mismatch: 'Reported amount or reference differs',
  unconfirmed_payer_reference: 'Payer gave a UTR, provider never confirmed',
};

function reported(r: ReviewItem['provider_reported']): string {
  if (!r) return 'Nothing (no provider confirmation)';
  const parts = [];
  if (typeof r.amount_paise === 'number') parts.push(formatPaise(r.amount_paise));
  if (typeof r.utr === 'string') parts.push(`UTR ${r.utr}`);
  if (typeof r.provider_reference === 'string') parts.push(`ref ${r.provider_reference}`);
  // "callback:<event id>" or "live_check": the kind of news is what a reviewer weighs.
  if (typeof r.source === 'string') parts.push(`via ${r.source.split(':')[0]?.replace('_', ' ')}`);
  return parts.join(' · ') || '—';
}

const COLUMNS: Column<ReviewItem>[] = [
  { title: 'Opened', cell: (i) => <Time iso={i.created_at} /> },
  { title: 'Order', cell: (i) => <code>{i.order?.order_id ?? '—'}</code> },
  { title: 'Why', cell: (i) => KINDS[i.kind] },
  { title: 'Order amount', cell: (i) => (i.order ? formatPaise(i.order.amount_paise) : '—'), numeric: true },
  { title: 'Provider reported', cell: (i) => reported(i.provider_reported) },
  { title: "Payer's UTR", cell: (i) => i.payer_claimed_utr ?? '—' },
  { title: 'Status', cell: (i) => i.status },
];

export function ReviewQueuePage({ canDecide }: { canDecide: boolean }) {
  const [status, setStatus] = useState('');
  const { data: items, error: loadError } = useResource<ReviewItem[]>(`/review-items${status ? `?status=${status}` : ''}`);
  const [selected, setSelected] = useState<string | null>(null);
  // A decision reads the queue again, and the order it confirmed.
  const { busy, error, done, decide: run } = useDecision('/review-items', '/payment-orders');

  const item = items?.find((i) => i.id === selected) ?? null;

  async function decide(action: 'confirm' | 'reject', id: string, note: string) {
    await run(
      async () => {
        const r = await api<ReviewItem>('POST', `/review-items/${id}/${action}`, { note });
        return r.status === 'confirmed' ? `Payment confirmed for order ${r.order?.order_id ?? ''}: it is now MANUALLY_CONFIRMED.` : `Item rejected; the order keeps its state.`;
      },
      async (e) => {
        if (!(e instanceof ApiError && e.status === 409)) return describe(e);
        // Someone else decided first: say who, from the item as it is now.
        const now = await api<ReviewItem>('GET', `/review-items/${id}`).catch(() => null);
        return now?.acted_by ? `This item was already decided by ${now.acted_by} (${now.status}). Nothing was changed.` : describe(e);
      },
    );
  }

  return (
    <>
      <h1>Review queue</h1>
      <p className="hint">Payments the service could not confirm on its own. Open items come first.</p>
      <div className="filters">
        <div>
          <label htmlFor="review-status">Status</label>
          <select id="review-status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">All</option>
            <option value="open">Open</option>
            <option value="confirmed">Confirmed</option>
            <option value="rejected">Rejected</option>
          </select>
        </div>
      </div>
      <DecisionOutcome error={error ?? loadError} done={done} />
      {item ? (
        <DetailPanel titleId="review-detail-title" title={`Order ${item.order?.order_id ?? '—'}`} onClose={() => setSelected(null)}>
          <dl className="facts">
            <dt>Why</dt>
            <dd>{KINDS[item.kind]}</dd>
            <dt>Order</dt>
            <dd>
              {item.order ? `${formatPaise(item.order.amount_paise)} · ${item.order.status}` : '—'} (was {item.order_status_at_open} when opened)
            </dd>
            <dt>Provider reported</dt>
            <dd>{reported(item.provider_reported)}</dd>
            <dt>Payer claimed (UTR)</dt>
            <dd>{item.payer_claimed_utr ?? '—'}</dd>
            <dt>Status</dt>
            <dd>
              {item.status}
              {item.acted_by ? ` by ${item.acted_by}` : ''}
              {item.acted_at ? (
                <>
                  {' '}
                  at <Time iso={item.acted_at} />
                </>
              ) : null}
            </dd>
            {item.note ? (
              <>
                <dt>Reviewer's note</dt>
                <dd>{item.note}</dd>
              </>
            ) : null}
          </dl>
          {canDecide && item.status === 'open' ? (
            <DecisionForm
              key={item.id}
              busy={busy}
              hint="Confirming needs the evidence in writing (e.g. the bank statement line with the UTR). Merchants fulfil on PAID only; a manual confirmation is shown as MANUALLY_CONFIRMED."
              actions={[
                {
                  label: 'Confirm payment',
                  confirm: (() => {
                    const order = item.order ? formatPaise(item.order.amount_paise) : 'the order';
                    const reported = typeof item.provider_reported?.amount_paise === 'number' ? ` (the provider reported ${formatPaise(item.provider_reported.amount_paise)})` : '';
                    return { question: `Confirm the payment of ${order}${reported} for order ${item.order?.order_id ?? ''}? It becomes MANUALLY_CONFIRMED.`, yes: `Yes, confirm payment of ${order}` };
                  })(),
                  run: (note) => void decide('confirm', item.id, note),
                },
                { label: 'Reject', danger: true, run: (note) => void decide('reject', item.id, note) },
              ]}
            />
          ) : null}
        </DetailPanel>
      ) : null}
      <QueueTable
        rows={items}
        error={loadError}
        empty={`No review items${status ? ` with status ${status}` : ''}.`}
        columns={COLUMNS}
        openLabel={(i) => `Open review of order ${i.order?.order_id ?? i.id}`}
        onOpen={setSelected}
      />
    </>
  );
}
