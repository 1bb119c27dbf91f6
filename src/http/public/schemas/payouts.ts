/**
 * Payouts (API §2.3, §2.4, §4.3, §4.4; contract §4): the create request with every rule JSON
 * Schema can state (beneficiary_id XOR beneficiary, IFSC and mobile shapes, the rail limits of
 * IMPS and RTGS), the payout with its attempts, the beneficiary as returned, and the envelopes.
 * Whether an IFSC names a real bank branch, and whether a beneficiary, bank connection or mode is usable,
 * is decided by services/payouts/payouts.ts (422 VALIDATION_FAILED / BENEFICIARY_INVALID / ROUTE_INVALID /
 * MODE_NOT_ENABLED).
 */
import { Type } from '@sinclair/typebox';
import { AMOUNT_MAX_PAISE, AMOUNT_MIN_PAISE } from '../../../domain/money.js';
import {
  API_PAYOUT_STATUSES, BENEFICIARY_NAME_MAX, checkRailRules, CLIENT_REFERENCE_MAX, IMPS_MAX_PAISE, PAYOUT_MODES, REMARKS_MAX, RTGS_MIN_PAISE,
} from '../../../domain/payout.js';
import { INDIAN_MOBILE_PATTERN } from '../../../domain/phone.js';
import { Nullable, refTo, Text, Timestamp, UUID_PATTERN, Uuid, Livemode, StringEnum } from './common.js';
import { listQuery, NEXT_CURSOR_DESCRIPTION } from './lists.js';

export const PayoutMode = StringEnum(PAYOUT_MODES, { $id: 'PayoutMode', description: 'as enabled on the payout route' });
export const PayoutStatus = StringEnum(API_PAYOUT_STATUSES, { $id: 'PayoutStatus', description: 'API §3.2, contract §4' });

/** domain/ifsc.ts IFSC_PATTERN in either case (the service upper-cases an IFSC before looking it up). */
const IFSC_EITHER_CASE = '^[A-Za-z]{4}0[A-Za-z0-9]{6}$';
const IFSC_ISSUE = 'is not a valid Indian IFSC (format, bank and branch are checked)';

export const InlineBeneficiary = Type.Object(
  {
    name: Text(1, BENEFICIARY_NAME_MAX),
    account_number: Type.String({ pattern: '^[0-9]{8,20}$', description: '8 to 20 digits; never returned' }),
    ifsc: Type.String({ pattern: IFSC_EITHER_CASE, 'x-issue': IFSC_ISSUE, description: 'valid 11-character Indian IFSC; bank and branch are checked' }),
    mobile: Type.String({ pattern: INDIAN_MOBILE_PATTERN.source, 'x-issue': 'must be an Indian 10-digit mobile number', description: 'Indian 10-digit mobile, no +91' }),
    details_confirmation: Type.Literal(true, { description: 'the merchant confirms the details; stored as a reusable, confirmed beneficiary' }),
  },
  { $id: 'InlineBeneficiary', additionalProperties: false },
);

/** The issue text of a rail limit, taken from the rule itself (domain/payout.ts checkRailRules). */
const railIssue = (mode: 'IMPS' | 'RTGS', amount: number): string => checkRailRules(mode, amount)[0]?.issue ?? '';

export const CreatePayoutRequest = Type.Object(
  {
    beneficiary_id: Type.Optional(Type.String({ pattern: UUID_PATTERN, description: 'an active confirmed beneficiary; required when beneficiary is omitted' })),
    beneficiary: Type.Optional(refTo(InlineBeneficiary)),
    bank_connection_id: Type.Optional(Type.String({ pattern: UUID_PATTERN, description: 'an active payout route; the default route when omitted' })),
    amount_paise: Type.Integer({
      minimum: AMOUNT_MIN_PAISE,
      maximum: AMOUNT_MAX_PAISE,
      description: `INR, in paise. IMPS at most ${IMPS_MAX_PAISE}, RTGS at least ${RTGS_MIN_PAISE}.`,
    }),
    mode: refTo(PayoutMode),
    client_reference: Type.Optional(Type.String({ maxLength: CLIENT_REFERENCE_MAX })),
    remarks: Type.Optional(Type.String({ maxLength: REMARKS_MAX })),
  },
  {
    $id: 'CreatePayoutRequest',
    additionalProperties: false,
    description: 'API §4.3. Exactly one of beneficiary_id and beneficiary.',
    allOf: [
      { oneOf: [{ required: ['beneficiary_id'] }, { required: ['beneficiary'] }], 'x-field': 'beneficiary', 'x-issue': 'exactly one of beneficiary_id and beneficiary is required' },
      {
        if: { properties: { mode: { const: 'IMPS' } }, required: ['mode'] },
        then: { properties: { amount_paise: { maximum: IMPS_MAX_PAISE, 'x-issue': railIssue('IMPS', IMPS_MAX_PAISE + 1) } } },
      },
      {
        if: { properties: { mode: { const: 'RTGS' } }, required: ['mode'] },
        then: { properties: { amount_paise: { minimum: RTGS_MIN_PAISE, 'x-issue': railIssue('RTGS', RTGS_MIN_PAISE - 1) } } },
      },
    ],
  },
);

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
