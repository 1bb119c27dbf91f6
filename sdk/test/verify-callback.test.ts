/**
 * verifyCallback follows API §6.2: a fixed vector computed with openssl (the same one the
 * service's signer is pinned to), deliveries signed by the service's own signer, every way a
 * delivery must be refused, and the shared table of cases the reference verifier
 * (examples/verifier.ts) answers the same way. verifyCallbackWebCrypto answers every case alike.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callbackHeaders } from '../../src/callbacks/signature.js';
import { VERIFIER_CASES } from '../../examples/verifier-cases.js';
import { TijoriSignatureError, verifyCallback, verifyCallbackWebCrypto, type WebhookEvent } from '../src/index.js';

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

test('a delivery signed by the service verifies, as text, bytes or a Headers object, within 300 s', async () => {
  const event = verifyCallback(body, signed(), secret, { toleranceSeconds: 300, nowSeconds: now + 300 });
  assert.equal(event.event, 'payout.success');
  assert.ok(event.event === 'payout.success' && event.data.utr === '123456789012');
  assert.equal(verifyCallback(Buffer.from(body), new Headers(signed()), secret, { nowSeconds: now - 299 }).event_id, '3f1c1e2a-7d5b-4b8e-9a51-0c2f5e6d7a8b');
  assert.equal((await verifyCallbackWebCrypto(new TextEncoder().encode(body), new Headers(signed()), [secret], { nowSeconds: now })).event, 'payout.success');
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

test('a validly signed body that is not a JSON object is a signature error (bad_json), never a TypeError', async () => {
  for (const raw of ['null', '[1]', '"text"', '7', 'nul']) {
    assert.throws(() => verifyCallback(raw, signed({ rawBody: raw }), secret, { nowSeconds: now }), reason('bad_json'), raw);
    await assert.rejects(verifyCallbackWebCrypto(raw, signed({ rawBody: raw }), secret, { nowSeconds: now }), reason('bad_json'), raw);
  }
});

test('the shared table: the SDK (node:crypto and Web Crypto) answers every case as examples/verifier.ts does', async () => {
  const outcome = (f: () => unknown) => {
    try {
      f();
      return 'ok';
    } catch (e) {
      if (e instanceof TijoriSignatureError) return e.reason;
      throw e;
    }
  };
  for (const c of VERIFIER_CASES) {
    assert.equal(outcome(() => verifyCallback(c.rawBody, c.headers, c.secret, { nowSeconds: c.nowSeconds })), c.expect, c.name);
    const web = await verifyCallbackWebCrypto(c.rawBody, c.headers, c.secret, { nowSeconds: c.nowSeconds }).then(
      () => 'ok',
      (e: unknown) => (e instanceof TijoriSignatureError ? e.reason : Promise.reject(e)),
    );
    assert.equal(web, c.expect, `${c.name} (Web Crypto)`);
  }
});

test('WebhookEvent covers every event the service sends, `test` included: an exhaustive switch compiles', () => {
  const label = (e: WebhookEvent): string => {
    switch (e.event) {
      case 'collection.received':
      case 'collection.failed':
      case 'collection.expired':
      case 'collection.cancelled':
        return e.data.order_id;
      case 'collection.refund.requested':
      case 'collection.refund.completed':
        return e.data.refund_id;
      case 'payout.created':
      case 'payout.success':
      case 'payout.failed':
      case 'payout.reversed':
      case 'payout.rejected':
        return e.data.transaction_id;
      case 'settlement.created':
        return e.data.utr ?? e.data.settlement_id;
      case 'test':
        return e.data.destination;
      default: {
        const none: never = e;
        return none;
      }
    }
  };
  assert.equal(label({ event: 'test', event_id: 'x', created_at: 'y', data: { destination: 'payin', message: 'm' } }), 'payin');
});
