/**
 * verifyCallback follows API §6.2: a fixed vector computed with openssl (the same one the
 * service's signer is pinned to), deliveries signed by the service's own signer, and every way a
 * delivery must be refused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callbackHeaders } from '../../src/callbacks/signature.js';
import { TijoriSignatureError, verifyCallback } from '../src/index.js';

const secret = 'whsec_test_123';
const body = JSON.stringify({
  event: 'payout.success',
  event_id: '3f1c1e2a-7d5b-4b8e-9a51-0c2f5e6d7a8b',
  created_at: '2026-01-01T00:00:00.000Z',
  data: { payout_id: '3f1c1e2a-7d5b-4b8e-9a51-0c2f5e6d7a8c', utr: '123456789012', status: 'SUCCESS' },
});
const now = 1_800_000_000;
const signed = (over: { nowSeconds?: number; rawBody?: string; eventId?: string } = {}) =>
  callbackHeaders({ eventId: over.eventId ?? '3f1c1e2a-7d5b-4b8e-9a51-0c2f5e6d7a8b', secret, rawBody: over.rawBody ?? body, nowSeconds: over.nowSeconds ?? now }) as unknown as Record<string, string>;
const reason = (r: TijoriSignatureError['reason']) => (e: unknown) => e instanceof TijoriSignatureError && e.reason === r;

test('the openssl vector: v1= + hex HMAC-SHA256 of "timestamp.body"', () => {
  const raw = '{"event":"payout.success","event_id":"3f1c1e2a-7d5b-4b8e-9a51-0c2f5e6d7a8b"}';
  const headers = {
    'x-service-event-id': '3f1c1e2a-7d5b-4b8e-9a51-0c2f5e6d7a8b',
    'x-service-timestamp': '1700000000',
    'x-service-signature': 'v1=c5668b4ccda48eff82433f4f8ff0dbc16e3acd31c1f8ea606b08402af9d321cd',
  };
  assert.equal(verifyCallback(raw, headers, secret, { nowSeconds: 1_700_000_000 }).event, 'payout.success');
});

test('a delivery signed by the service verifies, as text, bytes or a Headers object, within 300 s', () => {
  const event = verifyCallback(body, signed(), secret, { toleranceSeconds: 300, nowSeconds: now + 300 });
  assert.equal(event.event, 'payout.success');
  assert.ok(event.event === 'payout.success' && event.data.utr === '123456789012');
  assert.equal(verifyCallback(Buffer.from(body), new Headers(signed()), secret, { nowSeconds: now - 299 }).event_id, '3f1c1e2a-7d5b-4b8e-9a51-0c2f5e6d7a8b');
});

test('refused: stale or future timestamp, non-digit timestamp, wrong secret, changed body, missing header, swapped event id', () => {
  assert.throws(() => verifyCallback(body, signed(), secret, { nowSeconds: now + 301 }), reason('timestamp_out_of_tolerance'));
  assert.throws(() => verifyCallback(body, signed(), secret, { nowSeconds: now - 301 }), reason('timestamp_out_of_tolerance'));
  assert.throws(() => verifyCallback(body, { ...signed(), 'X-Service-Timestamp': `${now}.0` }, secret, { nowSeconds: now }), reason('bad_timestamp'));
  assert.throws(() => verifyCallback(body, signed(), 'whsec_other', { nowSeconds: now }), reason('bad_signature'));
  assert.throws(() => verifyCallback(`${body} `, signed(), secret, { nowSeconds: now }), reason('bad_signature'));
  const { 'X-Service-Signature': _dropped, ...unsigned } = signed();
  assert.throws(() => verifyCallback(body, unsigned, secret, { nowSeconds: now }), reason('missing_header'));
  assert.throws(() => verifyCallback(body, { ...signed(), 'X-Service-Event-Id': 'another' }, secret, { nowSeconds: now }), reason('event_id_mismatch'));
});
