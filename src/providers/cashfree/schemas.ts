/**
 * Cashfree PG's answers as its API reference documents them (API version 2023-08-01), as TypeBox
 * schemas: the one place that says what the adapter reads, decoded with `decoded()` (../decode.ts)
 * instead of `as` casts. Only the fields Tijori uses are named, and others are allowed (Cashfree
 * adds fields without notice). A field whose value the adapter judges itself (a status word, an
 * amount that may come as a number or a string, a UTR) is `Type.Unknown()` here, so that each
 * wrong value is recorded as its own anomaly (unknown_payment_status, bad_amount, missing_utr...)
 * by the adapter, not as "does not fit". Settlement recon answers: ./settlements.ts.
 */
import { Type, type Static } from '@sinclair/typebox';

const Judged = () => Type.Optional(Type.Unknown());

/** `{message, code, type}`: every error answer. */
export const CashfreeError = Type.Object({ message: Judged(), code: Judged(), type: Judged() });

/** POST /orders, GET /orders/{order_id}. */
export const OrderAnswer = Type.Object({ payment_session_id: Judged(), order_status: Judged(), order_amount: Judged() });

/** POST /orders/sessions (Order Pay, UPI link): the attempt and its intent at data.payload.default. */
export const OrderPayAnswer = Type.Object({
  cf_payment_id: Judged(),
  payment_amount: Judged(),
  data: Type.Optional(Type.Object({ payload: Type.Optional(Type.Object({ default: Judged() })) })),
});

/** One payment attempt: an item of GET /orders/{order_id}/payments, and `data.payment` of a payment webhook. */
export const PaymentAttempt = Type.Object({
  cf_payment_id: Judged(),
  payment_status: Judged(),
  payment_amount: Judged(),
  bank_reference: Judged(),
  payment_completion_time: Judged(),
  payment_time: Judged(),
  payment_message: Judged(),
});
export type PaymentAttempt = Static<typeof PaymentAttempt>;
export const PaymentAttempts = Type.Array(PaymentAttempt);

/** POST /orders/{order_id}/refunds, GET /orders/{order_id}/refunds/{refund_id}. */
export const RefundAnswer = Type.Object({ refund_status: Judged(), cf_refund_id: Judged(), refund_id: Judged(), processed_at: Judged(), status_description: Judged() });

/**
 * A webhook: `{type, data: {order: {order_id}, payment, refund}}` (payment and refund by type),
 * read a level at a time so that a part that does not fit is told as that part (a payment webhook
 * whose `data.payment` is not an attempt is refused as such; any other type is acknowledged).
 */
export const WebhookBody = Type.Object({ type: Judged(), data: Judged() });
export const WebhookData = Type.Object({ order: Type.Optional(Type.Object({ order_id: Judged() })), payment: Judged() });
