/** An API client's rate limit (requests per minute): its bounds and default, for every place that sets or checks one. */
export const RATE_LIMIT_MIN_PER_MINUTE = 1;
export const RATE_LIMIT_MAX_PER_MINUTE = 1_000_000;
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;
export const RATE_LIMIT_ISSUE = `must be an integer from ${RATE_LIMIT_MIN_PER_MINUTE} to ${RATE_LIMIT_MAX_PER_MINUTE} per minute`;
/** The bounds as JSON Schema states them (the request schemas of the admin API and the console). */
export const RATE_LIMIT_BOUNDS = { minimum: RATE_LIMIT_MIN_PER_MINUTE, maximum: RATE_LIMIT_MAX_PER_MINUTE } as const;

export function isValidRateLimit(rate: number): boolean {
  return Number.isInteger(rate) && rate >= RATE_LIMIT_MIN_PER_MINUTE && rate <= RATE_LIMIT_MAX_PER_MINUTE;
}
