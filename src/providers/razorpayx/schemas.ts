/**
 * RazorpayX's answers as its API reference documents them, as TypeBox schemas: the one place that
 * says what the connector reads. Only the fields Tijori uses are named; others are allowed, since
 * Razorpay adds fields without notice. Sources (rzp-docs):
 * - error: api/x/payout-idempotency/make-request.md — `{"error": {"code", "description", "field", ...}}`;
 * - payout entity: api/x/payouts/entity.md; a collection: api/x/payouts/fetch-all.md;
 * - webhook envelope: webhooks/payouts.md — `{"event", "payload": {"payout": {"entity": ...}}, "created_at"}`;
 * - balances: api/x/account-validation/balance-fetch.md — `GET /v1/banking_balances`;
 * - transactions (the account statement): api/x/transactions/entity.md, fetch-all.md — `GET /v1/transactions`.
 */
import { Type, type Static } from '@sinclair/typebox';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Paise = Type.Integer({ minimum: 0 });

export const RzpError = Type.Object({
  error: Type.Object({
    code: Type.Optional(Nullable(Type.String())),
    description: Type.Optional(Nullable(Type.String())),
    field: Type.Optional(Nullable(Type.String())),
  }),
});

/** Any object, read for what can be told of it when it is not usable (ids and status for an anomaly record). */
export const Named = Type.Object({ id: Type.Optional(Type.Unknown()), status: Type.Optional(Type.Unknown()) });

export const PayoutEntity = Type.Object({
  id: Type.String({ pattern: '^pout_' }),
  entity: Type.Literal('payout'),
  status: Type.Optional(Nullable(Type.String())),
  utr: Type.Optional(Nullable(Type.String())),
  reference_id: Type.Optional(Nullable(Type.String())),
  status_details: Type.Optional(
    Type.Union([Type.Null(), Type.Object({ description: Type.Optional(Nullable(Type.String())), reason: Type.Optional(Nullable(Type.String())) })]),
  ),
});
export type PayoutEntity = Static<typeof PayoutEntity>;

/** `{"entity": "collection", "items": [...]}` with items still unread (each is decoded on its own). */
export const Collection = Type.Object({ entity: Type.Literal('collection'), items: Type.Array(Type.Unknown()) });

/** Just enough of an item to filter by reference_id before reading it as a payout. */
export const WithReference = Type.Object({ reference_id: Type.Optional(Type.Unknown()) });

export const WebhookEnvelope = Type.Object({
  event: Type.Optional(Type.String()),
  created_at: Type.Optional(Type.Number()),
  payload: Type.Optional(Type.Object({ payout: Type.Optional(Type.Object({ entity: Type.Optional(Type.Unknown()) })) })),
});

export const BankingBalance = Type.Object({
  entity: Type.Literal('banking_balance'),
  account_number: Type.String(),
  currency: Type.String(),
  amount: Type.Integer(),
  available_amount: Type.Optional(Type.Integer()),
  refreshed_at: Type.Optional(Type.Integer()),
});

/** The transaction's source: a payout debited, a reversal credited back, a bank transfer in, or another kind. */
export const TransactionSource = Type.Object({
  id: Type.String(),
  entity: Type.String(),
  amount: Type.Optional(Paise),
  fees: Type.Optional(Type.Integer()),
  tax: Type.Optional(Type.Integer()),
  utr: Type.Optional(Nullable(Type.String())),
  reference_id: Type.Optional(Nullable(Type.String())),
  /** A reversal's payout ([INF]: the documents show no reversal source; Razorpay's reversal entities name `payout_id`). */
  payout_id: Type.Optional(Nullable(Type.String())),
});

export const Transaction = Type.Object({
  id: Type.String({ pattern: '^txn_' }),
  entity: Type.Literal('transaction'),
  account_number: Type.String(),
  amount: Paise,
  currency: Type.String(),
  credit: Paise,
  debit: Paise,
  balance: Type.Optional(Type.Integer()),
  source: Type.Optional(Type.Union([TransactionSource, Type.Null()])),
  created_at: Type.Integer(),
});
export type Transaction = Static<typeof Transaction>;
