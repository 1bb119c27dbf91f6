/**
 * The rules of a payout create (API §4.3, §8) that its JSON schema cannot say, in one place for
 * every caller (merchant API, console, bulk files): exactly one of `beneficiary_id` and
 * `beneficiary`, a real IFSC (bank and branch), an Indian mobile, storable text within its length,
 * and the rail limits of the mode (src/domain/payout.ts). The schema in
 * src/http/public/schemas/payouts.ts covers types, shapes and unknown fields.
 */
import { type FieldIssue, validationError } from '../domain/errors.js';
import { lookupIfsc } from '../domain/ifsc.js';
import { checkRailRules, type PayoutMode } from '../domain/payout.js';
import { isIndianMobile } from '../domain/phone.js';
import { charLength, isStorableText } from '../domain/text.js';

export interface CreatePayoutBody {
  beneficiary_id?: string;
  beneficiary?: InlineBeneficiaryInput;
  bank_connection_id?: string;
  amount_paise: number;
  mode: PayoutMode;
  client_reference?: string;
  remarks?: string;
}

export interface InlineBeneficiaryInput {
  name: string;
  account_number: string;
  ifsc: string;
  mobile: string;
  details_confirmation: boolean;
}

export interface InlineBeneficiary {
  name: string;
  accountNumber: string;
  ifsc: string;
  bankName: string;
  mobile: string;
}

export const CLIENT_REFERENCE_MAX = 100;
export const REMARKS_MAX = 255;
export const BENEFICIARY_NAME_MAX = 160;

function checkText(issues: FieldIssue[], field: string, value: string | undefined, max: number): void {
  if (value !== undefined && (!isStorableText(value) || charLength(value) > max)) issues.push({ field, issue: `must be at most ${max} characters of text` });
}

/** Rules JSON schema cannot express: real IFSC (bank and branch), mobile shape, text sanity. */
export function checkInlineBeneficiary(input: InlineBeneficiaryInput, issues: FieldIssue[]): InlineBeneficiary | null {
  const name = input.name.trim();
  if (name === '' || !isStorableText(name) || charLength(name) > BENEFICIARY_NAME_MAX) {
    issues.push({ field: 'beneficiary.name', issue: `must be 1 to ${BENEFICIARY_NAME_MAX} characters of text` });
  }
  const ifsc = input.ifsc.toUpperCase();
  const info = lookupIfsc(ifsc);
  if (!info) issues.push({ field: 'beneficiary.ifsc', issue: 'is not a valid Indian IFSC (format, bank and branch are checked)' });
  if (!isIndianMobile(input.mobile)) issues.push({ field: 'beneficiary.mobile', issue: 'must be an Indian 10-digit mobile number' });
  if (input.details_confirmation !== true) issues.push({ field: 'beneficiary.details_confirmation', issue: 'must be true' });
  if (!info) return null;
  return { name, accountNumber: input.account_number, ifsc, bankName: info.bankName, mobile: input.mobile };
}

/**
 * Every rule of a create that needs no database, all issues at once (VALIDATION_FAILED); the
 * inline beneficiary comes back checked, with its bank's name, for the service to save.
 */
export function validateCreatePayout(body: CreatePayoutBody): { inline: InlineBeneficiary | null } {
  const issues: FieldIssue[] = [];
  if ((body.beneficiary_id !== undefined) === (body.beneficiary !== undefined)) {
    issues.push({ field: 'beneficiary', issue: 'exactly one of beneficiary_id and beneficiary is required' });
  }
  const inline = body.beneficiary ? checkInlineBeneficiary(body.beneficiary, issues) : null;
  checkText(issues, 'client_reference', body.client_reference, CLIENT_REFERENCE_MAX);
  checkText(issues, 'remarks', body.remarks, REMARKS_MAX);
  issues.push(...checkRailRules(body.mode, body.amount_paise));
  if (issues.length > 0) throw validationError(issues);
  return { inline };
}
