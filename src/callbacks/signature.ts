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
