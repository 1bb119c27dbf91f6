/**
 * Indian mobile numbers as the API takes them: the bare 10 digits, no `+91`, `0` or spaces.
 * Mobile numbers start with 6, 7, 8 or 9 (TRAI numbering plan); a landline shape is refused.
 * Normalising other spellings is the caller's decision, so this only answers yes or no.
 */
export const INDIAN_MOBILE_PATTERN = /^[6-9][0-9]{9}$/;

export function isIndianMobile(value: string): boolean {
  return INDIAN_MOBILE_PATTERN.test(value);
}
