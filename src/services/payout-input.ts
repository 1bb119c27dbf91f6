/**
 * The one set of rules a payout instruction must pass, wherever it comes from: the merchant API
 * (after its JSON schema), the console's payout form and every row of a bulk file (which have no
 * schema in front of them, so the shape rules are here too). Returns the issues, never throws, so
 * a bulk file can report every row's problems before anything is created.
 */
import type { FieldIssue } from '../domain/errors.js';
import { AMOUNT_MAX_PAISE, AMOUNT_MIN_PAISE } from '../domain/money.js';
import { checkRailRules, isPayoutMode, type PayoutMode } from '../domain/payout.js';
import { charLength, isStorableText, isUuid } from '../domain/text.js';
import { checkInlineBeneficiary, type InlineBeneficiary, type InlineBeneficiaryInput } from './beneficiaries.js';

export interface PayoutInstruction {
  beneficiary_id?: string | undefined;
  beneficiary?: InlineBeneficiaryInput | undefined;
  amount_paise: number;
  mode: PayoutMode;
  client_reference?: string | undefined;
  remarks?: string | undefined;
}

const ACCOUNT_NUMBER = /^[0-9]{8,20}$/;

function checkText(issues: FieldIssue[], field: string, value: string | undefined, max: number): void {
  if (value !== undefined && (!isStorableText(value) || charLength(value) > max)) issues.push({ field, issue: `must be at most ${max} characters of text` });
}

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
  checkText(issues, 'client_reference', body.client_reference, 100);
  checkText(issues, 'remarks', body.remarks, 255);
  if (amountOk && isPayoutMode(body.mode)) issues.push(...checkRailRules(body.mode, body.amount_paise));
  return { issues, inline: issues.length === 0 ? inline : null };
}
