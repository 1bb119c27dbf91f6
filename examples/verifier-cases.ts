/**
 * One table of callback-verification cases, each with the outcome every verifier must give:
 * examples/verifier.test.ts runs it against examples/verifier.ts and sdk/test/verify-callback.test.ts
 * against the SDK's verifyCallback and verifyCallbackWebCrypto, so the reference verifier and the
 * SDK cannot drift apart (a missing event_id, a repeated header, a non-object body, ...).
 * Imports only `node:` modules, like verifier.ts.
 */
import { createHmac } from 'node:crypto';

export type CaseOutcome = 'ok' | 'missing_header' | 'bad_timestamp' | 'timestamp_out_of_tolerance' | 'bad_signature' | 'bad_json' | 'event_id_mismatch';

export interface VerifierCase {
  name: string;
  rawBody: string;
  headers: Record<string, string | string[]>;
  secret: string | string[];
  nowSeconds: number;
  expect: CaseOutcome;
}

export const CASE_SECRET = 'whsec_test_123';
const EVENT_ID = '3f1c1e2a-7d5b-4b8e-9a51-0c2f5e6d7a8b';
const TS = 1_700_000_000;
const BODY = `{"event":"payout.success","event_id":"${EVENT_ID}"}`;

export function sign(secret: string, timestamp: string | number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

function signed(body: string, over: Record<string, string | string[] | undefined> = {}, secret = CASE_SECRET, ts: number = TS): Record<string, string | string[]> {
  const h: Record<string, string | string[] | undefined> = {
    'x-service-event-id': EVENT_ID,
    'x-service-timestamp': String(ts),
    'x-service-signature': sign(secret, ts, body),
    ...over,
  };
  return Object.fromEntries(Object.entries(h).filter((e): e is [string, string | string[]] => e[1] !== undefined));
}

const base = { rawBody: BODY, secret: CASE_SECRET as string | string[], nowSeconds: TS };

export const VERIFIER_CASES: VerifierCase[] = [
  { ...base, name: 'the openssl vector (docs/callbacks.md)', headers: signed(BODY), expect: 'ok' },
  { ...base, name: 'header names in any case', headers: { 'X-SERVICE-EVENT-ID': EVENT_ID, 'X-Service-Timestamp': String(TS), 'x-SERVICE-signature': sign(CASE_SECRET, TS, BODY) }, expect: 'ok' },
  { ...base, name: 'a header given as a one-element array (node:http)', headers: signed(BODY, { 'x-service-signature': [sign(CASE_SECRET, TS, BODY)] }), expect: 'ok' },
  { ...base, name: '300 s late is still in tolerance', headers: signed(BODY), nowSeconds: TS + 300, expect: 'ok' },
  { ...base, name: '301 s late', headers: signed(BODY), nowSeconds: TS + 301, expect: 'timestamp_out_of_tolerance' },
  { ...base, name: '301 s early', headers: signed(BODY), nowSeconds: TS - 301, expect: 'timestamp_out_of_tolerance' },
  { ...base, name: 'secret rotation: the new secret first', secret: ['whsec_new', CASE_SECRET], headers: signed(BODY), expect: 'ok' },
  { ...base, name: 'secret rotation: the old secret first', secret: [CASE_SECRET, 'whsec_old'], headers: signed(BODY), expect: 'ok' },
  { ...base, name: 'no secret matches', secret: ['a', 'b'], headers: signed(BODY), expect: 'bad_signature' },
  { ...base, name: 'an empty list of secrets', secret: [], headers: signed(BODY), expect: 'bad_signature' },
  { ...base, name: 'an empty secret', secret: '', headers: signed(BODY, {}, ''), expect: 'bad_signature' },
  { ...base, name: 'a missing signature header', headers: signed(BODY, { 'x-service-signature': undefined }), expect: 'missing_header' },
  { ...base, name: 'a missing timestamp header', headers: signed(BODY, { 'x-service-timestamp': undefined }), expect: 'missing_header' },
  { ...base, name: 'a missing event id header', headers: signed(BODY, { 'x-service-event-id': undefined }), expect: 'missing_header' },
  { ...base, name: 'an empty event id header', headers: signed(BODY, { 'x-service-event-id': '' }), expect: 'missing_header' },
  { ...base, name: 'a repeated signature header (even with two good copies)', headers: signed(BODY, { 'x-service-signature': [sign(CASE_SECRET, TS, BODY), sign(CASE_SECRET, TS, BODY)] }), expect: 'missing_header' },
  { ...base, name: 'a repeated event id header', headers: signed(BODY, { 'x-service-event-id': [EVENT_ID, 'other'] }), expect: 'missing_header' },
  { ...base, name: 'a timestamp with a decimal point', headers: signed(BODY, { 'x-service-timestamp': `${TS}.0` }), expect: 'bad_timestamp' },
  { ...base, name: 'a signed timestamp', headers: signed(BODY, { 'x-service-timestamp': `+${TS}` }), expect: 'bad_timestamp' },
  { ...base, name: 'a 16-digit timestamp', headers: signed(BODY, { 'x-service-timestamp': '1234567890123456' }), expect: 'bad_timestamp' },
  { ...base, name: 'a tampered body', rawBody: BODY.replace('success', 'failed'), headers: signed(BODY), expect: 'bad_signature' },
  { ...base, name: 'uppercase hex', headers: signed(BODY, { 'x-service-signature': `v1=${sign(CASE_SECRET, TS, BODY).slice(3).toUpperCase()}` }), expect: 'bad_signature' },
  { ...base, name: 'no v1= prefix', headers: signed(BODY, { 'x-service-signature': sign(CASE_SECRET, TS, BODY).slice(3) }), expect: 'bad_signature' },
  { ...base, name: 'a non-ASCII signature', headers: signed(BODY, { 'x-service-signature': 'v1=₹' }), expect: 'bad_signature' },
  { ...base, name: 'a changed event id header', headers: signed(BODY, { 'x-service-event-id': 'other-id' }), expect: 'event_id_mismatch' },
  { ...base, name: 'a signed body without event_id is accepted (nothing to compare)', rawBody: '{"event":"test"}', headers: signed('{"event":"test"}'), expect: 'ok' },
  ...['not json', '[1,2]', 'null', '"x"', '42', 'true', ''].map(
    (body): VerifierCase => ({ ...base, name: `a validly signed non-object body: ${JSON.stringify(body)}`, rawBody: body, headers: signed(body), expect: 'bad_json' }),
  ),
];
