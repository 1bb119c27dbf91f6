/**
 * The refunds of one payment order (contract §6), as the merchant API lists them: amount in rupees,
 * status, reason, when requested and completed, the provider's reference. Reviewing them happens
 * on the Refunds page, linked from here.
 */
import { type FormEvent, useState } from 'react';
import { api, describe, newIdempotencyKey } from '../../api.js';
import { ErrorLine, Notice, Status, Time } from '../../components.js';
import { formatPaise, words } from '../../format.js';
import { useCan } from '../../permissions.js';
import { rupeesToPaise } from '../approvals/NewPayoutPage.js';
import { byId, type Column, RowsTable } from '../columns.js';
import { AppLink, dash, TableScroll } from './links.js';
import type { Answer } from '../../wire.js';
import { TEXT_LIMITS } from '../../generated/server.js';

export type OrderRefund = Answer<'consoleGetPaymentOrder'>['refunds'][number];

/** What is left to refund: the order's amount less its refunds that still count (contract §6: not REJECTED or FAILED). */
export function leftToRefund(amountPaise: number, refunds: OrderRefund[]): number {
  return amountPaise - refunds.filter((r) => r.status !== 'REJECTED' && r.status !== 'FAILED').reduce((s, r) => s + r.amount_paise, 0);
}

const COLUMNS: Column<OrderRefund>[] = [
  { title: 'Refund', cell: (r) => <code title={r.id}>{r.refund_id}</code> },
  { title: 'Amount', cell: (r) => formatPaise(r.amount_paise), numeric: true },
  {
    title: 'Status',
    cell: (r) => (
      <>
        <Status status={r.status} />
        {r.reviewed_by ? ` (reviewed by ${r.reviewed_by})` : ''}
        {r.failure_reason ? ` — ${r.failure_reason}` : ''}
      </>
    ),
  },
  { title: 'Reason', cell: (r) => dash(r.reason) },
  { title: 'Requested', cell: (r) => <Time iso={r.created_at} /> },
  { title: 'Completed', cell: (r) => (r.completed_at ? <Time iso={r.completed_at} /> : '—') },
  { title: 'Provider reference', cell: (r) => (r.provider_reference ? <code>{r.provider_reference}</code> : '—') },
];

const REFUNDABLE = ['PAID', 'MANUALLY_CONFIRMED'];

/**
 * "Start a refund" (issue #32 item 4): amount in rupees (default: what is left) and reason; the
 * refund then waits for a reviewer on the Refunds page unless the organization skips review
 * (contract §6). One Idempotency-Key per form, so a double click makes one refund.
 */
function StartRefund({ order, left, onStarted }: { order: { id: string }; left: number; onStarted: (r: OrderRefund, message: string) => void }) {
  const [amount, setAmount] = useState(() => (left / 100).toFixed(2));
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(newIdempotencyKey);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const paise = rupeesToPaise(amount);
    if (paise === null || paise < 1) return setError('Refund amount (₹): write rupees with at most two decimals, e.g. 250 or 250.50.');
    if (paise > left) return setError(`Refund amount (₹): at most ${formatPaise(left)} is left to refund.`);
    setBusy(true);
    try {
      const r = await api<OrderRefund>('POST', `/payment-orders/${encodeURIComponent(order.id)}/refunds`, { amount_paise: paise, ...(reason.trim() ? { reason: reason.trim() } : {}) }, undefined, key);
      setKey(newIdempotencyKey());
      setReason('');
      onStarted(
        r,
        r.status === 'PENDING_REVIEW'
          ? `Refund ${r.refund_id} of ${formatPaise(r.amount_paise)} is waiting for a reviewer on the Refunds page.`
          : `Refund ${r.refund_id} of ${formatPaise(r.amount_paise)} is ${words(r.status).toLowerCase()}.`,
      );
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="panel" onSubmit={(e) => void submit(e)} aria-labelledby="start-refund-title">
      <h3 id="start-refund-title">Start a refund</h3>
      <p className="hint">{formatPaise(left)} of this order is left to refund. A reviewer approves the refund before the money goes back, unless your organization skips review.</p>
      <label htmlFor="refund-amount">Refund amount (₹)</label>
      <input id="refund-amount" required inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
      <label htmlFor="refund-reason">Reason (optional)</label>
      <input id="refund-reason" maxLength={TEXT_LIMITS.refundReason} value={reason} onChange={(e) => setReason(e.target.value)} />
      <button type="submit" disabled={busy}>
        Start refund
      </button>
      <ErrorLine error={error} />
    </form>
  );
}

export function OrderRefunds({ refunds: loaded, order }: { refunds: OrderRefund[]; order?: { id: string; status: string; amount_paise: number } }) {
  const canStart = useCan('refunds.request');
  // A refund started here joins the list at once (the order's state does not change until it completes).
  const [refunds, setRefunds] = useState(loaded);
  const [done, setDone] = useState<string | null>(null);
  const left = order ? leftToRefund(order.amount_paise, refunds) : 0;
  return (
    <section aria-labelledby="refunds-title">
      <h2 id="refunds-title">Refunds</h2>
      <Notice message={done} />
      {order && canStart && REFUNDABLE.includes(order.status) && left > 0 ? (
        <StartRefund
          key={left}
          order={order}
          left={left}
          onStarted={(r, message) => {
            setRefunds((rs) => [...rs, r]);
            setDone(message);
          }}
        />
      ) : null}
      {refunds.length === 0 ? (
        <p>No refunds were requested for this order.</p>
      ) : (
        <TableScroll label="Refunds of this order">
          <RowsTable columns={COLUMNS} rows={refunds} rowKey={byId} />
        </TableScroll>
      )}
      <p>
        <AppLink to="/refunds">Review refunds on the Refunds page</AppLink>
      </p>
    </section>
  );
}
