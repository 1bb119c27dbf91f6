/**
 * Callback delivery schedule (contract §4): attempt 1 at once, then after about 1 min, 5 min,
 * 30 min, 2 h, 6 h, 12 h, 24 h, 48 h and 72 h: 10 attempts over about 6.9 days (164 h 36 min).
 *
 * Each retry delay gets ±10 % jitter, so deliveries that failed together (a merchant outage) do not
 * all come back in the same second when the merchant recovers.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Delay before attempt n+1, indexed by the number of attempts already made (n). */
export const CALLBACK_DELAYS_MS: readonly number[] = [
  0, // attempt 1: at once
  1 * MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  6 * HOUR,
  12 * HOUR,
  24 * HOUR,
  48 * HOUR,
  72 * HOUR,
];

export const CALLBACK_MAX_ATTEMPTS = CALLBACK_DELAYS_MS.length; // 10

/** Jitter as a fraction of the base delay: the delay is uniform in [base·0.9, base·1.1). */
export const CALLBACK_JITTER = 0.1;

/**
 * Milliseconds to wait before the next attempt, or null when all attempts are used up.
 * `attemptsMade` counts attempts already made (0 before the first). `random` returns a number in
 * [0, 1) (Math.random in production, a fixed function in tests).
 */
export function nextAttemptDelayMs(attemptsMade: number, random: () => number): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0) {
    throw new RangeError(`attemptsMade must be a non-negative integer, got ${attemptsMade}`);
  }
  const base = CALLBACK_DELAYS_MS[attemptsMade];
  if (base === undefined) return null;
  // Clamp so a misbehaving random source can never push the delay outside the documented band.
  const r = Math.min(Math.max(random(), 0), 1);
  const factor = 1 - CALLBACK_JITTER + 2 * CALLBACK_JITTER * (Number.isNaN(r) ? 0.5 : r);
  return Math.round(base * factor);
}
