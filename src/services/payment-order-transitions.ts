/**
 * The one way a payment order changes state. Every move is checked against the transition table
 * of src/domain/payment-order.ts, written together with its history row, and, for PAID, with the
 * `collection.received` event, all in the caller's transaction. Provider outcomes (callbacks,
 * live checks, the expiry worker's final check) are applied here too, so duplicate, late and
 * out-of-order news is absorbed in one place.
 */
import { AppError } from '../domain/errors.js';
import {
  assertTransition,
  confirmationOutcome,
  failureOutcome,
  isOpen,
  type OrderTrigger,
  type PaymentOrderStatus,
} from '../domain/payment-order.js';
import type { CollectionStatus } from '../providers/provider.js';
import type { Queryable } from '../store/db.js';
import * as repo from '../store/repos/payment-orders-repo.js';
import type { OrderColumnChanges, PaymentOrderRow } from '../store/repos/payment-orders-repo.js';
import { recordEvent } from './events.js';
import { callbackSecretContext } from './payment-order-secrets.js';
import { idForOrderId } from './payment-order-view.js';

/** Locks the order row for the rest of the transaction (SELECT ... FOR UPDATE). */
export async function lockOrder(tx: Queryable, id: string): Promise<PaymentOrderRow> {
  const row = await repo.lockById(tx, id);
  if (!row) throw new AppError('NOT_FOUND', 'No such payment order.');
  return row;
}

/** API §6.4 `collection.received` data, exactly. */
export function collectionReceivedData(o: PaymentOrderRow): Record<string, unknown> {
  return {
    order_id: o.order_id,
    merchant_order_reference: o.merchant_order_reference,
    status: 'PAID',
    provider_status: 'SUCCESS',
    amount_paise: o.amount_paise,
    currency: o.currency,
    bank_transaction_id: o.bank_transaction_id,
    confirmed_at: o.confirmed_at?.toISOString() ?? null,
  };
}

/**
 * Moves a locked order (see lockOrder) from its current status to `to`. The UPDATE is guarded by
 * the status the caller saw, so a move can never land on a state nobody checked.
 */
export async function transitionOrder(
  tx: Queryable,
  order: PaymentOrderRow,
  to: PaymentOrderStatus,
  trigger: OrderTrigger,
  extra: { changes?: OrderColumnChanges; detail?: Record<string, unknown> } = {},
): Promise<PaymentOrderRow> {
  const expected = assertTransition(order.status, to);
  if (expected !== trigger) {
    throw new AppError('INVALID_STATE', `A payment order moves from ${order.status} to ${to} only by ${expected}, not ${trigger}.`);
  }
  const changes = extra.changes ?? {};
  if (to === 'PAID' && (!changes.bank_transaction_id || !changes.confirmed_at || changes.provider_status !== 'SUCCESS')) {
    throw new Error('PAID needs provider_status SUCCESS, a bank transaction id and a confirmation time');
  }
  const updated = await repo.updateStatusWithHistory(tx, { id: order.id, from: order.status, to, trigger, changes, detail: extra.detail ?? null });
  if (!updated) throw new Error(`payment order ${order.id} was not in ${order.status} (not locked by the caller?)`);
  if (to === 'PAID') {
    await recordEvent(tx, {
      orgId: updated.org_id,
      kind: 'collection.received',
      aggregateType: 'payment_order',
      aggregateId: updated.id,
      data: collectionReceivedData(updated),
      // The order's own callback_url is a further destination, signed with its own secret.
      extraDestination:
        updated.callback_url && updated.callback_secret_enc
          ? { url: updated.callback_url, secretEnc: updated.callback_secret_enc, secretContext: callbackSecretContext(updated.id) }
          : null,
    });
  }
  return updated;
}

export type ProviderOutcomeResult = 'paid' | 'failed' | 'late_confirmation' | 'unchanged' | 'unknown_order';

/**
 * Applies what the provider says about an order's collection (from a callback, a live check or the
 * expiry worker). Idempotent: the same news twice changes nothing the second time.
 */
export async function applyCollectionStatus(
  tx: Queryable,
  order: PaymentOrderRow,
  status: CollectionStatus,
  source: string,
): Promise<ProviderOutcomeResult> {
  switch (status.status) {
    case 'SUCCESS': {
      const outcome = confirmationOutcome(order.status);
      if (outcome === 'apply') {
        await transitionOrder(tx, order, 'PAID', 'provider_confirmed', {
          changes: { provider_status: 'SUCCESS', bank_transaction_id: status.utr, confirmed_at: status.paidAt },
          detail: { source, utr: status.utr },
        });
        return 'paid';
      }
      // Already confirmed with this UTR: a duplicate. Any other payment (a closed order, or a second
      // UTR for a paid one) is real money: recorded and flagged, never dropped, never a state change.
      if (outcome === 'already_applied' && order.bank_transaction_id === status.utr) return 'unchanged';
      const recorded = await repo.recordLateConfirmation(tx, {
        orderPk: order.id,
        statusAtArrival: order.status,
        utr: status.utr,
        paidAt: status.paidAt,
        source,
      });
      return recorded ? 'late_confirmation' : 'unchanged';
    }
    case 'FAILED':
      if (failureOutcome(order.status) === 'ignore') return 'unchanged';
      await transitionOrder(tx, order, 'FAILED', 'provider_failed', {
        changes: { provider_status: status.providerStatus, failure_reason: status.reason },
        detail: { source },
      });
      return 'failed';
    case 'PENDING':
      if (isOpen(order.status) && order.provider_status !== status.providerStatus) {
        await repo.setProviderStatus(tx, order.id, status.providerStatus);
      }
      return 'unchanged';
    case 'NOT_FOUND':
      return 'unchanged';
  }
}

/** Locks by our reference (the order_id) and applies; 'unknown_order' when we never issued it. */
export async function applyCollectionStatusByReference(
  tx: Queryable,
  reference: string,
  status: CollectionStatus,
  source: string,
): Promise<ProviderOutcomeResult> {
  const id = idForOrderId(reference);
  const order = id === null ? null : await repo.lockByRef(tx, { id, orderId: reference });
  if (!order) return 'unknown_order';
  return applyCollectionStatus(tx, order, status, source);
}
