/**
 * Settlements of the merchant API (contract §9, "Merchant API"; scope `settlements:read`): a
 * settlement with the fields of `tijori settlements list`, its lines, their envelopes and queries.
 */
import { Type } from '@sinclair/typebox';
import { BREAK_KINDS, LINE_TYPES } from '../../../domain/reconciliation.js';
import { Nullable, refTo, StringEnum, Timestamp, Uuid, UUID_PATTERN } from './common.js';
import { NEXT_CURSOR_DESCRIPTION } from './lists.js';

export const Settlement = Type.Object(
  {
    settlement_id: Uuid("Tijori's id of the settlement"),
    provider_account_id: Nullable(Uuid('the collections account it was fetched from; null for the built-in sandbox')),
    provider_settlement_id: Type.String({ description: "the provider's id of the settlement" }),
    utr: Nullable(Type.String({ description: 'the bank reference of the credit: find it on the bank statement' })),
    gross_paise: Type.Integer({ description: 'the payments it covers' }),
    fees_paise: Type.Integer({ description: "the provider's fees" }),
    tax_paise: Type.Integer({ description: 'GST on the fees' }),
    refunds_paise: Type.Integer({ description: 'refunds it deducted' }),
    adjustments_paise: Type.Integer({ description: 'adjustments and chargebacks it deducted' }),
    net_paise: Type.Integer({ description: 'what reached the bank: gross − fees − tax − refunds − adjustments' }),
    settled_at: Timestamp('when the provider settled'),
    lines: Type.Integer({ minimum: 0, description: 'how many lines it has' }),
    breaks: Type.Integer({ minimum: 0, description: 'how many of its lines disagree with Tijori (reconciliation breaks)' }),
  },
  { $id: 'Settlement', additionalProperties: false, description: 'contract §9: one credit of a PSP to the merchant\'s bank' },
);

export const SettlementLine = Type.Object(
  {
    type: StringEnum(LINE_TYPES, { description: 'gives the direction: PAYMENT adds to the settlement, the others deduct' }),
    order_id: Nullable(Type.String({ description: 'the payment order (PAYMENT lines, and a refund\'s order where known)' })),
    refund_id: Nullable(Type.String({ description: 'the refund (REFUND lines)' })),
    provider_payment_id: Nullable(Type.String({ description: "the provider's payment id" })),
    amount_paise: Type.Integer({ description: 'positive (as the provider reported it: an `ANOMALY` line may show its bad figure)' }),
    fee_paise: Type.Integer(),
    tax_paise: Type.Integer(),
    net_paise: Type.Integer({ description: 'positive: what a PAYMENT adds to the settlement (amount − fee − tax), or what any other line takes from it (amount + fee + tax)' }),
    match: StringEnum(['MATCHED', ...BREAK_KINDS.filter((k) => k !== 'UNSETTLED'), 'ANOMALY'] as const, {
      description: 'MATCHED, or the break kind this line is (contract §9); ANOMALY: bad provider data, never matched (docs/accounting.md)',
    }),
  },
  { $id: 'SettlementLine', additionalProperties: false },
);

export const SettlementEnvelope = Type.Object(
  { success: Type.Literal(true), data: refTo(Settlement), request_id: Type.String() },
  { $id: 'SettlementEnvelope', additionalProperties: false },
);

export const SettlementListEnvelope = Type.Object(
  { success: Type.Literal(true), data: Type.Array(refTo(Settlement)), next_cursor: Nullable(Type.String({ description: NEXT_CURSOR_DESCRIPTION })), request_id: Type.String() },
  { $id: 'SettlementListEnvelope', additionalProperties: false, description: 'contract §7, §9: newest first (by settled_at)' },
);

export const SettlementLineListEnvelope = Type.Object(
  { success: Type.Literal(true), data: Type.Array(refTo(SettlementLine)), next_cursor: Nullable(Type.String({ description: 'pass as `cursor` for the next page; null on the last page' })), request_id: Type.String() },
  { $id: 'SettlementLineListEnvelope', additionalProperties: false, description: 'contract §9: one page of a settlement\'s lines' },
);

export { ListSettlementLinesQuery, ListSettlementsQuery } from '../../../contract/settlements.js';

export const SettlementParams = Type.Object({
  settlement: Type.String({ maxLength: 36, pattern: UUID_PATTERN, 'x-issue': 'must be a settlement_id (a UUID)', description: 'the settlement_id' }),
});

export const SETTLEMENT_COMPONENTS = [Settlement, SettlementLine, SettlementEnvelope, SettlementListEnvelope, SettlementLineListEnvelope];
