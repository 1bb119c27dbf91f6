/** Console answers: the review queue, refunds, reconciliation and the finance pages (answers.ts). */
import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../schemas/common.js';
import { Settlement } from '../../schemas/settlements.js';
import { Bool, ConsoleRefundStatus, Int, List, NInt, NStr, Str } from './answers-common.js';

// ---- review queue, refunds, reconciliation ----
export const ReviewItem = Type.Object({
  id: Str(),
  kind: StringEnum(['late_confirmation', 'confirmation_mismatch', 'unconfirmed_payer_reference']),
  status: StringEnum(['open', 'confirmed', 'rejected']),
  org_id: Str(),
  order: Nullable(
    Type.Object({ id: Str(), order_id: Str(), status: Str(), amount_paise: Int(), provider_reference: NStr(), payer_reference: NStr() }),
  ),
  order_status_at_open: Str(),
  provider_reported: Type.Unsafe<Record<string, unknown> | null>({
    type: ['object', 'null'],
    description: 'what the provider reported (utr, amount_paise, provider_reference, paid_at, source); null for an unconfirmed payer reference',
    properties: { utr: {}, amount_paise: {}, provider_reference: {}, paid_at: {}, source: {} },
  }),
  payer_claimed_utr: NStr(),
  acted_by: NStr(),
  note: NStr(),
  acted_at: NStr(),
  created_at: Str(),
});
export const RefundFields = {
  id: Str(),
  refund_id: Str(),
  order_id: Str(),
  amount_paise: Int(),
  currency: Type.Literal('INR'),
  reason: NStr(),
  status: ConsoleRefundStatus,
  provider_reference: NStr(),
  livemode: Bool(),
  created_at: Str(),
  completed_at: NStr(),
};
export const ConsoleRefund = Type.Object(RefundFields);
export const ConsoleRefundRow = Type.Object({ ...RefundFields, org_id: Str(), reviewed_by: NStr(), review_note: NStr(), failure_reason: NStr() });
export const OrderRefund = Type.Object({ ...RefundFields, reviewed_by: NStr(), failure_reason: NStr() });
export const ReconBreak = Type.Object({
  break_id: Str(),
  kind: Str(),
  settlement_id: NStr(),
  order_id: NStr(),
  refund_id: NStr(),
  expected_paise: NInt(),
  reported_paise: NInt(),
  detected_at: Str(),
  status: StringEnum(['open', 'resolved']),
  resolved_by: NStr(),
  resolution_note: NStr(),
  resolved_at: NStr(),
  payout_id: NStr(),
  provider_ref: NStr(),
});

// ---- finance ----
export const FigureFields = {
  collected_paise: Int(),
  refunded_paise: Int(),
  fees_paise: Int(),
  taxes_paise: Int(),
  adjustments_paise: Int(),
  settled_paise: Int(),
  unsettled_paise: Int(),
};
export const Figures = Type.Object(FigureFields);
export const LedgerDay = Type.Object({ date: Str(), collected_paise: Int(), settled_paise: Int() });
export const Balances = Type.Object({
  time_zone: Str(),
  today: Str(),
  accounts: List(
    Type.Object({ provider_account_id: Str(), name: Str(), provider: Str(), ...FigureFields, daily: List(LedgerDay) }),
  ),
  totals: Figures,
  daily: List(LedgerDay),
});
/** The merchant API's settlement (contract §9) with what the console adds. */
export const ConsoleSettlement = Type.Object({
  ...Settlement.properties,
  provider_account_id: Str(),
  provider: Str(),
  provider_account_name: Str(),
  currency: Str(),
  imported_at: Str(),
  open_breaks: Int(),
});
export const ConsoleSettlementLine = Type.Object({
  line_id: Str(),
  type: Str(),
  reported_type: NStr(),
  order_id: NStr(),
  refund_id: NStr(),
  order_reference: NStr(),
  refund_reference: NStr(),
  provider_payment_id: NStr(),
  amount_paise: Int(),
  fee_paise: Int(),
  tax_paise: Int(),
  net_paise: Int(),
  match: Str(),
});
