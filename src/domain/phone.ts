/**
 * Indian mobile numbers: the one home of the rule. Stored and sent on as the bare 10 digits, no
 * `+91`, `0` or spaces. Mobile numbers start with 6, 7, 8 or 9 (TRAI numbering plan); a landline
 * shape is refused.
 *
 * People write the same number in many ways ("+91 98765 43210", "098765-43210", "(987) 654 3210").
 * normaliseIndianMobile() reads those: it drops separators, then one country or trunk prefix,
 * then checks the 10 digits. The hosted checkout page applies the very same three patterns in the
 * browser: they are rendered into the phone field's data attributes (see
 * src/http/public/checkout/templates.ts), so the page and the server can never disagree.
 */

/** The stored form: 10 digits, the first 6-9. */
export const INDIAN_MOBILE_PATTERN = /^[6-9][0-9]{9}$/;
const INDIAN_MOBILE = INDIAN_MOBILE_PATTERN;
/** Characters people put between digits: spaces (any kind), dashes, dots, parentheses. */
const SEPARATORS = /[\s().-]/g;
/** One prefix before exactly 10 digits: the country code (+91 or 91) or the trunk prefix 0. */
const PREFIX = /^(?:\+?91|0)(?=[0-9]{10}$)/;

/** The patterns as the checkout page's script applies them (source and flags, in order). */
export const PHONE_RULE_FOR_PAGE = {
  separators: SEPARATORS.source,
  prefix: PREFIX.source,
  mobile: INDIAN_MOBILE.source,
} as const;

/** Longest spelling worth reading ("+91 (987) 654-3210 " and the like); longer input is refused early. */
export const PHONE_INPUT_MAX_LENGTH = 24;

export function isIndianMobile(value: string): boolean {
  return INDIAN_MOBILE_PATTERN.test(value);
}

/** The bare 10 digits of an Indian mobile number written any usual way; null when it is not one. */
export function normaliseIndianMobile(value: string): string | null {
  if (value.length > PHONE_INPUT_MAX_LENGTH) return null;
  const digits = value.replace(SEPARATORS, '').replace(PREFIX, '');
  return INDIAN_MOBILE.test(digits) ? digits : null;
}
