/**
 * The one set of rules a payout instruction must pass, wherever it comes from: the merchant API
 * (after its JSON schema, which states the shape rules to OpenAPI clients), the console's payout
 * form and every row of a bulk file (which have no schema in front of them, so the shape rules are
 * here too): exactly one of `beneficiary_id` and `beneficiary`, a real IFSC (bank and branch), an
 * Indian mobile, storable text within its length, the amount bounds and the rail limits of the mode
 * (src/domain/payout.ts). `checkPayoutInstruction` returns the issues and never throws, so a bulk
 * file can report every row's problems before anything is created.
 */
import { randomBytes } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { ConsolePayoutInput, CreatePayoutBody, InlineBeneficiary as InlineBeneficiarySchema } from '../../contract/payouts.js';
import { type FieldIssue, validationError } from '../../domain/errors.js';
import { lookupIfsc } from '../../domain/ifsc.js';
import { AMOUNT_MAX_PAISE, AMOUNT_MIN_PAISE } from '../../domain/money.js';
import { BENEFICIARY_NAME_MAX, CLIENT_REFERENCE_MAX, checkRailRules, isPayoutMode, REMARKS_MAX } from '../../domain/payout.js';
import { isIndianMobile } from '../../domain/phone.js';
import { charLength, isStorableText, isUuid } from '../../domain/text.js';

/**
 * An inline beneficiary as the API's schema has it, but with a confirmation that may be false: the
 * console's form and bulk files have no schema saying `true`, so this module checks it.
 */
export type InlineBeneficiaryInput = Omit<Static<typeof InlineBeneficiarySchema>, 'details_confirmation'> & { details_confirmation: boolean };

export interface InlineBeneficiary {
  name: string;
  accountNumber: string;
  ifsc: string;
  bankName: string;
  mobile: string;
}

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

/** A payout instruction of any channel: the API's body without the bank connection (console and bulk files choose theirs). */
export type PayoutInstruction = Omit<CreatePayoutBody, 'bank_connection_id' | 'beneficiary'> & { beneficiary?: InlineBeneficiaryInput | undefined };

const ACCOUNT_NUMBER = /^[0-9]{8,20}$/;

/** Every rule of a payout instruction; `inline` is the checked inline beneficiary, when one was given and is valid. */
export function checkPayoutInstruction(body: PayoutInstruction): { issues: FieldIssue[]; inline: InlineBeneficiary | null } {
  const issues: FieldIssue[] = [];
  const hasId = body.beneficiary_id !== undefined;
  const hasInline = body.beneficiary !== undefined;
  if (hasId === hasInline) issues.push({ field: 'beneficiary', issue: 'exactly one of beneficiary_id and beneficiary is required' });
  if (hasId && !isUuid(body.beneficiary_id as string)) issues.push({ field: 'beneficiary_id', issue: 'must be a UUID' });
  if (body.beneficiary && !ACCOUNT_NUMBER.test(body.beneficiary.account_number)) {
    issues.push({ field: 'beneficiary.account_number', issue: 'must be 8 to 20 digits' });
  }
  const inline = body.beneficiary ? checkInlineBeneficiary(body.beneficiary, issues) : null;
  const amountOk = Number.isSafeInteger(body.amount_paise) && body.amount_paise >= AMOUNT_MIN_PAISE && body.amount_paise <= AMOUNT_MAX_PAISE;
  if (!amountOk) issues.push({ field: 'amount_paise', issue: `must be a whole number of paise from ${AMOUNT_MIN_PAISE} to ${AMOUNT_MAX_PAISE}` });
  if (!isPayoutMode(body.mode)) issues.push({ field: 'mode', issue: 'must be IMPS, NEFT or RTGS' });
  checkText(issues, 'client_reference', body.client_reference, CLIENT_REFERENCE_MAX);
  checkText(issues, 'remarks', body.remarks, REMARKS_MAX);
  if (amountOk && isPayoutMode(body.mode)) issues.push(...checkRailRules(body.mode, body.amount_paise));
  return { issues, inline: issues.length === 0 ? inline : null };
}

/**
 * checkPayoutInstruction for a console instruction (the payout form, a bulk file's row: inline
 * details are confirmed by the maker seeing the bank's name); `body` is the instruction as checked.
 */
export function checkConsoleInstruction(input: ConsolePayoutInput): { body: PayoutInstruction; issues: FieldIssue[]; inline: InlineBeneficiary | null } {
  const body: PayoutInstruction = {
    ...input,
    beneficiary: input.beneficiary ? { ...input.beneficiary, details_confirmation: true } : undefined,
  };
  return { body, ...checkPayoutInstruction(body) };
}

/** Our reference at the bank for a new payout, whatever its channel: unique, alphanumeric, at most 35 characters. */
export function newTransactionId(): string {
  return `TJP${randomBytes(10).toString('hex').toUpperCase()}`;
}

/** The same rules for a caller that answers VALIDATION_FAILED with every issue at once (the merchant API). */
export function validateCreatePayout(body: PayoutInstruction): { inline: InlineBeneficiary | null } {
  const { issues, inline } = checkPayoutInstruction(body);
  if (issues.length > 0) throw validationError(issues);
  return { inline };
}
