/**
 * Payouts (API §2.3, §2.4, §4.3, §4.4; contract §4): the payout with its attempts, the beneficiary
 * as returned, and the envelopes. The create request is in the contract layer
 * (src/contract/payouts.ts: the service takes its type), re-exported here.
 */
import { Type } from '@sinclair/typebox';
import { CreatePayoutRequest, InlineBeneficiary, PayoutMode } from '../../../contract/payouts.js';
import { API_PAYOUT_STATUSES } from '../../../domain/payout.js';
import { Nullable, refTo, Timestamp, Uuid, Livemode, StringEnum } from './common.js';
import { listQuery, NEXT_CURSOR_DESCRIPTION } from './lists.js';

export { CreatePayoutRequest, InlineBeneficiary, PayoutMode };

export const PayoutStatus = StringEnum(API_PAYOUT_STATUSES, { $id: 'PayoutStatus', description: 'API §3.2, contract §4' });

export const Beneficiary = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    account_number_last4: Type.String({ pattern: '^[0-9]{4}$', description: 'the full account number is never returned' }),
    ifsc: Type.String({ minLength: 11, maxLength: 11 }),
    bank_name: Type.String(),
  },
  { $id: 'Beneficiary', additionalProperties: false, description: 'API §2.4' },
);

export const PayoutAttempt = Type.Object(
  {
    status: refTo(PayoutStatus),
    bank_reference: Nullable(Type.String()),
    utr: Nullable(Type.String({ description: 'null until known' })),
  },
  { $id: 'PayoutAttempt', additionalProperties: false },
);

export const Payout = Type.Object(
  {
    id: Uuid(),
    transaction_id: Type.String({ description: 'service transaction identifier; usable in paths' }),
    client_reference: Nullable(Type.String()),
    amount_paise: Type.Integer(),
    currency: Type.Literal('INR'),
    mode: refTo(PayoutMode),
    status: refTo(PayoutStatus),
    beneficiary: refTo(Beneficiary),
    attempts: Type.Array(refTo(PayoutAttempt)),
    bank_reference: Nullable(Type.String()),
    utr: Nullable(Type.String({ description: 'set with SUCCESS; retain it' })),
    processed_at: Nullable(Timestamp()),
    failure_reason: Nullable(Type.String({ description: 'set with FAILED' })),
    remarks: Nullable(Type.String()),
    livemode: Livemode,
    created_at: Timestamp(),
  },
  { $id: 'Payout', additionalProperties: false, description: 'API §2.3. Final only with SUCCESS and a UTR.' },
);

export const PayoutCreatedEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    data: refTo(Payout),
    approval_required: Type.Literal(false),
    message: Type.String(),
    request_id: Type.String(),
  },
  { $id: 'PayoutCreatedEnvelope', additionalProperties: false },
);

export const PayoutEnvelope = Type.Object(
  { success: Type.Literal(true), data: refTo(Payout), request_id: Type.String() },
  { $id: 'PayoutEnvelope', additionalProperties: false },
);

export const PayoutListEnvelope = Type.Object(
  { success: Type.Literal(true), data: Type.Array(refTo(Payout)), next_cursor: Nullable(Type.String({ description: NEXT_CURSOR_DESCRIPTION })), request_id: Type.String() },
  { $id: 'PayoutListEnvelope', additionalProperties: false, description: 'contract §7: newest first' },
);

export const ListPayoutsQuery = listQuery(StringEnum(API_PAYOUT_STATUSES, { description: 'only payouts in this status' }));

export const PayoutParams = Type.Object({ payout: Type.String({ maxLength: 64, description: 'payout id (UUID) or transaction_id' }) });

export const PAYOUT_COMPONENTS = [PayoutMode, PayoutStatus, InlineBeneficiary, CreatePayoutRequest, Beneficiary, PayoutAttempt, Payout, PayoutCreatedEnvelope, PayoutEnvelope, PayoutListEnvelope];
