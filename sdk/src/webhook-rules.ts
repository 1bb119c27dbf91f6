/**
 * The rules of callback verification, free of any crypto API so the Node variant
 * (verify-callback.ts, node:crypto) and the edge variant (verify-callback-web.ts, Web Crypto) apply
 * exactly the same ones. They are the rules of docs/callbacks.md and of examples/verifier.ts; the
 * SDK's tests run both verifiers over one table of cases (examples/verifier-cases.ts).
 *
 * Two schemes (contract §11): `tijori-v1` (API §6.2: X-Service-* headers, `v1=` + hex HMAC of
 * `timestamp.body`) and `standard-webhooks` (webhook-* headers, `v1,` + Base64 HMAC of
 * `id.timestamp.body`, keyed by the Base64-decoded part of a `whsec_` secret).
 */
import { TijoriSignatureError } from './errors.js';
import type { components, webhooks } from './generated/openapi.js';

type JsonBody<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
/**
 * Every event the service can send (its payload), derived from the OpenAPI document's `webhooks`
 * section, which the service makes from its own list of event types (opt-in ones and `test`
 * included): an exhaustive `switch (event.event)` is honest.
 */
export type WebhookEvent = { [K in keyof webhooks]: JsonBody<NonNullable<webhooks[K]['post']>> }[keyof webhooks];
/** `event` of every WebhookEvent: `collection.received`, …, `test`. */
export type WebhookEventType = WebhookEvent['event'];
export type { components };

export type CallbackHeaders = { get(name: string): string | null } | Record<string, string | string[] | undefined>;
export type SigningScheme = 'tijori-v1' | 'standard-webhooks';

export interface VerifyCallbackOptions {
  /** Maximum |now − timestamp| in seconds (default 300). */
  toleranceSeconds?: number;
  /** Current Unix time in seconds (tests). */
  nowSeconds?: number;
  /**
   * The destination's signing scheme (`tijori destination set --scheme`). Default: `tijori-v1`,
   * or `standard-webhooks` when the request carries `webhook-signature` and no X-Service-Signature.
   */
  scheme?: SigningScheme;
}

/** One header's value; a repeated header (which copy was meant?) or an empty one counts as absent. */
export function headerValue(headers: CallbackHeaders, name: string): string | undefined {
  let value: string | string[] | null | undefined;
  if (typeof headers.get === 'function') value = (headers as { get(name: string): string | null }).get(name);
  else {
    const wanted = name.toLowerCase();
    for (const [key, v] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
      if (key.toLowerCase() !== wanted) continue;
      value = v;
      break;
    }
  }
  if (Array.isArray(value)) value = value.length === 1 ? value[0] : undefined;
  return value === null || value === undefined || value === '' ? undefined : value;
}

const encoder = new TextEncoder();

export function bytesOf(rawBody: string | Uint8Array): Uint8Array {
  return typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i]!, bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]! + (b === undefined ? '=' : B64[(n >> 6) & 63]!) + (c === undefined ? '=' : B64[n & 63]!);
  }
  return out;
}

/** Standard Base64 (padding optional); undefined when it is not. */
export function fromBase64(text: string): Uint8Array | undefined {
  const clean = text.replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(clean) || clean.length % 4 === 1) return undefined;
  const out: number[] = [];
  let bits = 0;
  let acc = 0;
  for (const ch of clean) {
    acc = (acc << 6) | B64.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 255);
    }
  }
  return Uint8Array.from(out);
}

export const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** Constant-time comparison of two strings (a length difference is a mismatch). */
export function sameText(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}

/** What is to be checked once the headers passed: the signed bytes, the keys, and the signatures given. */
export interface SignatureCheck {
  scheme: SigningScheme;
  eventId: string;
  timestamp: number;
  body: Uint8Array;
  signed: Uint8Array;
  /** HMAC keys, one per usable secret. */
  keys: Uint8Array[];
  /** Signatures given: `v1=hex` (tijori-v1, one) or the Base64 part of each `v1,` entry (standard-webhooks). */
  given: string[];
  /** The text form of an HMAC digest, to compare with `given`. */
  render: (digest: Uint8Array) => string;
}

/** Headers, timestamp and secrets (every check before the HMAC); throws TijoriSignatureError. */
export function prepare(rawBody: string | Uint8Array, headers: CallbackHeaders, secret: string | readonly string[], options: VerifyCallbackOptions): SignatureCheck {
  const scheme: SigningScheme =
    options.scheme ?? (headerValue(headers, 'x-service-signature') === undefined && headerValue(headers, 'webhook-signature') !== undefined ? 'standard-webhooks' : 'tijori-v1');
  const names = scheme === 'tijori-v1' ? ['X-Service-Event-Id', 'X-Service-Timestamp', 'X-Service-Signature'] : ['webhook-id', 'webhook-timestamp', 'webhook-signature'];
  const [eventId, timestampText, signature] = names.map((n) => headerValue(headers, n));
  if (eventId === undefined || timestampText === undefined || signature === undefined) {
    throw new TijoriSignatureError('missing_header', `${names.join(', ')} are required (once each)`);
  }
  // All digits: no sign, spaces or exponent; 15 digits keep it a safe integer.
  if (!/^[0-9]{1,15}$/.test(timestampText)) throw new TijoriSignatureError('bad_timestamp', `${names[1]} is not all digits`);
  const timestamp = Number(timestampText);
  const tolerance = options.toleranceSeconds ?? 300;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > tolerance) throw new TijoriSignatureError('timestamp_out_of_tolerance', `${names[1]} is more than ${tolerance} s from now`);
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  const body = bytesOf(rawBody);
  if (scheme === 'tijori-v1') {
    return {
      scheme,
      eventId,
      timestamp,
      body,
      signed: concat(encoder.encode(`${timestampText}.`), body),
      keys: secrets.filter((s) => s.length > 0).map((s) => encoder.encode(s)),
      given: [signature],
      render: (d) => `v1=${hex(d)}`,
    };
  }
  const keys: Uint8Array[] = [];
  for (const s of secrets) {
    const key = fromBase64(s.startsWith('whsec_') ? s.slice('whsec_'.length) : s);
    if (key !== undefined && key.length > 0) keys.push(key);
  }
  const given = signature
    .split(' ')
    .filter((part) => part.startsWith('v1,'))
    .map((part) => part.slice(3));
  return { scheme, eventId, timestamp, body, signed: concat(encoder.encode(`${eventId}.${timestampText}.`), body), keys, given, render: base64 };
}

/** After a signature matched: the body must be a JSON object whose `event_id` (when present) is the header's. */
export function finish(check: SignatureCheck, matched: boolean): WebhookEvent {
  if (!matched) throw new TijoriSignatureError('bad_signature', 'no signature matches any of the secrets');
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(check.body));
  } catch {
    throw new TijoriSignatureError('bad_json', 'the signed body is not JSON');
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) throw new TijoriSignatureError('bad_json', 'the signed body is not a JSON object');
  const id = (event as { event_id?: unknown }).event_id;
  // The event id header is not signed (tijori-v1): one that differs from the signed body's was changed in transit.
  if (id !== undefined && id !== check.eventId) throw new TijoriSignatureError('event_id_mismatch', "the event id header differs from the body's event_id");
  return event as WebhookEvent;
}

/** Every key against every given signature, with no early exit (timing does not tell which matched). */
export function anyMatch(check: SignatureCheck, digests: Uint8Array[]): boolean {
  let matched = false;
  for (const d of digests) {
    const mine = check.render(d);
    for (const g of check.given) if (sameText(g, mine)) matched = true;
  }
  return matched;
}
