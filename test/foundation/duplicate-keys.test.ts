/**
 * A JSON body that names a key twice in one object (at any depth) is refused with 400 INVALID_JSON
 * on every JSON intake: merchant creates, the checkout's steps and signed provider callbacks
 * (issue 16 item 9). Nothing is created by such a request.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { sandboxSigningSecret, signSandboxBody } from '../../src/sandbox/signing.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';

let ts: TestService;
let client: TestClient;
before(async () => {
  ts = await startTestService();
  client = await ts.createClient({});
});
after(() => ts?.stop());

test('merchant create with a repeated key (top level or nested) → 400 INVALID_JSON, nothing created', async () => {
  for (const rawBody of [
    '{"amount_paise":100,"purpose":"dup","amount_paise":100000}',
    '{"amount_paise":10000,"purpose":"dup","metadata":{"a":"1","a":"2"}}',
  ]) {
    const r = await ts.api('POST', '/merchant/payment-orders', { client, rawBody, idempotencyKey: randomUUID(), headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error.code, 'INVALID_JSON');
    assert.equal(typeof r.body.request_id, 'string');
  }
  const n = await ts.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_orders');
  assert.equal(n.rows[0]!.n, 0);
  // The same body without the repeat is accepted.
  const ok = await ts.api('POST', '/merchant/payment-orders', { client, rawBody: '{"amount_paise":10000,"purpose":"dup"}', idempotencyKey: randomUUID(), headers: { 'content-type': 'application/json' } });
  assert.equal(ok.status, 201, ok.text);
});

test('a checkout step with a repeated key → 400 INVALID_JSON', async () => {
  const order = await ts.api('POST', '/merchant/payment-orders', { client, body: { amount_paise: 10_000, purpose: 'dup' }, idempotencyKey: randomUUID() });
  const token = String(order.body.data.checkout_url).split('/checkout/')[1]!;
  const res = await fetch(`${ts.svc.publicUrl}/checkout/${token}/simulate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"outcome":"fail","outcome":"pay"}' });
  const body = (await res.json()) as any;
  assert.equal(res.status, 400);
  assert.equal(body.error.code, 'INVALID_JSON');
  const status = (await (await fetch(`${ts.svc.publicUrl}/checkout/${token}/status`)).json()) as any;
  assert.equal(status.data.status, 'AWAITING_CUSTOMER');
});

test('a validly signed provider callback with a repeated key → 400 INVALID_JSON, not stored', async () => {
  const raw = `{"id":"${randomUUID()}","type":"collection.updated","reference":"ORD1","status":"FAILED","status":"SUCCESS"}`;
  const res = await fetch(`${ts.svc.internalUrl}/provider/sandbox/callbacks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandboxBody(sandboxSigningSecret(ts.config.masterKey), raw) },
    body: raw,
  });
  const body = (await res.json()) as any;
  assert.equal(res.status, 400);
  assert.equal(body.error.code, 'INVALID_JSON');
  const n = await ts.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM provider_events');
  assert.equal(n.rows[0]!.n, 0);
});
