/**
 * The payout's create request (API §4.3; contract §4) with every rule JSON Schema can state
 * (beneficiary_id XOR beneficiary, IFSC and mobile shapes, the rail limits of IMPS and RTGS): the
 * route's validation and OpenAPI (http/public/schemas/payouts.ts adds it to the document) and the
 * payouts service's input type; and the console's payout form, whose shapes only are checked here.
 * Whether an IFSC names a real bank branch, and whether a beneficiary, bank connection or mode is
 * usable, is decided by services/payouts/ (422 VALIDATION_FAILED / BENEFICIARY_INVALID /
 * ROUTE_INVALID / MODE_NOT_ENABLED).
 */
import { type Static, Type } from '@sinclair/typebox';
import { AMOUNT_MAX_PAISE, AMOUNT_MIN_PAISE } from '../domain/money.js';
import {
  BENEFICIARY_NAME_MAX, checkRailRules, CLIENT_REFERENCE_MAX, IMPS_MAX_PAISE, PAYOUT_MODES, REMARKS_MAX, RTGS_MIN_PAISE,
} from '../domain/payout.js';
import { INDIAN_MOBILE_PATTERN } from '../domain/phone.js';
import { refTo, StringEnum, Text, UUID_PATTERN } from './common.js';

export const PayoutMode = StringEnum(PAYOUT_MODES, { $id: 'PayoutMode', description: 'as enabled on the payout route' });

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

/**
 * The console's payout form (POST /console/api/payouts): shapes only; every rule of a payout is
 * checked by the service (services/payouts/payout-input.ts), as for a bulk file's row. Inline
 * details are confirmed by the maker seeing the bank's name, so there is no details_confirmation.
 */
export const ConsolePayoutBody = Type.Object(
  {
    beneficiary_id: Type.Optional(Type.String({ maxLength: 64 })),
    beneficiary: Type.Optional(
      Type.Object(
        { name: Type.String({ maxLength: 400 }), account_number: Type.String({ maxLength: 40 }), ifsc: Type.String({ maxLength: 20 }), mobile: Type.String({ maxLength: 20 }) },
        { additionalProperties: false },
      ),
    ),
    amount_paise: Type.Integer({ minimum: AMOUNT_MIN_PAISE, maximum: AMOUNT_MAX_PAISE }),
    mode: Type.Union(PAYOUT_MODES.map((m) => Type.Literal(m))),
    client_reference: Type.Optional(Type.String({ maxLength: CLIENT_REFERENCE_MAX })),
    remarks: Type.Optional(Type.String({ maxLength: REMARKS_MAX })),
  },
  { additionalProperties: false },
);

/** The create's body as the schema checked it: the payouts service's input. */
export type CreatePayoutBody = Static<typeof CreatePayoutRequest>;
/** A console payout instruction as the form's schema checked it (the approvals service's input; a bulk row has its shape). */
export type ConsolePayoutInput = Static<typeof ConsolePayoutBody>;
