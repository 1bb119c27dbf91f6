/**
 * Money is integer paise end to end. Rupee strings exist only at the edges (UPI `am`, display),
 * and are produced with integer arithmetic so that no binary-float rounding can ever shift a paisa.
 */

/** API limits for `amount_paise` on orders and payouts (merchant API §8). */
export const AMOUNT_MIN_PAISE = 100;
export const AMOUNT_MAX_PAISE = 10_000_000_000;

/** True for an integer amount the API accepts (₹1.00 to ₹10,00,00,000.00). */
export function isValidAmountPaise(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isSafeInteger(value) &&
    value >= AMOUNT_MIN_PAISE &&
    value <= AMOUNT_MAX_PAISE
  );
}

/**
 * Reaching here with a fraction or a negative is a bug upstream (amounts are validated at the
 * edge), so it is a plain RangeError that surfaces as INTERNAL_ERROR, not a merchant-facing code.
 */
function assertNonNegativePaise(paise: number): void {
  if (!Number.isSafeInteger(paise) || paise < 0) {
    throw new RangeError(`paise must be a non-negative safe integer, got ${String(paise)}`);
  }
}

/** Splits into whole rupees and the paise remainder; both exact because the input is an integer. */
function splitPaise(paise: number): { rupees: number; rest: number } {
  assertNonNegativePaise(paise);
  const rest = paise % 100;
  return { rupees: (paise - rest) / 100, rest };
}

/** `49900` -> `"499.00"`, `5` -> `"0.05"`: the form UPI's `am` parameter expects. */
export function paiseToRupeeString(paise: number): string {
  const { rupees, rest } = splitPaise(paise);
  return `${rupees}.${String(rest).padStart(2, '0')}`;
}

const RUPEE_STRING = /^(0|[1-9]\d*)\.(\d{2})$/;

/**
 * Inverse of paiseToRupeeString: only the exact canonical form is accepted (two decimals, no sign,
 * no leading zeros), so a provider or intent echoing a different amount shape is noticed.
 */
export function rupeeStringToPaise(value: string): number | null {
  const match = RUPEE_STRING.exec(value);
  if (match === null) return null;
  const paise = Number(match[1]) * 100 + Number(match[2]);
  return Number.isSafeInteger(paise) ? paise : null;
}

/** Indian grouping: the last three digits, then pairs ("1,00,00,000"). */
function groupIndian(digits: string): string {
  if (digits.length <= 3) return digits;
  const head = digits.slice(0, -3);
  const pairs: string[] = [];
  for (let end = head.length; end > 0; end -= 2) {
    pairs.unshift(head.slice(Math.max(0, end - 2), end));
  }
  return `${pairs.join(',')},${digits.slice(-3)}`;
}

/** Display form for people: `10000050` -> `"₹1,00,000.50"`. */
export function formatInr(paise: number): string {
  const { rupees, rest } = splitPaise(paise);
  return `₹${groupIndian(String(rupees))}.${String(rest).padStart(2, '0')}`;
}
