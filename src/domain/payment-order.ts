/**
 * Payment order lifecycle (merchant API §3.1, operator contract §4). The list of states and the
 * one transition table below are the only source: OpenAPI enums are built from them, SQL takes the
 * lists it filters on as parameters (`= ANY($n)`), and the SQL CHECK constraints and partial-index
 * predicates are held equal to them by test/foundation/schema-sync.test.ts, which reads them from
 * the migrated database. Every status change goes through assertTransition().
 */
import { AppError } from './errors.js';

export const PAYMENT_ORDER_STATUSES = [
  'AWAITING_CUSTOMER',
  'PENDING_PAYMENT',
  'AWAITING_CONFIRMATION',
  'PAID',
  'MANUALLY_CONFIRMED',
  'FAILED',
  'EXPIRED',
  'CANCELLED',
  'REFUNDED',
] as const;
export type PaymentOrderStatus = (typeof PAYMENT_ORDER_STATUSES)[number];

/** States in which the payer may still pay; a provider confirmation applies only here. */
export const OPEN_ORDER_STATUSES = ['AWAITING_CUSTOMER', 'PENDING_PAYMENT', 'AWAITING_CONFIRMATION'] as const;
export type OpenOrderStatus = (typeof OPEN_ORDER_STATUSES)[number];

/**
 * The payer's window (`expires_in_minutes`, merchant API §4.1): one home for its bounds and default.
 * The route schema declares them for OpenAPI clients, the input module enforces them for every
 * caller (HTTP, console, CLI), and the column's CHECK is held equal by the schema-sync test.
 */
export const EXPIRES_IN_MINUTES_MIN = 5;
export const EXPIRES_IN_MINUTES_MAX = 1_440;
export const EXPIRES_IN_MINUTES_DEFAULT = 30;
/** A hosted checkout link whose payer never gives details expires this long after creation. */
export const CHECKOUT_LINK_MINUTES = 1_440;
/** The status of an order whose window is its checkout link's (no payer details, so no expires_at yet). */
export const LINK_WINDOW_STATUS = 'AWAITING_CUSTOMER' satisfies PaymentOrderStatus;

/**
 * Whether an order's payer window has ended at `now`: at its expires_at, or, for a checkout link
 * never given payer details, CHECKOUT_LINK_MINUTES after creation. The expiry worker's claim
 * (payment-order-reads-repo claimExpiredOrders) states the same rule in SQL, with
 * LINK_WINDOW_STATUS and CHECKOUT_LINK_MINUTES as its parameters.
 */
export function windowEnded(o: { expires_at: Date | null; status: string; created_at: Date }, now: Date): boolean {
  if (o.expires_at !== null) return o.expires_at.getTime() <= now.getTime();
  return o.status === LINK_WINDOW_STATUS && o.created_at.getTime() + CHECKOUT_LINK_MINUTES * 60_000 <= now.getTime();
}

export const ORDER_TRIGGERS = [
  'payer_details',
  'payer_reference',
  'provider_confirmed',
  'provider_failed',
  'expired',
  'merchant_cancel',
  'operations_review',
  'refund_completed',
] as const;
export type OrderTrigger = (typeof ORDER_TRIGGERS)[number];

export interface OrderTransition {
  from: PaymentOrderStatus;
  to: PaymentOrderStatus;
  trigger: OrderTrigger;
}

const fromEveryOpenState = (to: PaymentOrderStatus, trigger: OrderTrigger): OrderTransition[] =>
  OPEN_ORDER_STATUSES.map((from) => ({ from, to, trigger }));

/** Every legal move. Anything not listed is refused. */
export const ORDER_TRANSITIONS: readonly OrderTransition[] = Object.freeze([
  { from: 'AWAITING_CUSTOMER', to: 'PENDING_PAYMENT', trigger: 'payer_details' },
  { from: 'PENDING_PAYMENT', to: 'AWAITING_CONFIRMATION', trigger: 'payer_reference' },
  ...fromEveryOpenState('PAID', 'provider_confirmed'),
  ...fromEveryOpenState('MANUALLY_CONFIRMED', 'operations_review'),
  // Contract §6 (a), (c): a reviewer confirms payment evidence for an order that already closed.
  { from: 'EXPIRED', to: 'MANUALLY_CONFIRMED', trigger: 'operations_review' },
  { from: 'CANCELLED', to: 'MANUALLY_CONFIRMED', trigger: 'operations_review' },
  // A provider confirmation after the provider had reported a failure: money may have moved, so it
  // is queued like (a) and a reviewer may confirm it (docs/payin.md "Confirmations are checked").
  { from: 'FAILED', to: 'MANUALLY_CONFIRMED', trigger: 'operations_review' },
  ...fromEveryOpenState('FAILED', 'provider_failed'),
  ...fromEveryOpenState('EXPIRED', 'expired'),
  ...fromEveryOpenState('CANCELLED', 'merchant_cancel'),
  { from: 'PAID', to: 'REFUNDED', trigger: 'refund_completed' },
  { from: 'MANUALLY_CONFIRMED', to: 'REFUNDED', trigger: 'refund_completed' },
]);

/** Contract §6: only a confirmed payment can be refunded. */
export const REFUNDABLE_ORDER_STATUSES = ['PAID', 'MANUALLY_CONFIRMED'] as const;

export function isRefundable(status: PaymentOrderStatus): boolean {
  return (REFUNDABLE_ORDER_STATUSES as readonly PaymentOrderStatus[]).includes(status);
}

const transitionKey = (from: PaymentOrderStatus, to: PaymentOrderStatus): string => `${from}>${to}`;
const triggerByMove = new Map(ORDER_TRANSITIONS.map((t) => [transitionKey(t.from, t.to), t.trigger]));

export function isPaymentOrderStatus(value: unknown): value is PaymentOrderStatus {
  return typeof value === 'string' && (PAYMENT_ORDER_STATUSES as readonly string[]).includes(value);
}

export function isOpen(status: PaymentOrderStatus): status is OpenOrderStatus {
  return (OPEN_ORDER_STATUSES as readonly PaymentOrderStatus[]).includes(status);
}

/**
 * The payment outcome is decided (paid, confirmed, failed, expired, cancelled, refunded). PAID can
 * still become REFUNDED, so "final" is not "no further moves": see isTerminal().
 */
export function isFinal(status: PaymentOrderStatus): boolean {
  return !isOpen(status);
}

/** No transition leaves this state at all. */
export function isTerminal(status: PaymentOrderStatus): boolean {
  return !ORDER_TRANSITIONS.some((t) => t.from === status);
}

/** The first state of a new order: the hosted page collects payer details, an intent is live at once. */
export function initialOrderStatus(responseMode: 'CHECKOUT' | 'INTENT'): PaymentOrderStatus {
  return responseMode === 'CHECKOUT' ? 'AWAITING_CUSTOMER' : 'PENDING_PAYMENT';
}

export function transitionTrigger(from: PaymentOrderStatus, to: PaymentOrderStatus): OrderTrigger | undefined {
  return triggerByMove.get(transitionKey(from, to));
}

export function canTransition(from: PaymentOrderStatus, to: PaymentOrderStatus): boolean {
  return transitionTrigger(from, to) !== undefined;
}

/** Throws INVALID_STATE (409); the message names both states and is safe to show a merchant. */
export function assertTransition(from: PaymentOrderStatus, to: PaymentOrderStatus): OrderTrigger {
  const trigger = transitionTrigger(from, to);
  if (trigger === undefined) {
    throw new AppError('INVALID_STATE', `A payment order in status ${from} cannot move to ${to}.`);
  }
  return trigger;
}

/** Where `trigger` takes an order in `from`; throws INVALID_STATE when it does not apply there. */
export function applyTrigger(from: PaymentOrderStatus, trigger: OrderTrigger): PaymentOrderStatus {
  const move = ORDER_TRANSITIONS.find((t) => t.from === from && t.trigger === trigger);
  if (move === undefined) {
    throw new AppError('INVALID_STATE', `A payment order in status ${from} does not accept ${trigger}.`);
  }
  return move.to;
}

/**
 * What to do with a provider's payment confirmation. Money that arrives for an order we already
 * closed (expired, cancelled, failed) is real money: it is never dropped and never silently turns
 * the order PAID; the service records it and flags the order for operations review.
 */
export function confirmationOutcome(status: PaymentOrderStatus): 'apply' | 'already_applied' | 'flag_for_review' {
  switch (status) {
    case 'AWAITING_CUSTOMER':
    case 'PENDING_PAYMENT':
    case 'AWAITING_CONFIRMATION':
      return 'apply';
    case 'PAID':
    case 'MANUALLY_CONFIRMED':
    case 'REFUNDED':
      return 'already_applied';
    case 'FAILED':
    case 'EXPIRED':
    case 'CANCELLED':
      return 'flag_for_review';
    default:
      return unreachable(status);
  }
}

/** What the order says a confirmation must match, and what the provider reported. */
export interface ConfirmationFacts {
  order: { status: PaymentOrderStatus; amountPaise: number; providerReference: string | null; bankTransactionId: string | null };
  reported: { utr: string; amountPaise: number; providerReference: string };
}

/**
 * The one check of a provider's payment confirmation (callbacks, live checks and the expiry
 * worker's final check all come here):
 * - apply: an open order, and the provider reports exactly its amount and our collection;
 * - duplicate: the confirmation already applied (same UTR);
 * - review_mismatch: the amount or the provider reference differs (contract §6 b): never PAID;
 * - review_late: a matching confirmation after EXPIRED or CANCELLED (contract §6 a), or after
 *   FAILED (money may have moved after the provider's failure: queued the same way);
 * - record_only: a second UTR for a confirmed order: recorded and flagged, no state can take it.
 */
export type ConfirmationVerdict = 'apply' | 'duplicate' | 'review_mismatch' | 'review_late' | 'record_only';

export function judgeConfirmation({ order, reported }: ConfirmationFacts): ConfirmationVerdict {
  const matches = reported.amountPaise === order.amountPaise && order.providerReference !== null && reported.providerReference === order.providerReference;
  switch (confirmationOutcome(order.status)) {
    case 'apply':
      return matches ? 'apply' : 'review_mismatch';
    case 'already_applied':
      return reported.utr === order.bankTransactionId ? 'duplicate' : 'record_only';
    case 'flag_for_review':
      return matches ? 'review_late' : 'review_mismatch';
  }
}

/** A provider failure only closes an open order; after any final outcome it is stale news. */
export function failureOutcome(status: PaymentOrderStatus): 'apply' | 'ignore' {
  return isOpen(status) ? 'apply' : 'ignore';
}

function unreachable(value: never): never {
  throw new Error(`unhandled payment order status ${String(value)}`);
}
