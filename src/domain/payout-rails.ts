/** The rails of a payout (IMPS, NEFT, RTGS) and their rules: amount limits and the shape of a UTR. */
import type { FieldIssue } from './errors.js';
import { formatInr } from './money.js';

export const PAYOUT_MODES = ['IMPS', 'NEFT', 'RTGS'] as const;
export type PayoutMode = (typeof PAYOUT_MODES)[number];

export function isPayoutMode(value: unknown): value is PayoutMode {
  return typeof value === 'string' && (PAYOUT_MODES as readonly string[]).includes(value);
}

/** RBI limits per transaction: IMPS at most ₹5,00,000 (Oct 2021), RTGS at least ₹2,00,000. */
export const IMPS_MAX_PAISE = 50_000_000;
export const RTGS_MIN_PAISE = 20_000_000;

/** Amount rules of the rail, as validation issues on `amount_paise`; NEFT has none. */
export function checkRailRules(mode: PayoutMode, amountPaise: number): FieldIssue[] {
  if (mode === 'IMPS' && amountPaise > IMPS_MAX_PAISE) {
    return [{ field: 'amount_paise', issue: `IMPS allows at most ${formatInr(IMPS_MAX_PAISE)} (${IMPS_MAX_PAISE} paise)` }];
  }
  if (mode === 'RTGS' && amountPaise < RTGS_MIN_PAISE) {
    return [{ field: 'amount_paise', issue: `RTGS needs at least ${formatInr(RTGS_MIN_PAISE)} (${RTGS_MIN_PAISE} paise)` }];
  }
  return [];
}

/** IMPS: 12-digit RRN. NEFT: 16 characters, or the 22 some banks now issue. RTGS: 22. */
const UTR_SHAPES: Record<PayoutMode, RegExp> = {
  IMPS: /^[0-9]{12}$/,
  NEFT: /^(?:[A-Za-z0-9]{16}|[A-Za-z0-9]{22})$/,
  RTGS: /^[A-Za-z0-9]{22}$/,
};

export function isValidUtr(mode: PayoutMode, utr: string): boolean {
  return UTR_SHAPES[mode].test(utr);
}


/** Text limits of a payout instruction (the API schema and the console and bulk checks read these). */
export const CLIENT_REFERENCE_MAX = 100;
export const REMARKS_MAX = 255;
export const BENEFICIARY_NAME_MAX = 160;
/** A checker's note on a console payout or a bulk file (the rejection's reason). */
export const DECISION_NOTE_MAX = 500;
