/** Console answers: orders, payouts, the overview and paged lists (answers.ts). */
import { Type } from '@sinclair/typebox';
import { Nullable, refTo, StringEnum } from '../../schemas/common.js';
import { PaymentOrder } from '../../schemas/payment-orders.js';
import { Payout } from '../../schemas/payouts.js';
import { AnyJson } from './common.js';
import { Bool, ConsolePayoutStatus, Int, List, NInt, NStr, Str } from './answers-common.js';
import { OrderRefund } from './answers-finance.js';

// ---- money ----
export const OrderRow = Type.Object({
  id: Str(),
  order_id: Str(),
  merchant_order_reference: NStr(),
  amount_paise: Int(),
  status: Str(),
  response_mode: Str(),
  utr: NStr(),
  livemode: Bool(),
  created_at: Str(),
  purpose: Str(),
  customer_name: NStr(),
  paid_at: NStr(),
  settlement_id: NStr(),
  settlement_utr: NStr(),
  settled_at: NStr(),
});
export const PayoutRow = Type.Object({
  id: Str(),
  transaction_id: Str(),
  client_reference: NStr(),
  amount_paise: Int(),
  mode: Str(),
  status: Str(),
  beneficiary_name: Str(),
  account_number_last4: Str(),
  utr: NStr(),
  livemode: Bool(),
  created_at: Str(),
});
export const DeliveryAttempt = Type.Object({ attempt_no: Int(), status_code: NInt(), latency_ms: Int(), error: NStr(), response_snippet: NStr(), attempted_at: Str() });
export const Delivery = Type.Object({
  delivery_id: Str(),
  event_id: Str(),
  event: Str(),
  target: Str(),
  status: Str(),
  attempts: List(DeliveryAttempt),
  delivered_at: NStr(),
  created_at: Str(),
});
export const OrderDetail = Type.Object({
  order: refTo(PaymentOrder),
  payer: Type.Object({ name: NStr(), email: NStr(), phone: NStr(), masked: Bool() }, { description: 'masked (a***@example.in, ••••••5678) unless the role acts on payments' }),
  history: List(Type.Object({ from_status: NStr(), to_status: Str(), cause: Str(), detail: AnyJson('what the move recorded'), at: Str() })),
  callbacks: List(Delivery),
  refunds: List(OrderRefund),
});
/** The merchant API's payout (API §2.3) in any status, PENDING_APPROVAL and REJECTED too. */
export const PayoutFields = { ...Payout.properties, status: ConsolePayoutStatus };
/** A payout with the console's maker-checker fields. */
export const ConsolePayout = Type.Object({
  ...PayoutFields,
  approval_required: Bool(),
  maker_user_id: NStr(),
  checker_user_id: NStr(),
  decision_note: NStr(),
});
export const PayoutDetail = Type.Object({
  payout: Type.Object(PayoutFields),
  attempts: List(
    Type.Object({ attempt_no: Int(), status: Str(), bank_reference: NStr(), utr: NStr(), failure_reason: NStr(), inquiries: Int(), submitted_at: NStr(), created_at: Str() }),
  ),
  history: List(Type.Object({ entity: Str(), from_status: NStr(), to_status: Str(), cause: Str(), detail: AnyJson('what the move recorded'), at: Str() })),
  callbacks: List(Delivery),
});
export const CheckFields = {
  checked_at: Str(),
  reason: Str(),
  provider: Str(),
  asked: Str(),
  answer: Str(),
  outcome: Str(),
  duration_ms: Int(),
  error: NStr(),
  utr: NStr(),
  failure_reason: NStr(),
};
export const OrderChecks = Type.Object({
  checks: List(Type.Object({ ...CheckFields, provider_status: NStr(), amount_paise: NInt(), provider_reference: NStr() })),
  truncated: Bool(),
});
export const PayoutInquiries = Type.Object({
  checks: List(Type.Object({ ...CheckFields, attempt_no: NInt(), mapped_status: NStr(), bank_reference: NStr() })),
  truncated: Bool(),
});

// ---- overview, pages ----
export const TotalsFields = {
  count: Int(),
  succeeded: Int(),
  failed: Int(),
  amount_paise: Int(),
  failed_amount_paise: Int(),
  pending_amount_paise: Int(),
};
export const Totals = Type.Object({
  ...TotalsFields,
  success_rate: Nullable(Type.Number({ description: 'succeeded / (succeeded + failed), 0..1; null when nothing has finished' })),
  refunded_paise: Type.Optional(Int()),
  net_paise: Type.Optional(Int()),
});
export const Flow = Type.Object({ today: Totals, month: Totals, daily: List(Type.Object({ date: Str(), ...TotalsFields })) });
export const Overview = Type.Object({ time_zone: Str(), today: Str(), month: Str(), collections: Flow, payouts: Flow });
export const BeneficiaryView = Type.Object({
  id: Str(),
  name: Str(),
  account_number_masked: Str(),
  account_number_last4: Str(),
  ifsc: Str(),
  bank_name: Str(),
  status: StringEnum(['active', 'inactive']),
  saved_by: Nullable(Type.Object({ client_id: Str(), name: NStr() })),
  created_at: Str(),
});
export const BankConnection = Type.Object({ id: Str(), name: Str(), modes: List(Str()), provider: Str(), status: StringEnum(['active', 'inactive']), is_default: Bool(), created_at: Str() });
