/**
 * The one way a payment order changes state. Every move is checked against the transition table
 * of src/domain/payment-order.ts, written together with its history row, and, for PAID, with the
 * `collection.received` event (for FAILED, EXPIRED, CANCELLED: the opt-in `collection.failed`,
 * `.expired`, `.cancelled`), all in the caller's transaction. Provider outcomes (callbacks,
 * live checks, the expiry worker's final check) are applied here too, so duplicate, late and
 * out-of-order news is absorbed in one place. A confirmation (PAID, MANUALLY_CONFIRMED) posts its
 * ledger entry here too, in the same transaction (docs/accounting.md).
 */
import { AppError } from '../../domain/errors.js';
import { collectionConfirmed } from '../../domain/ledger.js';
import {
  assertTransition,
  failureOutcome,
  isOpen,
  judgeConfirmation,
  type OrderTrigger,
  type PaymentOrderStatus,
} from '../../domain/payment-order.js';
import type { CollectionStatus } from '../../providers/provider.js';
import type { Tx } from '../../store/db.js';
import * as repo from '../../store/repos/payment-orders-repo.js';
import * as reviewRepo from '../../store/repos/review-items-repo.js';
import type { OrderColumnChanges, PaymentOrderRow } from '../../store/repos/payment-orders-repo.js';
import { type EventKind, recordEvent } from '../callbacks/events.js';
import { postLedgerEntry } from '../ledger/post.js';
import { unitsInTransaction } from '../../store/shared-transactions.js';
import { callbackSecretContext } from './payment-order-secrets.js';
import { idForOrderId } from './payment-order-view.js';

/** Locks the order row for the rest of the transaction (SELECT ... FOR UPDATE; coalesced with the locks of other units of a shared transaction). */
export async function lockOrder(tx: Tx, id: string): Promise<PaymentOrderRow> {
  const row = await repo.lockById(tx, id);
  if (!row) throw new AppError('NOT_FOUND', 'No such payment order.');
  return row;
}

/**
 * API §6.4 `collection.received` data, exactly, plus `livemode` (contract §7). `status` is PAID for
 * a provider confirmation and MANUALLY_CONFIRMED for an operations review's (contract §6: merchants
 * fulfil on PAID only).
 */
export function collectionReceivedData(o: PaymentOrderRow): Record<string, unknown> {
  const manual = o.status === 'MANUALLY_CONFIRMED';
  return {
    order_id: o.order_id,
    merchant_order_reference: o.merchant_order_reference,
    status: manual ? 'MANUALLY_CONFIRMED' : 'PAID',
    provider_status: manual ? o.provider_status : 'SUCCESS',
    amount_paise: o.amount_paise,
    currency: o.currency,
    bank_transaction_id: o.bank_transaction_id,
    confirmed_at: o.confirmed_at?.toISOString() ?? null,
    livemode: o.livemode,
  };
}

type MoveExtra = { changes?: OrderColumnChanges; detail?: Record<string, unknown> };

/**
 * Checks a move of a locked order against the transition table and what the target state
 * requires; returns the write it takes (guarded by the status the caller saw). Pure.
 */
function planTransition(order: PaymentOrderRow, to: PaymentOrderStatus, trigger: OrderTrigger, extra: MoveExtra = {}): repo.OrderMoveWrite {
  const expected = assertTransition(order.status, to);
  if (expected !== trigger) {
    throw new AppError('INVALID_STATE', `A payment order moves from ${order.status} to ${to} only by ${expected}, not ${trigger}.`);
  }
  const changes = extra.changes ?? {};
  if (to === 'PAID' && (!changes.bank_transaction_id || !changes.confirmed_at || changes.provider_status !== 'SUCCESS')) {
    throw new Error('PAID needs provider_status SUCCESS, a bank transaction id and a confirmation time');
  }
  return { id: order.id, from: order.status, to, trigger, changes, detail: extra.detail ?? null };
}

/**
 * The one place where payment order statuses are written: a checked move, its history row and,
 * for PAID and MANUALLY_CONFIRMED, its `collection.received` event and its ledger entry (for FAILED,
 * EXPIRED, CANCELLED: the opt-in closed event), in the caller's transaction. The moves and events of the units of work
 * that share a transaction take one statement each (store/shared-transactions.ts).
 */
async function writeTransition(tx: Tx, move: repo.OrderMoveWrite): Promise<PaymentOrderRow> {
  const row = await repo.updateStatusWithHistory(tx, move);
  if (!row) throw new Error(`payment order ${move.id} was not in ${move.from} (not locked by the caller?)`);
  if (row.status === 'PAID' || row.status === 'MANUALLY_CONFIRMED') {
    await recordEvent(tx, {
      orgId: row.org_id,
      kind: 'collection.received',
      aggregateType: 'payment_order',
      aggregateId: row.id,
      data: collectionReceivedData(row),
      // The order's own callback_url is a further destination, signed with its own secret.
      extraDestination:
        row.callback_url && row.callback_secret_enc ? { url: row.callback_url, secretEnc: row.callback_secret_enc, secretContext: callbackSecretContext(row.id) } : null,
    });
    // The PSP now holds the amount for the merchant. An order is confirmed once (PAID and
    // MANUALLY_CONFIRMED only move on to REFUNDED), and the entry is unique by order besides.
    await postLedgerEntry(tx, { orgId: row.org_id, providerAccountId: row.provider_account_id, sourceId: row.id, entry: collectionConfirmed(row.amount_paise) });
  }
  const closed = CLOSED_EVENT[row.status];
  // Opt-in types (contract §7): only to a PayIn destination that subscribes; never to the
  // order's callback_url, which keeps the API document's one event.
  if (closed) await recordEvent(tx, { orgId: row.org_id, kind: closed, aggregateType: 'payment_order', aggregateId: row.id, data: collectionClosedData(row) });
  return row;
}

/** The opt-in event of an order's move to a closed state without payment. */
const CLOSED_EVENT: Partial<Record<PaymentOrderStatus, EventKind>> = {
  FAILED: 'collection.failed',
  EXPIRED: 'collection.expired',
  CANCELLED: 'collection.cancelled',
};

/** `collection.failed|expired|cancelled` data (src/http/public/schemas/webhooks.ts CollectionClosedData). */
export function collectionClosedData(o: PaymentOrderRow): Record<string, unknown> {
  return {
    order_id: o.order_id,
    merchant_order_reference: o.merchant_order_reference,
    status: o.status,
    provider_status: o.provider_status,
    failure_reason: o.failure_reason,
    amount_paise: o.amount_paise,
    currency: o.currency,
    closed_at: o.updated_at.toISOString(),
    livemode: o.livemode,
  };
}

/**
 * Moves a locked order (see lockOrder) from its current status to `to`. The UPDATE is guarded by
 * the status the caller saw, so a move can never land on a state nobody checked.
 */
export async function transitionOrder(tx: Tx, order: PaymentOrderRow, to: PaymentOrderStatus, trigger: OrderTrigger, extra: MoveExtra = {}): Promise<PaymentOrderRow> {
  return writeTransition(tx, planTransition(order, to, trigger, extra));
}

export type ProviderOutcomeResult = 'paid' | 'failed' | 'late_confirmation' | 'confirmation_mismatch' | 'unchanged' | 'unknown_order';

type Confirmation = Extract<CollectionStatus, { status: 'SUCCESS' }>;

/** What a piece of provider news means for an order in its current state (see decideCollectionStatus). */
type CollectionDecision =
  | { kind: 'move'; result: 'paid' | 'failed'; to: PaymentOrderStatus; trigger: OrderTrigger; extra: MoveExtra }
  /** Recorded (and, for review_*, queued for operations review); never a state change. */
  | { kind: 'late'; verdict: 'review_late' | 'review_mismatch' | 'record_only'; confirmation: Confirmation }
  | { kind: 'provider_status'; providerStatus: string }
  | { kind: 'nothing' };

/** Pure: the provider's news about an order's collection against the order's current state. */
function decideCollectionStatus(order: PaymentOrderRow, status: CollectionStatus, source: string): CollectionDecision {
  switch (status.status) {
    case 'SUCCESS': {
      // The one check of every confirmation: amount and provider reference must be the order's.
      const verdict = judgeConfirmation({
        order: { status: order.status, amountPaise: order.amount_paise, providerReference: order.provider_reference, bankTransactionId: order.bank_transaction_id },
        reported: { utr: status.utr, amountPaise: status.amountPaise, providerReference: status.providerReference },
      });
      if (verdict === 'apply') {
        return {
          kind: 'move',
          result: 'paid',
          to: 'PAID',
          trigger: 'provider_confirmed',
          extra: { changes: { provider_status: 'SUCCESS', bank_transaction_id: status.utr, confirmed_at: status.paidAt }, detail: { source, utr: status.utr } },
        };
      }
      // Already confirmed with this UTR: a duplicate. Any other payment (a closed order, a mismatch,
      // a second UTR for a paid one) is real money: recorded and flagged, never dropped, never PAID.
      if (verdict === 'duplicate') return { kind: 'nothing' };
      return { kind: 'late', verdict, confirmation: status };
    }
    case 'FAILED':
      if (failureOutcome(order.status) === 'ignore') return { kind: 'nothing' };
      return {
        kind: 'move',
        result: 'failed',
        to: 'FAILED',
        trigger: 'provider_failed',
        extra: { changes: { provider_status: status.providerStatus, failure_reason: status.reason }, detail: { source } },
      };
    case 'PENDING':
      if (isOpen(order.status) && order.provider_status !== status.providerStatus) return { kind: 'provider_status', providerStatus: status.providerStatus };
      return { kind: 'nothing' };
    case 'NOT_FOUND':
      return { kind: 'nothing' };
  }
}

/** Carries out a decision that moves nothing (a late payment, a provider status): one statement at most. */
async function recordWithoutMove(tx: Tx, order: PaymentOrderRow, d: Exclude<CollectionDecision, { kind: 'move' }>, source: string): Promise<ProviderOutcomeResult> {
  switch (d.kind) {
    case 'late':
      return recordConfirmationForReview(tx, order, d.verdict, d.confirmation, source);
    case 'provider_status':
      await repo.setProviderStatus(tx, order.id, d.providerStatus);
      return 'unchanged';
    case 'nothing':
      return 'unchanged';
  }
}

/**
 * A confirmation that cannot make the order PAID. A mismatch or a confirmation after EXPIRED /
 * CANCELLED / FAILED opens an operations review item (contract §6 a, b) with what the provider
 * reported and what the payer claimed; a late one is also kept in payment_order_late_confirmations,
 * as is money no state can take (a second UTR for a confirmed order). The same news again changes
 * nothing.
 */
async function recordConfirmationForReview(
  tx: Tx,
  order: PaymentOrderRow,
  verdict: 'review_late' | 'review_mismatch' | 'record_only',
  c: Confirmation,
  source: string,
): Promise<ProviderOutcomeResult> {
  if (verdict === 'review_mismatch') {
    const opened = await reviewRepo.openItem(tx, {
      orgId: order.org_id,
      orderPk: order.id,
      kind: 'confirmation_mismatch',
      dedupeKey: `utr:${c.utr}`,
      orderStatus: order.status,
      reported: reportedConfirmation(c, source),
      payerReference: order.payer_reference,
    });
    return opened ? 'confirmation_mismatch' : 'unchanged';
  }
  const recorded = await repo.recordLateConfirmation(tx, { orderPk: order.id, statusAtArrival: order.status, utr: c.utr, paidAt: c.paidAt, source });
  if (verdict === 'review_late') {
    await reviewRepo.openItem(tx, {
      orgId: order.org_id,
      orderPk: order.id,
      kind: 'late_confirmation',
      dedupeKey: `utr:${c.utr}`,
      orderStatus: order.status,
      reported: reportedConfirmation(c, source),
      payerReference: order.payer_reference,
    });
  }
  return recorded ? 'late_confirmation' : 'unchanged';
}

/** What the provider reported, as a review item keeps it. */
function reportedConfirmation(c: Confirmation, source: string): Record<string, unknown> {
  return { utr: c.utr, amount_paise: c.amountPaise, provider_reference: c.providerReference, paid_at: c.paidAt.toISOString(), source };
}

/**
 * Applies what the provider says about an order's collection (from a callback, a live check or the
 * expiry worker). Idempotent: the same news twice changes nothing the second time.
 */
export async function applyCollectionStatus(tx: Tx, order: PaymentOrderRow, status: CollectionStatus, source: string): Promise<ProviderOutcomeResult> {
  const d = decideCollectionStatus(order, status, source);
  if (d.kind !== 'move') return recordWithoutMove(tx, order, d, source);
  await transitionOrder(tx, order, d.to, d.trigger, d.extra);
  return d.result;
}

/** One piece of provider news about the order whose order_id is `reference`. */
export interface CollectionNews {
  reference: string;
  status: CollectionStatus;
  source: string;
}

/**
 * applyCollectionStatus for several pieces of news in one transaction, in their order: each is a
 * unit of work of its own (lock its order, decide, write), run side by side with the others so
 * that their locks, moves and events take a few statements in all; news about the same order is
 * decided after the one before it was written (store/shared-transactions.ts). 'unknown_order' for a
 * reference we never issued.
 */
export function applyCollectionStatusesByReference(tx: Tx, news: CollectionNews[]): Promise<ProviderOutcomeResult[]> {
  return unitsInTransaction(tx, news, (n) => n.reference, (t, n) => applyCollectionStatusByReference(t, n.reference, n.status, n.source));
}

/** Locks by our reference (the order_id) and applies; 'unknown_order' when we never issued it. */
export async function applyCollectionStatusByReference(tx: Tx, reference: string, status: CollectionStatus, source: string): Promise<ProviderOutcomeResult> {
  const id = idForOrderId(reference);
  const order = id === null ? null : await repo.lockById(tx, id);
  if (!order || order.order_id !== reference) return 'unknown_order';
  return applyCollectionStatus(tx, order, status, source);
}
