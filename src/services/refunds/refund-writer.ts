/**
 * The one writer of refunds: every change of a refund row — its create, a reviewer's approval or
 * rejection, the provider's answer (completed, failed, no answer) — goes through here, in the
 * caller's transaction, with its event (and, for a completion, its ledger entry and, when it refunds
 * the whole order, the order's move). What to write is decided by the pure rule `decideRefund(status, command)` of
 * src/domain/refund.ts on the refund the caller locked (lockRefund); nothing else writes a refund
 * row. The merchant API, the reviewers (admin API, console) and the refund worker are entry points.
 */
import { refundCompleted } from '../../domain/ledger.js';
import { decideRefund, fullyRefunded, type RefundCommand, type RefundDecision } from '../../domain/refund.js';
import type { Tx } from '../../store/db.js';
import type { PaymentOrderRow } from '../../store/repos/payment-orders-repo.js';
import * as repo from '../../store/repos/refunds-repo.js';
import { recordEvent } from '../callbacks/events.js';
import { postLedgerEntry } from '../ledger/post.js';
import { lockOrder, transitionOrder } from '../payin/payment-order-transitions.js';
import { refundEvent } from './refund-events.js';

/** Locks a refund for a change (the caller's transaction). */
export const lockRefund = repo.lockRefund;

/** A new refund of the locked `order`, with `collection.refund.requested`. */
export async function createRefund(tx: Tx, r: repo.NewRefund, order: PaymentOrderRow): Promise<repo.RefundWithOrder> {
  const row = await repo.insertRefund(tx, r);
  const refund = { ...row, order_id: order.order_id, provider_account_id: order.provider_account_id };
  await recordEvent(tx, refundEvent('collection.refund.requested', refund, order));
  return refund;
}

/**
 * A reviewer's decision on the locked refund: approved, it is PROCESSING and held for `leaseMs` by
 * the caller, who submits it after commit; rejected, its amount is free to refund again. Null when
 * decide refuses it (it was reviewed already): nothing is written.
 */
export async function reviewRefund(
  tx: Tx,
  r: repo.RefundRow,
  command: { kind: 'approve' | 'reject'; actor: string; note: string; leaseMs: number },
): Promise<repo.RefundRow | null> {
  const d = decideRefund(r.status, { kind: command.kind });
  if (d.result !== 'applied' || !d.to) return null;
  return repo.updateRefund(tx, r.id, { status: d.to, review: { actor: command.actor, note: command.note }, ...(d.to === 'PROCESSING' ? { leaseMs: command.leaseMs } : {}) });
}

/**
 * The provider's answer about the locked refund (a submit's or an inquiry's). `submitted`: the
 * answer of a submit call (counted); `retryInMs`: when an UNKNOWN refund is inquired next. Stale
 * answers (the refund is no longer PROCESSING) change nothing.
 */
export async function applyRefundAnswer(
  tx: Tx,
  r: repo.RefundRow,
  answer: Exclude<RefundCommand, { kind: 'approve' } | { kind: 'reject' }>,
  o: { submitted: boolean; retryInMs: number },
): Promise<RefundDecision['result']> {
  const d = decideRefund(r.status, answer);
  if (d.result !== 'applied') return d.result;
  switch (answer.kind) {
    case 'completed':
      await completeRefund(tx, r, answer.providerReference, answer.completedAt);
      break;
    case 'failed':
      await repo.updateRefund(tx, r.id, { status: 'FAILED', failureReason: answer.reason, leaseMs: null, lastError: null, countCall: o.submitted });
      break;
    case 'unknown':
      await repo.updateRefund(tx, r.id, { submission: 'UNKNOWN', leaseMs: o.retryInMs, lastError: answer.error, countCall: o.submitted });
      break;
  }
  return d.result;
}

/**
 * PROCESSING -> COMPLETED with `collection.refund.completed` and its ledger entry; the order becomes REFUNDED when its
 * completed refunds add up to its amount. Locks: the refund (held by the caller), then the order.
 */
async function completeRefund(tx: Tx, r: repo.RefundRow, providerReference: string, completedAt: Date): Promise<void> {
  const order = await lockOrder(tx, r.order_pk);
  const done = await repo.updateRefund(tx, r.id, { status: 'COMPLETED', providerReference, completedAt, leaseMs: null, lastError: null });
  await recordEvent(tx, refundEvent('collection.refund.completed', { ...done, order_id: order.order_id, provider_account_id: order.provider_account_id }, order));
  // Paid back out of what the PSP holds for the merchant, at the order's provider account.
  await postLedgerEntry(tx, { orgId: done.org_id, providerAccountId: order.provider_account_id, sourceId: done.id, entry: refundCompleted(done.amount_paise) });
  if (fullyRefunded(order.amount_paise, await repo.completedAmount(tx, order.id)) && (order.status === 'PAID' || order.status === 'MANUALLY_CONFIRMED')) {
    await transitionOrder(tx, order, 'REFUNDED', 'refund_completed', { detail: { source: 'refund', refund_id: r.refund_id } });
  }
}
