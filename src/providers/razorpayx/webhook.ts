/**
 * RazorpayX webhooks as Razorpay signs them (rzp-docs webhooks/validate-test.md):
 * `X-Razorpay-Signature` = lowercase hex HMAC-SHA256 of the raw request body, keyed with the
 * webhook secret set in the Dashboard (not the API key secret); no timestamp is signed. The raw
 * bytes are verified, never a re-serialisation (Razorpay escapes `/` as `\/`). Compared in
 * constant time, unlike Razorpay's own SDKs. `x-razorpay-event-id` identifies an event across
 * retries (the intake deduplicates on it); arrival order is not guaranteed, which the payout
 * state rules absorb (a late `processing` after `processed` is stale: `decide` in src/domain/payout.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { RazorpayXConfig } from './config.js';

export const SIGNATURE_HEADER = 'x-razorpay-signature';
export const EVENT_ID_HEADER = 'x-razorpay-event-id';

export function signRazorpayBody(secret: string, rawBody: string): string {
  return createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');
}

function matches(secret: string, rawBody: string, given: Buffer): boolean {
  const expected = createHmac('sha256', secret).update(rawBody, 'utf8').digest();
  return timingSafeEqual(expected, given);
}

/**
 * Which secret signed the body: 'current', 'previous' (only inside its overlap window), or null.
 * The header must be exactly 64 hex digits (a shorter one never reaches the comparison).
 */
export function verifyRazorpaySignature(
  cfg: Pick<RazorpayXConfig, 'webhookSecret' | 'previousWebhookSecret'>,
  rawBody: string,
  header: string | undefined,
  now = new Date(),
): 'current' | 'previous' | null {
  if (!header || !/^[0-9a-fA-F]{64}$/.test(header)) return null;
  const given = Buffer.from(header, 'hex');
  if (matches(cfg.webhookSecret, rawBody, given)) return 'current';
  const prev = cfg.previousWebhookSecret;
  if (prev && now.getTime() < prev.until.getTime() && matches(prev.secret, rawBody, given)) return 'previous';
  return null;
}

export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** How old a RazorpayX webhook may be (its payload's created_at): Razorpay retries for 24 h. */
export const RAZORPAYX_WEBHOOK_MAX_AGE_MS = 25 * 3600_000;
/** How far in the future its created_at may be (clock skew). */
export const RAZORPAYX_WEBHOOK_MAX_SKEW_MS = 5 * 60_000;

/**
 * Freshness (issue #29 item 3): no timestamp is signed, so the payload's own `created_at` (Unix
 * seconds) bounds how long a captured body can be replayed.
 */
export function isFresh(createdAtS: number, now: Date): boolean {
  const ageMs = now.getTime() - createdAtS * 1000;
  return ageMs <= RAZORPAYX_WEBHOOK_MAX_AGE_MS && ageMs >= -RAZORPAYX_WEBHOOK_MAX_SKEW_MS;
}
