/**
 * Every Cashfree status we can receive, mapped explicitly (cf-mcp openapi-PG.json 2025-01-01:
 * PaymentEntity.payment_status, RefundEntity.refund_status, OrderEntity.order_status). A value not
 * listed here is an error (logged, counted in /metrics), never a guess.
 */

/** What one payment attempt's status means for the order. */
export type AttemptMeaning = 'paid' | 'open' | 'failed';

export const PAYMENT_STATUS: Readonly<Record<string, AttemptMeaning>> = {
  SUCCESS: 'paid',
  // Started, no answer from the payer's bank yet (a PAYMENT_SUCCESS_WEBHOOK may even carry it).
  PENDING: 'open',
  // The attempt exists, the payer has not acted on it yet.
  NOT_ATTEMPTED: 'open',
  FAILED: 'failed',
  // The payer left the UPI app without paying: this attempt (our intent's `tr`) is over.
  USER_DROPPED: 'failed',
  VOID: 'failed',
  CANCELLED: 'failed',
};

/** What a refund's status means; `pending` keeps it PROCESSING (inquired again later). */
export type RefundMeaning = 'completed' | 'pending' | 'failed';

export const REFUND_STATUS: Readonly<Record<string, RefundMeaning>> = {
  SUCCESS: 'completed',
  PENDING: 'pending',
  // Held by Cashfree (e.g. insufficient balance to refund): not final.
  ONHOLD: 'pending',
  CANCELLED: 'failed',
  // In the spec's description but not its enum: handled all the same.
  FAILED: 'failed',
};

export function paymentMeaning(status: unknown): AttemptMeaning | null {
  return typeof status === 'string' && Object.hasOwn(PAYMENT_STATUS, status) ? PAYMENT_STATUS[status]! : null;
}

export function refundMeaning(status: unknown): RefundMeaning | null {
  return typeof status === 'string' && Object.hasOwn(REFUND_STATUS, status) ? REFUND_STATUS[status]! : null;
}
