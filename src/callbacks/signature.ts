/**
 * Signing of merchant callbacks (merchant API §6.1–6.2).
 *
 * The signed string is `${timestamp}.${rawBody}` where rawBody is the exact byte sequence sent on
 * the wire. We sign bytes, never a re-serialized object: the most common merchant complaint across
 * gateways is a signature that fails because someone parsed and re-stringified the JSON.
 */
import { createHmac } from 'node:crypto';

export const EVENT_ID_HEADER = 'X-Service-Event-Id';
export const TIMESTAMP_HEADER = 'X-Service-Timestamp';
export const SIGNATURE_HEADER = 'X-Service-Signature';

/** A JS string is encoded as UTF-8; a Buffer/Uint8Array is taken byte for byte. */
export type RawBody = string | Uint8Array;

// A type alias, not an interface, so it is assignable to Record<string, string> (undici headers).
export type CallbackHeaders = {
  'Content-Type': 'application/json';
  'X-Service-Event-Id': string;
  'X-Service-Timestamp': string;
  'X-Service-Signature': string;
};

function assertTimestamp(timestamp: number): void {
  // Only whole, non-negative seconds have one decimal spelling, so sender and receiver agree on it.
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError('callback timestamp must be a non-negative integer number of seconds');
  }
}

/** Returns `v1=` + lowercase hex HMAC-SHA256(secret, `${timestamp}.${rawBody}`). */
export function signCallback(args: { secret: string; timestamp: number; rawBody: RawBody }): string {
  assertTimestamp(args.timestamp);
  if (args.secret.length === 0) throw new TypeError('callback signing secret must not be empty');
  const hmac = createHmac('sha256', args.secret);
  hmac.update(`${args.timestamp}.`, 'utf8');
  if (typeof args.rawBody === 'string') hmac.update(args.rawBody, 'utf8');
  else hmac.update(args.rawBody);
  return `v1=${hmac.digest('hex')}`;
}

/**
 * Headers for one delivery attempt. Call this at send time (contract §4: the body is identical in
 * every attempt; the timestamp and signature are fresh), otherwise a retry hours later would be
 * rejected by the receiver's five-minute tolerance.
 * `eventId` must equal the body's `event_id`: the reference verifier rejects a mismatch, because
 * this header is not covered by the signature.
 */
export function callbackHeaders(args: {
  eventId: string;
  secret: string;
  rawBody: RawBody;
  nowSeconds?: number;
}): CallbackHeaders {
  const timestamp = args.nowSeconds ?? Math.floor(Date.now() / 1000);
  return {
    'Content-Type': 'application/json',
    'X-Service-Event-Id': args.eventId,
    'X-Service-Timestamp': String(timestamp),
    'X-Service-Signature': signCallback({ secret: args.secret, timestamp, rawBody: args.rawBody }),
  };
}

/** The signing schemes of a destination (contract §11). */
export const SIGNING_SCHEMES = ['tijori-v1', 'standard-webhooks'] as const;
export type SigningScheme = (typeof SIGNING_SCHEMES)[number];

/**
 * A `whsec_` secret as Standard Webhooks defines it: `whsec_` + standard Base64 of 24–64 bytes.
 * Returns the key bytes, or null when `secret` is not one (then it cannot sign that scheme).
 */
export function standardWebhooksKey(secret: string): Buffer | null {
  const m = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret);
  if (!m || m[1]!.length % 4 !== 0) return null;
  const key = Buffer.from(m[1]!, 'base64');
  return key.length >= 24 && key.length <= 64 ? key : null;
}

export type StandardWebhooksHeaders = {
  'Content-Type': 'application/json';
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/**
 * Standard Webhooks headers for one attempt: `webhook-id` (the event id), `webhook-timestamp`
 * (Unix seconds) and `webhook-signature` = `v1,` + Base64 HMAC-SHA256(key, `id.timestamp.body`),
 * the key being the decoded part of the `whsec_` secret. Fresh at every attempt, like callbackHeaders.
 */
export function standardWebhooksHeaders(args: { eventId: string; secret: string; rawBody: RawBody; nowSeconds?: number }): StandardWebhooksHeaders {
  const timestamp = args.nowSeconds ?? Math.floor(Date.now() / 1000);
  assertTimestamp(timestamp);
  const key = standardWebhooksKey(args.secret);
  if (key === null) throw new TypeError('a Standard Webhooks secret is whsec_ + standard Base64 of 24 to 64 bytes');
  const hmac = createHmac('sha256', key);
  hmac.update(`${args.eventId}.${timestamp}.`, 'utf8');
  if (typeof args.rawBody === 'string') hmac.update(args.rawBody, 'utf8');
  else hmac.update(args.rawBody);
  return {
    'Content-Type': 'application/json',
    'webhook-id': args.eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${hmac.digest('base64')}`,
  };
}

/** The headers of one attempt in the destination's scheme. */
export function signedHeaders(scheme: SigningScheme, args: { eventId: string; secret: string; rawBody: RawBody; nowSeconds?: number }): Record<string, string> {
  return scheme === 'standard-webhooks' ? standardWebhooksHeaders(args) : callbackHeaders(args);
}
