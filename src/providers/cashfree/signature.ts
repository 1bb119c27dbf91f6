/**
 * Cashfree webhook signatures (PG, Payouts V2): `x-webhook-signature` =
 * Base64(HMAC-SHA256(key = client secret, message = x-webhook-timestamp + raw body)), plain
 * concatenation, over the exact bytes received. Sources: cashfree.com/docs/api-reference/payments/
 * latest/webhooks/signature-verification; the official Go SDK's PGVerifyWebhookSignature.
 * Cashfree documents no freshness window and its SDK compares with `==`; we add our own window
 * (contract §8: 300 s) and compare in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const CASHFREE_WEBHOOK_TOLERANCE_MS = 300_000;

export function cashfreeSignature(secret: string, timestamp: string, rawBody: string): string {
  return createHmac('sha256', secret).update(timestamp + rawBody, 'utf8').digest('base64');
}

export type SignatureVerdict = 'ok' | 'missing' | 'stale' | 'bad';

/** `timestamp` is epoch milliseconds as Cashfree sends it (e.g. 1746427759733). */
export function verifyCashfreeSignature(
  secret: string,
  rawBody: string,
  timestamp: string | undefined,
  signature: string | undefined,
  nowMs: number = Date.now(),
  toleranceMs: number = CASHFREE_WEBHOOK_TOLERANCE_MS,
): SignatureVerdict {
  if (!timestamp || !signature) return 'missing';
  if (!/^[0-9]{1,16}$/.test(timestamp)) return 'bad';
  const expected = Buffer.from(cashfreeSignature(secret, timestamp, rawBody), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  const same = given.length === expected.length && timingSafeEqual(given, expected);
  if (!same) return 'bad';
  if (Math.abs(nowMs - Number(timestamp)) > toleranceMs) return 'stale';
  return 'ok';
}
