/**
 * Verifies a signed callback exactly as API §6.2 says: the signed string is the timestamp, a
 * period and the raw body; the key is the destination's signing secret; the header is `v1=` and
 * lowercase hex HMAC-SHA256; compared in constant time; the timestamp must be all digits and
 * within `toleranceSeconds` (300) of now. Storing processed event ids to reject replays (§6.2.6) and
 * retrieving the order before fulfilment (§6.2.8) remain the receiver's job.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { TijoriSignatureError } from './errors.js';
import type { components } from './generated/openapi.js';

type S = components['schemas'];
/** Every event kind of API §6.3 with its payload. */
export type WebhookEvent =
  | S['CollectionReceivedEvent']
  | S['CollectionRefundRequestedEvent']
  | S['CollectionRefundCompletedEvent']
  | S['PayoutCreatedEvent']
  | S['PayoutSuccessEvent']
  | S['PayoutFailedEvent'];

export type CallbackHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyCallbackOptions {
  toleranceSeconds?: number;
  /** Current Unix time in seconds (tests). */
  nowSeconds?: number;
}

function header(headers: CallbackHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Returns the verified event, or throws TijoriSignatureError (answer 401). `rawBody` must be the
 * exact bytes received, never re-serialised JSON.
 */
export function verifyCallback(rawBody: string | Uint8Array, headers: CallbackHeaders, secret: string, options: VerifyCallbackOptions = {}): WebhookEvent {
  const tolerance = options.toleranceSeconds ?? 300;
  const timestamp = header(headers, 'x-service-timestamp');
  const signature = header(headers, 'x-service-signature');
  const eventId = header(headers, 'x-service-event-id');
  if (timestamp === undefined || signature === undefined || eventId === undefined) {
    throw new TijoriSignatureError('missing_header', 'X-Service-Timestamp, X-Service-Signature and X-Service-Event-Id are required');
  }
  if (!/^[0-9]{1,15}$/.test(timestamp)) throw new TijoriSignatureError('bad_timestamp', 'X-Service-Timestamp is not all digits');
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > tolerance) throw new TijoriSignatureError('timestamp_out_of_tolerance', `X-Service-Timestamp is more than ${tolerance} s from now`);
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const expected = Buffer.from(`v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`, 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new TijoriSignatureError('bad_signature', 'X-Service-Signature does not match');
  let event: WebhookEvent;
  try {
    event = JSON.parse(body.toString('utf8')) as WebhookEvent;
  } catch {
    throw new TijoriSignatureError('bad_json', 'the signed body is not JSON');
  }
  // The event id header is not signed: one that differs from the signed body's was changed in transit.
  if (event.event_id !== eventId) throw new TijoriSignatureError('event_id_mismatch', 'X-Service-Event-Id differs from the body\'s event_id');
  return event;
}
